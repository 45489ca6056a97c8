import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ByteRange } from '../lib/storage';
import { decodeVirtualImage, encodeVirtualImage, readVirtualImage, virtualImage, type ImagePiece, type OpenStored } from './virtual-image';

const SECTOR = 2048;
const pattern = (length: number, seed: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff));

/** A store of two files; it records the ranges asked of it. */
function fakeStore(files: Record<string, Buffer>) {
  const asked: Array<{ key: string; range?: ByteRange }> = [];
  const open: OpenStored = async (key, range) => {
    asked.push({ key, range });
    const file = files[key]!;
    const bytes = range ? file.subarray(range.start, range.end + 1) : file;
    // In small chunks, as a file stream hands them over.
    return Readable.from(Array.from({ length: Math.ceil(bytes.length / 1000) }, (_, i) => bytes.subarray(i * 1000, (i + 1) * 1000)));
  };
  return { open, asked };
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const files = { 'dicom/a.dcm': pattern(5000, 1), 'dicom/b.dcm': pattern(2 * SECTOR, 2) };
const pieces: ImagePiece[] = [
  { kind: 'zeros', size: 3 * SECTOR },
  { kind: 'bytes', bytes: pattern(100, 3) },
  { kind: 'stored', key: 'dicom/a.dcm', size: 5000 },
  { kind: 'stored', key: 'dicom/b.dcm', size: 2 * SECTOR },
  { kind: 'bytes', bytes: pattern(SECTOR + 1, 4) },
];
/** The same image written out the plain way: each piece padded to whole sectors. */
const expected = Buffer.concat(
  pieces.map((piece) => {
    const bytes =
      piece.kind === 'bytes'
        ? Buffer.from(piece.bytes)
        : piece.kind === 'zeros'
          ? Buffer.alloc(piece.size)
          : files[piece.key as keyof typeof files];
    return Buffer.concat([bytes, Buffer.alloc((SECTOR - (bytes.length % SECTOR)) % SECTOR)]);
  }),
);

describe('a virtual disc image', () => {
  it('is as large as its pieces, each padded to whole sectors', () => {
    expect(virtualImage(pieces).size).toBe(expected.length);
    expect(expected.length).toBe((3 + 1 + 3 + 2 + 2) * SECTOR);
  });

  it('reads whole byte for byte as the image written out', async () => {
    const store = fakeStore(files);
    expect((await bytesOf(readVirtualImage(virtualImage(pieces), store.open))).equals(expected)).toBe(true);
  });

  it('reads any range as that slice of the image, opening only the stored files it crosses', async () => {
    const image = virtualImage(pieces);
    const edges = [
      0,
      1,
      3 * SECTOR - 1,
      3 * SECTOR,
      4 * SECTOR,
      4 * SECTOR + 4999,
      4 * SECTOR + 5000,
      7 * SECTOR - 1,
      7 * SECTOR,
      image.size - 1,
    ];
    for (const start of edges) {
      for (const end of edges.filter((edge) => edge >= start)) {
        const store = fakeStore(files);
        const read = await bytesOf(readVirtualImage(image, store.open, { start, end }));
        expect(read.equals(expected.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
        for (const { range } of store.asked) expect(range!.end - range!.start).toBeLessThanOrEqual(end - start);
      }
    }
    const store = fakeStore(files);
    await bytesOf(readVirtualImage(image, store.open, { start: 4 * SECTOR + 10, end: 4 * SECTOR + 20 }));
    expect(store.asked).toEqual([{ key: 'dicom/a.dcm', range: { start: 10, end: 20 } }]);
  });

  it('keeps only its own bytes when encoded, and decodes to the same image', async () => {
    const encoded = encodeVirtualImage(virtualImage(pieces));
    expect(encoded.length).toBeLessThan(SECTOR + 1 + 100 + 400);
    const store = fakeStore(files);
    expect((await bytesOf(readVirtualImage(decodeVirtualImage(encoded), store.open))).equals(expected)).toBe(true);
  });

  it('refuses an encoding that does not add up', () => {
    const encoded = encodeVirtualImage(virtualImage(pieces));
    expect(() => decodeVirtualImage(encoded.subarray(0, encoded.length - 1))).toThrow();
    expect(() => decodeVirtualImage(Buffer.concat([encoded, Buffer.from([0])]))).toThrow();
  });

  it('fails the read when a stored file is shorter than laid out, instead of shifting what follows', async () => {
    const store = fakeStore({ ...files, 'dicom/a.dcm': pattern(4000, 1) });
    await expect(bytesOf(readVirtualImage(virtualImage(pieces), store.open))).rejects.toThrow(/changed size/);
  });
});
