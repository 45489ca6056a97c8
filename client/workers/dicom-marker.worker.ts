/// <reference lib="webworker" />
import { expose, transfer } from 'comlink';
import { readDicomIdentity, type DicomIdentity } from './dicom-identity';
import { MarkerVerdict, scanFiles, type ScannedBatch } from './dicom-marker';

/**
 * The files that passed the marker check, by the page's key, until their identity is asked for
 * (once): the page then never slices a file itself.
 */
const passed = new Map<number, File>();

/**
 * The DICOM marker scan off the main thread. Files arrive as handles (posting them copies no
 * bytes); the slices, reads and their answers happen here, and the verdicts, sizes and dates go
 * back as transferred buffers, so the page never asks the browser about a file itself.
 */
const markerScanWorker = {
  /** `firstKey`: the page's key of the first file; the others follow in order. */
  async scan(files: File[], firstKey: number): Promise<ScannedBatch> {
    const scanned = await scanFiles(files);
    scanned.verdicts.forEach((verdict, index) => {
      if (verdict === MarkerVerdict.dicom) passed.set(firstKey + index, files[index]!);
    });
    return transfer(scanned, [scanned.verdicts.buffer, scanned.sizes.buffer, scanned.lastModified.buffer]);
  },
  /**
   * The SOP Instance UID of a file that passed (a slice and a 64 kB read, here rather than on the
   * page). A key not known here (asked twice) gets no identity: the server decides about the file.
   */
  async identify(key: number, path: string): Promise<DicomIdentity> {
    const file = passed.get(key);
    passed.delete(key);
    return file ? readDicomIdentity(file, path, file.size) : { sopInstanceUid: null, dicomdir: false };
  },
};

export type MarkerScanWorker = typeof markerScanWorker;

expose(markerScanWorker);
