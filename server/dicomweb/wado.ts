import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import dcmjs from 'dcmjs';
import type { FileStorage } from '../lib/storage';
import type { DicomJsonDataset } from './dicom-json';
import type { InstanceRow } from './repo';

/**
 * WADO-RS retrieval (PS3.18 10.4): the stored files as they are, one `application/dicom` part
 * each, streamed from the store. The portal offers no other representation (no transcoding), so
 * every Accept is answered with this one.
 */
export async function streamInstances(res: Response, storage: FileStorage, rows: InstanceRow[]): Promise<void> {
  const boundary = `dicomweb-${randomUUID()}`;
  res.status(200);
  res.set('Content-Type', `multipart/related; type="application/dicom"; boundary=${boundary}`);
  for (const row of rows) {
    await write(
      res,
      Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\nContent-Length: ${row.size_bytes}\r\n\r\n`, 'latin1'),
    );
    for await (const chunk of await storage.openRead(row.storage_key)) await write(res, chunk as Buffer);
    await write(res, Buffer.from('\r\n', 'latin1'));
  }
  res.end(`--${boundary}--\r\n`);
}

async function write(res: Response, bytes: Buffer): Promise<void> {
  if (res.destroyed) throw new Error('The client went away');
  if (!res.write(bytes)) await drainedOrClosed(res);
}

function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Binary values are left out of the metadata (PS3.18 F.2.6 allows BulkDataURI; none is offered). */
const BINARY_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'UN']);
const PIXEL_DATA_TAGS = new Set(['7FE00008', '7FE00009', '7FE00010']);

/** The instance's own header as DICOM JSON, read from the stored file with dcmjs. */
export async function instanceMetadata(storage: FileStorage, row: InstanceRow): Promise<DicomJsonDataset> {
  const bytes = await storage.readBytes(row.storage_key, 0, Number(row.size_bytes));
  const file = dcmjs.data.DicomMessage.readFile(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, {
    untilTag: '7FE00010',
    includeUntilTagValue: false,
  });
  return withoutBinary(file.dict);
}

function withoutBinary(dataset: Record<string, { vr: string; Value?: unknown[] }>): DicomJsonDataset {
  const result: DicomJsonDataset = {};
  for (const [tag, attribute] of Object.entries(dataset)) {
    if (BINARY_VRS.has(attribute.vr) || PIXEL_DATA_TAGS.has(tag.toUpperCase())) continue;
    if (attribute.vr === 'SQ' && attribute.Value) {
      result[tag] = {
        vr: 'SQ',
        Value: attribute.Value.map((item) => withoutBinary(item as Record<string, { vr: string; Value?: unknown[] }>)),
      };
    } else {
      result[tag] = attribute.Value && attribute.Value.length > 0 ? { vr: attribute.vr, Value: attribute.Value } : { vr: attribute.vr };
    }
  }
  return result;
}
