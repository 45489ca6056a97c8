import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PartFile } from './part-file';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'part-file-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** `total` bytes of a repeating pattern, so a byte out of place shows. */
function pattern(total: number): Buffer {
  return Buffer.from(Array.from({ length: total }, (_, index) => (index * 31 + 7) & 0xff));
}

async function writeInPieces(file: PartFile, bytes: Buffer, pieceSize: number): Promise<void> {
  for (let at = 0; at < bytes.length; at += pieceSize) await file.write(bytes.subarray(at, at + pieceSize));
}

describe('PartFile', () => {
  it('writes every byte in order however the body is cut, across several write batches', async () => {
    const sent = pattern(3 * 1024 * 1024 + 12_345);
    for (const pieceSize of [1, 4096, 65_536, 1_000_003]) {
      const file = new PartFile(path.join(directory, `p${pieceSize}`), { headBytes: 0 });
      await writeInPieces(file, pieceSize === 1 ? sent.subarray(0, 5000) : sent, pieceSize);
      const written = await file.finish();
      const expected = pieceSize === 1 ? sent.subarray(0, 5000) : sent;
      expect(written.size).toBe(expected.length);
      expect(readFileSync(written.path).equals(expected), `pieces of ${pieceSize}`).toBe(true);
    }
  });

  it('writes the first bytes blank and keeps the first bytes as sent in memory', async () => {
    const sent = pattern(200_000);
    const file = new PartFile(path.join(directory, 'blank'), { headBytes: 70_000, blankBytes: 128 });
    await writeInPieces(file, sent, 100);
    const { path: written, head } = await file.finish();
    expect(readFileSync(written).equals(Buffer.concat([Buffer.alloc(128), sent.subarray(128)]))).toBe(true);
    expect(head.equals(sent.subarray(0, 70_000))).toBe(true);
  });

  it('keeps a head no longer than the file', async () => {
    const file = new PartFile(path.join(directory, 'short'), { headBytes: 64 * 1024, blankBytes: 128 });
    await file.write(Buffer.from('short'));
    const { head, size } = await file.finish();
    expect(head.toString()).toBe('short');
    expect(size).toBe(5);
    expect(readFileSync(path.join(directory, 'short'))).toEqual(Buffer.alloc(5));
  });

  it('removes its file when discarded mid-way', async () => {
    const file = new PartFile(path.join(directory, 'gone'), { headBytes: 0 });
    await writeInPieces(file, pattern(2 * 1024 * 1024), 65_536);
    await file.discard();
    expect(existsSync(path.join(directory, 'gone'))).toBe(false);
  });

  it('never writes over a file already there', async () => {
    await new PartFile(path.join(directory, 'taken'), { headBytes: 0 }).finish();
    const again = new PartFile(path.join(directory, 'taken'), { headBytes: 0 });
    await again.write(Buffer.from('other'));
    await expect(again.finish()).rejects.toMatchObject({ code: 'EEXIST' });
  });

  it('takes the bytes before its file is open, and answers a file it cannot open when finished', async () => {
    const file = new PartFile(path.join(directory, 'missing-folder', 'part'), { headBytes: 0 });
    await file.write(Buffer.from('bytes'));
    await expect(file.finish()).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
