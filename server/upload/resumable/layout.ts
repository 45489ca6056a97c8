import path from 'node:path';
import type { FileStorage } from '../../lib/storage';

/**
 * The folder of the bytes of unfinished uploads, `<id>` each: inside the incoming area of the file
 * store, so keeping a finished image is a rename (FileStorage.adopt).
 */
export const RESUMABLE_FOLDER = 'resumable';

export function resumableDirectoryOf(storage: Pick<FileStorage, 'incomingDir'>): string {
  return path.join(storage.incomingDir, RESUMABLE_FOLDER);
}

/** An upload id as the naming function makes them (128 random bits, hex); anything else is nobody's upload. */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;
