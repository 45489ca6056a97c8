import type { PreviewFormat, VoiRange } from './first-view-format';

/**
 * The first view of a large image, computed while its bytes arrive: every stored pixel is read
 * once and averaged into a box of `step`×`step` pixels (a proper reduction to about the screen's
 * size, where cornerstone's drawing of the full matrix samples it), then windowed as cornerstone
 * windows the full image: the image's own window, else the range of its pixels, inverted for
 * MONOCHROME1. Nothing is dropped or guessed: a picture is only made once every row has arrived.
 */
export type PreviewPicture = {
  /** Grey RGBA of `width`×`height` boxes; the image itself covers columns/step × rows/step of it. */
  rgba: Uint8ClampedArray<ArrayBuffer>;
  width: number;
  height: number;
  step: number;
};

/** The box size that brings the image's longer side down to at least `targetLongSide` pixels. */
export function previewStep(format: Pick<PreviewFormat, 'rows' | 'columns'>, targetLongSide: number): number {
  return Math.max(1, Math.floor(Math.max(format.rows, format.columns) / Math.max(1, targetLongSide)));
}

export class PreviewAccumulator {
  readonly step: number;
  readonly width: number;
  readonly height: number;
  private readonly format: PreviewFormat;
  /** Per box, the sum of its stored pixels. */
  private readonly sums: Float64Array;
  /** Per column, the sum of the rows read so far of the current row of boxes. */
  private readonly columnSums: Float64Array;
  private readonly boxOfColumn: Int32Array;
  private rowsRead = 0;
  private min = Infinity;
  private max = -Infinity;

  constructor(format: PreviewFormat, step: number) {
    this.format = format;
    this.step = step;
    this.width = Math.ceil(format.columns / step);
    this.height = Math.ceil(format.rows / step);
    this.sums = new Float64Array(this.width * this.height);
    this.columnSums = new Float64Array(format.columns);
    this.boxOfColumn = Int32Array.from({ length: format.columns }, (_, column) => Math.floor(column / step));
  }

  get complete(): boolean {
    return this.rowsRead === this.format.rows;
  }

  /** Reads every whole row among the file's first `received` bytes that was not read yet. */
  readRows(file: Uint8Array, received: number): void {
    const { rows, columns, bitsAllocated, pixelOffset } = this.format;
    const bytesPerPixel = bitsAllocated / 8;
    const available = Math.min(rows, Math.floor((received - pixelOffset) / (columns * bytesPerPixel)));
    if (available <= this.rowsRead) return;
    const start = file.byteOffset + pixelOffset + this.rowsRead * columns * bytesPerPixel;
    const pixels = this.pixelView(file.buffer, start, (available - this.rowsRead) * columns);
    let index = 0;
    let row = this.rowsRead;
    while (row < available) {
      // The rows of this row of boxes that have arrived, two at a time: one pass over the column
      // sums for two rows (the 50 MB image is read while it downloads, on a phone's core too).
      const boxesEnd = Math.min(rows, (Math.floor(row / this.step) + 1) * this.step);
      const until = Math.min(boxesEnd, available);
      const paired = this.shift === 0 ? Math.floor((until - row) / 2) : 0;
      if (paired > 0) this.addRowPairs(pixels, index, paired);
      if (until - row > 2 * paired) this.addRows(pixels, index + 2 * paired * columns, until - row - 2 * paired);
      index += (until - row) * columns;
      row = until;
      if (row === boxesEnd) this.closeBoxRow(Math.floor((row - 1) / this.step));
    }
    this.rowsRead = available;
  }

  /** cornerstone sign-extends signed pixels from Bits Stored; unsigned ones it takes as they are. */
  private get shift(): number {
    const { signed, bitsStored, bitsAllocated } = this.format;
    return signed && bitsStored < bitsAllocated ? 32 - bitsStored : 0;
  }

  private pixelView(buffer: ArrayBufferLike, start: number, count: number): ArrayLike<number> {
    const { bitsAllocated, signed } = this.format;
    if (bitsAllocated === 8) return signed ? new Int8Array(buffer, start, count) : new Uint8Array(buffer, start, count);
    return signed ? new Int16Array(buffer, start, count) : new Uint16Array(buffer, start, count);
  }

  private addRowPairs(pixels: ArrayLike<number>, from: number, pairs: number): void {
    const { columnSums } = this;
    const columns = columnSums.length;
    let index = from;
    if (this.format.window) {
      // The image's own window: its pixels' range is not needed (a flat image shows in the sums).
      for (let pair = 0; pair < pairs; pair++, index += columns) {
        for (let column = 0; column < columns; column++, index++) columnSums[column]! += pixels[index]! + pixels[index + columns]!;
      }
      return;
    }
    let { min, max } = this;
    for (let pair = 0; pair < pairs; pair++, index += columns) {
      for (let column = 0; column < columns; column++, index++) {
        const upper = pixels[index]!;
        const lower = pixels[index + columns]!;
        if (upper < min) min = upper;
        if (upper > max) max = upper;
        if (lower < min) min = lower;
        if (lower > max) max = lower;
        columnSums[column]! += upper + lower;
      }
    }
    this.min = min;
    this.max = max;
  }

  private addRows(pixels: ArrayLike<number>, from: number, count: number): void {
    const { columnSums, shift } = this;
    const columns = columnSums.length;
    let { min, max } = this;
    let index = from;
    for (let row = 0; row < count; row++) {
      for (let column = 0; column < columns; column++, index++) {
        let value = pixels[index]!;
        if (shift !== 0) value = (value << shift) >> shift;
        if (value < min) min = value;
        if (value > max) max = value;
        columnSums[column]! += value;
      }
    }
    this.min = min;
    this.max = max;
  }

  private closeBoxRow(boxRow: number): void {
    const { columnSums, boxOfColumn, sums } = this;
    const first = boxRow * this.width;
    for (let column = 0; column < columnSums.length; column++) {
      sums[first + boxOfColumn[column]!]! += columnSums[column]!;
      columnSums[column] = 0;
    }
  }

  /**
   * The grey picture, once every row was read; null for an image of one value, which the viewer
   * says it cannot show (load-errors.ts) rather than drawing it.
   */
  picture(): PreviewPicture | null {
    if (!this.complete || this.flat()) return null;
    const { slope, intercept } = this.format;
    const { width, height, step } = this;
    const range = this.format.window ?? pixelRange(this.min * slope + intercept, this.max * slope + intercept);
    const rgba = new Uint8ClampedArray(width * height * 4);
    // One call a row: a loop run once would stay in V8's slower tiers for most of its work.
    for (let boxY = 0; boxY < height; boxY++) this.pictureRow(rgba, boxY, range);
    return { rgba, width, height, step };
  }

  /**
   * Whether every pixel has one value. Without a window of its own the image's range was followed
   * pixel by pixel; with one, equal boxes tell it (an image whose boxes all have one mean value,
   * flat or not, is left to cornerstone).
   */
  private flat(): boolean {
    if (!this.format.window) return this.min === this.max;
    const { sums, step, width, height } = this;
    const { rows, columns } = this.format;
    const mean = (boxX: number, boxY: number) =>
      sums[boxY * width + boxX]! / (Math.min(step, rows - boxY * step) * Math.min(step, columns - boxX * step));
    const first = mean(0, 0);
    for (let boxY = 0; boxY < height; boxY++) for (let boxX = 0; boxX < width; boxX++) if (mean(boxX, boxY) !== first) return false;
    return true;
  }

  /**
   * A row of boxes, as grey. Displayed value v of a box of n pixels summing to s: v = s / n ×
   * slope + intercept, and its grey (v − lower) / (upper − lower) × 255, which the clamped array
   * rounds into 0..255: lower is black, upper white, as cornerstone's linear transfer function maps them.
   */
  private pictureRow(rgba: Uint8ClampedArray, boxY: number, range: VoiRange): void {
    const { rows, columns, slope, intercept, invert } = this.format;
    const { step, width, sums } = this;
    const toGrey = 255 / (range.upper - range.lower);
    const wholeBoxes = Math.floor(columns / step);
    const boxHeight = Math.min(step, rows - boxY * step);
    for (let boxX = 0; boxX < width; boxX++) {
      const box = boxY * width + boxX;
      const pixelCount = boxHeight * (boxX < wholeBoxes ? step : columns - wholeBoxes * step);
      const grey = ((sums[box]! / pixelCount) * slope + intercept - range.lower) * toGrey;
      const at = box * 4;
      rgba[at] = rgba[at + 1] = rgba[at + 2] = invert ? 255 - grey : grey;
      rgba[at + 3] = 255;
    }
  }
}

function pixelRange(a: number, b: number): VoiRange {
  return { lower: Math.min(a, b), upper: Math.max(a, b) };
}
