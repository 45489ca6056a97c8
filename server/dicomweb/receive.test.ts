import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors';
import { stowBoundary, withReceivedParts, type ReceivedPart } from './receive';

let incomingDir: string;
beforeEach(() => {
  incomingDir = mkdtempSync(path.join(tmpdir(), 'stow-receive-'));
});
afterEach(() => rmSync(incomingDir, { recursive: true, force: true }));

const BOUNDARY = 'xyz';
const LARGE = { maxPartBytes: 100_000, maxParts: 10, maxRequestBytes: 1_000_000 };

function body(parts: { bytes: Buffer; contentType?: string }[], final = true): Buffer {
  const chunks = parts.flatMap((part) => [
    Buffer.from(`--${BOUNDARY}\r\n${part.contentType === undefined ? '' : `Content-Type: ${part.contentType}\r\n`}\r\n`),
    part.bytes,
    Buffer.from('\r\n'),
  ]);
  if (final) chunks.push(Buffer.from(`--${BOUNDARY}--`));
  return Buffer.concat(chunks);
}

/** The body in chunks of `size` bytes, as a socket might deliver it. */
function stream(bytes: Buffer, size = 7): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}

/** What a part's file holds: its first 128 bytes (a DICOM preamble) written as zeros. */
const blankPreamble = (sent: string) => '\0'.repeat(Math.min(128, sent.length)) + sent.slice(128);

type Seen = Omit<ReceivedPart, 'path' | 'head'> & { bytes?: string };

async function receive(bytes: Buffer, limits = { maxPartBytes: 1000, maxParts: 10, maxRequestBytes: 100_000 }): Promise<Seen[]> {
  return withReceivedParts(stream(bytes), BOUNDARY, incomingDir, limits, async (parts) =>
    parts.map(({ path: partPath, head: _head, ...part }) => ({
      ...part,
      ...(!part.refused && { bytes: readFileSync(partPath, 'latin1') }),
    })),
  );
}

describe('withReceivedParts', () => {
  it('writes each part to a file of its own and removes them all afterwards', async () => {
    const seen = await receive(
      body([{ bytes: Buffer.from('first'), contentType: 'application/dicom' }, { bytes: Buffer.alloc(3000, 'b') }]),
      {
        maxPartBytes: 5000,
        maxParts: 10,
        maxRequestBytes: 100_000,
      },
    );
    expect(seen).toEqual([
      { index: 0, contentType: 'application/dicom', size: 5, bytes: blankPreamble('first') },
      { index: 1, contentType: undefined, size: 3000, bytes: blankPreamble('b'.repeat(3000)) },
    ]);
    expect(readdirSync(incomingDir)).toEqual([]);
  });

  it('writes the first 128 bytes (a DICOM preamble) as zeros and keeps the first bytes as sent in memory', async () => {
    const sent = Buffer.concat([Buffer.alloc(128, 'p'), Buffer.from('DICM'), Buffer.alloc(70_000, 'h')]);
    const [part] = await withReceivedParts(stream(body([{ bytes: sent }]), 1000), BOUNDARY, incomingDir, LARGE, async (parts) =>
      parts.map((received) => ({ onDisk: readFileSync(received.path), head: received.head })),
    );
    expect(part!.onDisk).toEqual(Buffer.concat([Buffer.alloc(128), sent.subarray(128)]));
    expect(part!.head).toEqual(sent.subarray(0, 64 * 1024));
  });

  it('keeps every part of a body of many, each whole with its own head, while earlier ones are still being written', async () => {
    const sent = Array.from({ length: 40 }, (_, index) => Buffer.alloc(500 + index * 97, String.fromCharCode(97 + (index % 26))));
    const parts = await withReceivedParts(
      stream(body(sent.map((bytes) => ({ bytes }))), 1000),
      BOUNDARY,
      incomingDir,
      { maxPartBytes: 10_000, maxParts: 100, maxRequestBytes: 1_000_000 },
      async (received) => received.map((part) => ({ index: part.index, head: part.head, onDisk: readFileSync(part.path) })),
    );
    expect(parts.map((part) => part.index)).toEqual(sent.map((_, index) => index));
    for (const [index, bytes] of sent.entries()) {
      expect(parts[index]!.head).toEqual(bytes);
      expect(parts[index]!.onDisk).toEqual(Buffer.concat([Buffer.alloc(128), bytes.subarray(128)]));
    }
    expect(readdirSync(incomingDir)).toEqual([]);
  });

  it('reports a part over the size limit and parts past the count as refused, keeping the others', async () => {
    const seen = await receive(body([{ bytes: Buffer.alloc(1001, 'x') }, { bytes: Buffer.from('ok') }, { bytes: Buffer.from('late') }]), {
      maxPartBytes: 1000,
      maxParts: 2,
      maxRequestBytes: 100_000,
    });
    expect(seen).toEqual([
      { index: 0, contentType: undefined, size: 1001, refused: 'too_large' },
      { index: 1, contentType: undefined, size: 2, bytes: blankPreamble('ok') },
      { index: 2, contentType: undefined, size: 0, refused: 'too_many' },
    ]);
  });

  it('keeps no more than the request may hold in all, refusing the part that would go over', async () => {
    const parts = [Buffer.alloc(600, 'a'), Buffer.alloc(600, 'b'), Buffer.alloc(300, 'c')].map((bytes) => ({ bytes }));
    const seen = await receive(body(parts), { maxPartBytes: 1000, maxParts: 10, maxRequestBytes: 1000 });
    expect(seen.map(({ index, refused, bytes }) => ({ index, refused, kept: bytes?.length }))).toEqual([
      { index: 0, refused: undefined, kept: 600 },
      { index: 1, refused: 'too_large', kept: undefined },
      { index: 2, refused: undefined, kept: 300 },
    ]);
    expect(readdirSync(incomingDir)).toEqual([]);
  });

  it('refuses a cut body or one without parts with 400 and leaves nothing behind', async () => {
    await expect(receive(body([{ bytes: Buffer.alloc(500, 'x') }], false))).rejects.toMatchObject({ status: 400, code: 'VALIDATION' });
    await expect(receive(Buffer.from(`--${BOUNDARY}--`))).rejects.toMatchObject({ status: 400 });
    expect(readdirSync(incomingDir)).toEqual([]);
  });

  it('removes the files when the work fails', async () => {
    let seenPath = '';
    await expect(
      withReceivedParts(
        stream(body([{ bytes: Buffer.from('x') }])),
        BOUNDARY,
        incomingDir,
        { maxPartBytes: 10, maxParts: 1, maxRequestBytes: 100 },
        async ([part]) => {
          seenPath = part!.path;
          throw new Error('boom');
        },
      ),
    ).rejects.toThrow('boom');
    expect(existsSync(seenPath)).toBe(false);
  });
});

describe('stowBoundary', () => {
  it('reads the boundary of multipart/related with the DICOM root type, quoted or not', () => {
    expect(stowBoundary('multipart/related; type="application/dicom"; boundary="a:b"')).toBe('a:b');
    expect(stowBoundary('Multipart/Related; boundary=abc; type=application/DICOM')).toBe('abc');
  });

  it('refuses other media types with 415', () => {
    for (const contentType of [
      undefined,
      'application/dicom',
      'multipart/related; type="application/dicom+xml"; boundary=a',
      'multipart/related',
    ]) {
      expect(() => stowBoundary(contentType)).toThrow(AppError);
    }
  });
});
