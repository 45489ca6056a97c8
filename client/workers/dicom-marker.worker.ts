/// <reference lib="webworker" />
import { expose, transfer } from 'comlink';
import { scanFiles, type ScannedBatch } from './dicom-marker';
import { pathOrder } from './path-order';

/**
 * The DICOM marker scan off the main thread. Files arrive as handles (posting them copies no
 * bytes); the slices, reads and their answers happen here, and the verdicts, sizes and dates go
 * back as transferred buffers, so the page never asks the browser about a file itself.
 */
const markerScanWorker = {
  async scan(files: File[]): Promise<ScannedBatch> {
    const scanned = await scanFiles(files);
    return transfer(scanned, [scanned.verdicts.buffer, scanned.sizes.buffer, scanned.lastModified.buffer]);
  },
  /** Sorting a disc's thousands of paths takes tens of milliseconds: done here, not on the page. */
  order(paths: string[]): Uint32Array {
    const order = pathOrder(paths);
    return transfer(order, [order.buffer]);
  },
};

export type MarkerScanWorker = typeof markerScanWorker;

expose(markerScanWorker);
