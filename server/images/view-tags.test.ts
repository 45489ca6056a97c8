import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dcmjs from 'dcmjs';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_VIEW_TAGS, readViewTags } from './view-tags';

const SYNTAXES = fileURLToPath(new URL('../../tests/fixtures/dicom-syntaxes', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'view-tags-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The view tags of a file on disk, read as the store's `readBytes` answers. */
function tagsOfFile(filePath: string) {
  return readViewTags(async (start, length) => {
    const handle = await open(filePath, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, start);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  });
}

/** A fixture rewritten with dcmjs after `change` edits its data set (tags by their hex keys, "00200062"). */
function rewritten(fixture: string, change: (dict: Record<string, { vr: string; Value?: unknown[] }>) => void): string {
  const bytes = readFileSync(path.join(SYNTAXES, fixture));
  const file = dcmjs.data.DicomMessage.readFile(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  change(file.dict);
  const out = path.join(scratch, `${Math.random().toString(36).slice(2)}.dcm`);
  writeFileSync(out, Buffer.from(file.write()));
  return out;
}

describe('readViewTags', () => {
  const fixtures = readdirSync(SYNTAXES).filter((name) => name.endsWith('.dcm'));

  it.each(fixtures)('reads the view, syntax and matrix of %s, whatever its encoding', async (fixture) => {
    const tags = await tagsOfFile(path.join(SYNTAXES, fixture));
    const readme = readFileSync(path.join(SYNTAXES, 'README.md'), 'utf8');
    const row = new RegExp(`^\\| \`${fixture}\` \\| \`([^\`]+)\` \\|.*\\| ([RL]) (\\w+) \\|$`, 'm').exec(readme);
    expect(row).not.toBeNull();
    expect(tags).toEqual({
      laterality: row![2],
      viewPosition: row![3],
      transferSyntaxUid: row![1],
      rows: 320,
      columns: 256,
      instanceNumber: expect.any(Number),
    });
  });

  it('falls back on Laterality when ImageLaterality is absent, and ignores a side that is none of R and L', async () => {
    const seriesSide = rewritten('explicit-vr-little-endian.dcm', (dict) => {
      delete dict['00200062'];
      dict['00200060'] = { vr: 'CS', Value: ['L'] };
    });
    expect(await tagsOfFile(seriesSide)).toMatchObject({ laterality: 'L', viewPosition: 'CC' });
    const both = rewritten('explicit-vr-little-endian.dcm', (dict) => {
      dict['00200062'] = { vr: 'CS', Value: ['B'] };
      dict['00185101'] = { vr: 'CS', Value: ['xccl '] };
    });
    expect(await tagsOfFile(both)).toMatchObject({ laterality: null, viewPosition: 'XCCL' });
  });

  it('reads past a header longer than the first slice', async () => {
    const long = rewritten('jpeg-2000-lossy.dcm', (dict) => {
      dict['00090010'] = { vr: 'LO', Value: ['PORTAL TEST'] };
      dict['00091010'] = { vr: 'OB', Value: [new Uint8Array(300_000).fill(7).buffer] };
    });
    expect(await tagsOfFile(long)).toMatchObject({
      laterality: 'L',
      viewPosition: 'CC',
      transferSyntaxUid: '1.2.840.10008.1.2.4.91',
      rows: 320,
    });
  });

  it('answers nulls for a file that does not parse, and throws for one that is not there', async () => {
    const garbage = path.join(scratch, 'garbage.dcm');
    writeFileSync(garbage, Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), Buffer.alloc(400, 0xab)]));
    expect(await tagsOfFile(garbage)).toEqual(NO_VIEW_TAGS);
    const truncated = path.join(scratch, 'truncated.dcm');
    writeFileSync(truncated, readFileSync(path.join(SYNTAXES, 'explicit-vr-little-endian.dcm')).subarray(0, 300));
    expect(await tagsOfFile(truncated)).toEqual(NO_VIEW_TAGS);
    await expect(tagsOfFile(path.join(scratch, 'missing.dcm'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
