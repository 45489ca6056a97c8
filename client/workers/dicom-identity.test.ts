import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DICOM_CORPUS_DIR } from '../../tests/support/dicom-corpus';
import { IDENTITY_BYTES, readDicomIdentity } from './dicom-identity';

function corpusFile(name: string): Blob {
  return new Blob([readFileSync(`${DICOM_CORPUS_DIR}/${name}`)]);
}

describe('readDicomIdentity', () => {
  it('reads the SOP Instance UID from the first bytes of explicit and implicit little endian files', async () => {
    for (const name of ['CT_small.dcm', 'MR_small.dcm', 'MR_small_implicit.dcm', 'JPEG2000.dcm']) {
      const file = corpusFile(name);
      const identity = await readDicomIdentity(file, name, file.size);
      expect(identity.dicomdir, name).toBe(false);
      expect(identity.sopInstanceUid, name).toMatch(/^[0-9]+(\.[0-9]+)+$/);
    }
  });

  it('reads no more than its slice: a header cut off after it still names the image', async () => {
    const whole = corpusFile('MR_small.dcm');
    const cut = whole.slice(0, 2_000);
    const slices: number[] = [];
    const spy = Object.assign(cut, {
      slice: (start?: number, end?: number) => {
        slices.push((end ?? 0) - (start ?? 0));
        return Blob.prototype.slice.call(cut, start, end);
      },
    });
    const fromWhole = await readDicomIdentity(whole, 'MR_small.dcm', whole.size);
    expect((await readDicomIdentity(spy, 'MR_small.dcm', cut.size)).sopInstanceUid).toBe(fromWhole.sopInstanceUid);
    expect(Math.max(...slices)).toBeLessThanOrEqual(IDENTITY_BYTES);
  });

  it('recognises a DICOMDIR by its name and by its SOP class', async () => {
    const dicomdir = corpusFile('dicomdirtests/DICOMDIR');
    expect(await readDicomIdentity(dicomdir, 'disc/DICOMDIR', dicomdir.size)).toEqual({ sopInstanceUid: null, dicomdir: true });
    expect(await readDicomIdentity(dicomdir, 'disc/INDEX', dicomdir.size)).toEqual({ sopInstanceUid: null, dicomdir: true });
  });

  it('gives no UID for a file whose header does not parse, so the server decides', async () => {
    const junk = new Blob([new Uint8Array(128), 'DICM', 'garbage that is no header'.repeat(10)]);
    expect(await readDicomIdentity(junk, 'junk', junk.size)).toEqual({ sopInstanceUid: null, dicomdir: false });
  });
});
