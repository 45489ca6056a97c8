import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DICOM_CORPUS_DIR } from '../../../tests/support/dicom-corpus';
import { readPreviewHeader, type PreviewFormat } from './first-view-format';
import { PreviewAccumulator, previewStep, type PreviewPicture } from './first-view-pixels';

const SYNTAXES = path.join(DICOM_CORPUS_DIR, '..', 'dicom-syntaxes');

const format = (overrides: Partial<PreviewFormat>): PreviewFormat => ({
  rows: 4,
  columns: 6,
  bitsAllocated: 16,
  signed: false,
  bitsStored: 16,
  pixelOffset: 0,
  slope: 1,
  intercept: 0,
  window: null,
  invert: false,
  patientOrientation: undefined,
  ...overrides,
});

/** The file as it arrives in pieces of `chunk` bytes, read after each one. */
function pictureOf(file: Uint8Array, of: PreviewFormat, step: number, chunk = file.length): PreviewPicture | null {
  const pixels = new PreviewAccumulator(of, step);
  for (let received = Math.min(chunk, file.length); ; received = Math.min(received + chunk, file.length)) {
    pixels.readRows(file, received);
    if (received === file.length) break;
  }
  return pixels.picture();
}

const greys = (picture: PreviewPicture | null) =>
  picture ? Array.from({ length: picture.width * picture.height }, (_, i) => picture.rgba[i * 4]) : null;
const bytesOf = (values: number[]) => new Uint8Array(new Uint16Array(values).buffer);

describe('PreviewAccumulator', () => {
  // 4 rows × 6 columns: the left half 0, the right half 100, but one pixel of 255.
  const values = [0, 0, 0, 100, 100, 100, 0, 0, 0, 100, 100, 100, 0, 0, 0, 100, 100, 255, 0, 0, 0, 100, 100, 100];

  it('averages every pixel of each box, then maps the range of the pixels from black to white', () => {
    // Boxes of 2×2 (means 0, 50, 100 / 0, 50, 138.75); the pixels' range 0..255 maps one to one.
    expect(greys(pictureOf(bytesOf(values), format({}), 2))).toEqual([0, 50, 100, 0, 50, 139]);
  });

  it('draws the same picture whatever the size of the pieces the bytes arrive in', () => {
    const whole = greys(pictureOf(bytesOf(values), format({}), 2));
    for (const chunk of [1, 3, 7, 12, 13]) expect(greys(pictureOf(bytesOf(values), format({}), 2, chunk))).toEqual(whole);
  });

  it("keeps the boxes of the image's edge to the pixels it has", () => {
    // Boxes of 4×4 over 6 columns: the second box holds only 4 rows × 2 columns.
    const picture = pictureOf(bytesOf(values), format({}), 4);
    expect(picture).toMatchObject({ width: 2, height: 1 });
    // First box: 12 zeros and 4 hundreds → 25; second: seven 100s and one 255 → 119.4.
    expect(greys(picture)).toEqual([25, 119]);
  });

  it("windows with the image's own window and inverts MONOCHROME1", () => {
    // Half the pixels' range: each grey doubles, and what lies above the window is white.
    const windowed = format({ window: { lower: 0, upper: 127.5 } });
    expect(greys(pictureOf(bytesOf(values), windowed, 2))).toEqual([0, 100, 200, 0, 100, 255]);
    expect(greys(pictureOf(bytesOf(values), { ...windowed, invert: true }, 2))).toEqual([255, 155, 55, 255, 155, 0]);
  });

  it('applies the rescale slope and intercept before the window', () => {
    const rescaled = format({ slope: 2, intercept: -100, window: { lower: -100, upper: 155 } });
    // Stored 0 is −100 (black), stored 100 is 100 (grey 200).
    expect(greys(pictureOf(bytesOf(values), rescaled, 1))?.slice(0, 6)).toEqual([0, 0, 0, 200, 200, 200]);
  });

  it('sign-extends signed pixels from their stored bits, as cornerstone does', () => {
    // 12 bits stored: 0x0fff is −1, 0x0800 is −2048.
    const signed = format({ rows: 1, columns: 2, signed: true, bitsStored: 12 });
    const picture = new PreviewAccumulator(signed, 1);
    picture.readRows(bytesOf([0x0fff, 0x0800]), 4);
    expect(greys(picture.picture())).toEqual([255, 0]);
  });

  it('makes no picture of an image of one value, which the viewer says it cannot show', () => {
    expect(pictureOf(bytesOf(new Array(24).fill(7)), format({ window: { lower: 0, upper: 10 } }), 2)).toBeNull();
    expect(pictureOf(bytesOf(new Array(24).fill(7)), format({}), 2)).toBeNull();
  });

  it('makes no picture before every row has arrived', () => {
    const pixels = new PreviewAccumulator(format({}), 2);
    pixels.readRows(bytesOf(values), 47);
    expect(pixels.picture()).toBeNull();
  });

  it('shows the MONOCHROME1 fixture with a bright breast on a dark background', () => {
    const file = new Uint8Array(readFileSync(path.join(SYNTAXES, 'monochrome1.dcm')));
    const read = readPreviewHeader(file, true);
    if (read.kind !== 'read' || !read.format) throw new Error('monochrome1.dcm has a previewable header');
    const picture = pictureOf(file, read.format, 1, 8192)!;
    const grey = (x: number, y: number) => picture.rgba[(y * picture.width + x) * 4]!;
    // A left breast: its chest wall on the right edge, the background on the left.
    expect(grey(5, picture.height - 5)).toBeLessThan(40);
    expect(grey(picture.width - 20, Math.round(picture.height * 0.6))).toBeGreaterThan(100);
  });
});

describe('previewStep', () => {
  it('reduces a 50 MB mammogram to about the screen, and leaves a small image whole', () => {
    expect(previewStep({ rows: 6144, columns: 4096 }, 1280)).toBe(4);
    expect(previewStep({ rows: 6144, columns: 4096 }, 720)).toBe(8);
    expect(previewStep({ rows: 320, columns: 256 }, 1280)).toBe(1);
  });
});
