import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Independent readers of ISO images and DICOM files (bsdtar, xorriso, dcmtk) for the tests. */

/** Paths of the files in the Joliet tree, as bsdtar (libarchive) reads them. */
export function bsdtarFiles(isoPath: string): string[] {
  const listing = execFileSync('bsdtar', ['-tf', isoPath], { encoding: 'utf8' });
  return listing
    .split('\n')
    .filter((line) => line && line !== '.' && !line.endsWith('/'))
    .filter((line) => !isDirectoryIn(listing, line))
    .sort();
}

function isDirectoryIn(listing: string, entry: string): boolean {
  return listing.split('\n').some((other) => other.startsWith(`${entry}/`));
}

/** Paths in the plain ISO 9660 tree (8.3 names), as xorriso reads them without Joliet. */
export function xorrisoPrimaryPaths(isoPath: string): string[] {
  const output = execFileSync('xorriso', ['-read_fs', 'ecma119', '-indev', isoPath, '-find', '/', '-type', 'f'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return output
    .split('\n')
    .filter((line) => line.startsWith("'/"))
    .map((line) => line.slice(2, -1))
    .sort();
}

export function extractFromIso(isoPath: string, file: string): Buffer {
  return execFileSync('bsdtar', ['-xOf', isoPath, file], { maxBuffer: 512 * 1024 * 1024 });
}

/** dcmftest: does the file carry the DICOM Part 10 preamble and `DICM` marker. */
export function dcmftestAccepts(bytes: Uint8Array): boolean {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'dcmftest-')), 'file.dcm');
  writeFileSync(file, bytes);
  try {
    return execFileSync('dcmftest', [file], { encoding: 'utf8' }).startsWith('yes:');
  } catch {
    return false;
  }
}

export type DicomDirRecord = { offset: number; type: string; next: number; lower: number; fileId: string | null };

/** The directory records of a DICOMDIR as dcmdump reads them, with dcmdump's own offsets. */
export function dcmdumpDirectoryRecords(bytes: Uint8Array): { root: { first: number; last: number }; records: DicomDirRecord[] } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'dicomdir-')), 'DICOMDIR');
  writeFileSync(file, bytes);
  const dump = execFileSync('dcmdump', ['-q', file], { encoding: 'utf8' });
  const value = (line: string) => Number(/\bup (\d+)/.exec(line)?.[1] ?? /\bUL (\d+)/.exec(line)?.[1]);
  const root = { first: 0, last: 0 };
  const records: DicomDirRecord[] = [];
  let current: DicomDirRecord | undefined;
  for (const line of dump.split('\n')) {
    const offset = /#\s+offset=\$(\d+)/.exec(line);
    if (offset) {
      current = { offset: Number(offset[1]), type: '', next: -1, lower: -1, fileId: null };
      records.push(current);
    } else if (line.includes('(0004,1200)')) root.first = value(line);
    else if (line.includes('(0004,1202)')) root.last = value(line);
    else if (current && line.includes('(0004,1400)')) current.next = value(line);
    else if (current && line.includes('(0004,1420)')) current.lower = value(line);
    else if (current && line.includes('(0004,1430)')) current.type = /\[(\w+)\s*\]/.exec(line)?.[1] ?? '';
    else if (current && line.includes('(0004,1500)')) current.fileId = /\[([^\]]+)\]/.exec(line)?.[1]?.replace(/\\/g, '/') ?? null;
  }
  return { root, records };
}
