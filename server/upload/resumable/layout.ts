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

/**
 * Where the file of an upload sent whole in its creating request is written: in the incoming
 * area itself, not among the unfinished uploads (it has no row until it is stored, and the sweep
 * of those removes bytes no row names); left behind by a process that died, the incoming area's
 * own sweep removes it (../multipart.ts removeStaleIncoming).
 */
export function wholeUploadFileOf(storage: Pick<FileStorage, 'incomingDir'>, id: string): string {
  return path.join(storage.incomingDir, `${id}.whole`);
}
