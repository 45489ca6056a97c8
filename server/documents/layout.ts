import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { Config } from '../config';
import { loadFontFiles, sharedFontkit } from './fonts';
import { COMMON_LABELS, PDF_LANGUAGE_TAGS, type CommonLabels, type DocumentLanguage } from './labels';
import { wrapText } from './text-wrap';

export type ProviderInfo = Config['provider'];

export type DocumentFrame = {
  provider: ProviderInfo;
  language: DocumentLanguage;
  /** Printed on the first page and in every footer; also the PDF's title for viewers. */
  title: string;
  subtitle?: string;
  /** Stored as the PDF's creation date. A fixed date keeps the bytes reproducible. */
  issuedAt?: Date;
};

export type TableColumn = { header: string; width: number };
export type TextStyle = { bold?: boolean; size?: number; muted?: boolean };

const A4: [number, number] = [595.28, 841.89];
const MARGIN_X = 56;
const CONTENT_TOP = 748;
const CONTENT_BOTTOM = 60;
const CONTENT_WIDTH = A4[0] - 2 * MARGIN_X;
const BODY_SIZE = 10;
const LEADING = 1.38;
const FILL_LINE_GAP = 18;

const COLORS = {
  text: rgb(0.12, 0.12, 0.14),
  muted: rgb(0.38, 0.38, 0.42),
  // The brand pink of the app icons (scripts/make-icons.ts).
  accent: rgb(0.678, 0.078, 0.341),
  rule: rgb(0.78, 0.78, 0.8),
  fill: rgb(0.97, 0.93, 0.95),
};

/**
 * A4 page flow shared by every generated document: the provider's letterhead on each page, a
 * cursor that moves down and opens a new page when the next block does not fit, and page numbers
 * written last, when the page count is known.
 */
export class PdfLayout {
  readonly labels: CommonLabels;
  private page: PDFPage;
  private y = CONTENT_TOP;
  private readonly widths = new Map<string, number>();

  private constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly frame: DocumentFrame,
  ) {
    this.labels = COMMON_LABELS[frame.language];
    this.page = this.addPage();
  }

  static async create(frame: DocumentFrame): Promise<PdfLayout> {
    // No automatic metadata: pdf-lib would stamp the current time and the bytes would differ per run.
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.registerFontkit(sharedFontkit);
    const files = await loadFontFiles();
    // Fixed subset tags (instead of pdf-lib's random ones) for the same reason.
    const regular = await doc.embedFont(files.regular, { subset: true, customName: 'MAMREG+DejaVuSans' });
    const bold = await doc.embedFont(files.bold, { subset: true, customName: 'MAMBLD+DejaVuSans-Bold' });
    doc.setTitle(frame.title, { showInWindowTitleBar: true });
    doc.setAuthor(frame.provider.legalName);
    doc.setLanguage(PDF_LANGUAGE_TAGS[frame.language]);
    if (frame.issuedAt) {
      doc.setCreationDate(frame.issuedAt);
      doc.setModificationDate(frame.issuedAt);
    }
    const layout = new PdfLayout(doc, regular, bold, frame);
    layout.drawTitle();
    return layout;
  }

  heading(text: string): void {
    const size = 11.5;
    this.ensureSpace(size * LEADING + 10 + BODY_SIZE * LEADING * 2);
    this.y -= 8;
    this.drawLines(wrapText(text, CONTENT_WIDTH, this.measure(this.bold, size)), MARGIN_X, size, this.bold, COLORS.accent);
    this.y -= 3;
  }

  paragraph(text: string, style: TextStyle = {}): void {
    const size = style.size ?? BODY_SIZE;
    const font = style.bold ? this.bold : this.regular;
    const lines = wrapText(text, CONTENT_WIDTH, this.measure(font, size));
    for (const line of lines) {
      this.ensureSpace(size * LEADING);
      this.drawLines([line], MARGIN_X, size, font, style.muted ? COLORS.muted : COLORS.text);
    }
    this.y -= 5;
  }

  bullets(items: string[]): void {
    const indent = 14;
    for (const item of items) {
      const lines = wrapText(item, CONTENT_WIDTH - indent, this.measure(this.regular, BODY_SIZE));
      lines.forEach((line, index) => {
        this.ensureSpace(BODY_SIZE * LEADING);
        this.drawLines([line], MARGIN_X + indent, BODY_SIZE, this.regular, COLORS.text);
        if (index === 0) this.text('•', MARGIN_X + 3, this.baselineAbove(BODY_SIZE), BODY_SIZE, this.regular, COLORS.accent);
      });
      this.y -= 2;
    }
    this.y -= 3;
  }

  /** Label and value pairs, labels in bold in the left column; boxed for the patient's data. */
  fields(rows: Array<[label: string, value: string]>, options: { boxed?: boolean; labelWidth?: number } = {}): void {
    const labelWidth = options.labelWidth ?? 150;
    const padding = options.boxed ? 8 : 0;
    const valueWidth = CONTENT_WIDTH - labelWidth - 2 * padding;
    const lineHeight = BODY_SIZE * LEADING;
    const wrapped = rows.map(([label, value]) => ({
      label: wrapText(label, labelWidth - 8, this.measure(this.bold, BODY_SIZE)),
      value: wrapText(value, valueWidth, this.measure(this.regular, BODY_SIZE)),
    }));
    const rowHeights = wrapped.map((row) => Math.max(row.label.length, row.value.length) * lineHeight + 2);
    const total = rowHeights.reduce((sum, height) => sum + height, 0) + 2 * padding;
    this.ensureSpace(Math.min(total, CONTENT_TOP - CONTENT_BOTTOM));
    if (options.boxed) {
      this.page.drawRectangle({ x: MARGIN_X, y: this.y - total, width: CONTENT_WIDTH, height: total, color: COLORS.fill });
      this.y -= padding;
    }
    wrapped.forEach((row, index) => {
      this.ensureSpace(rowHeights[index]!);
      const top = this.y;
      this.drawLines(row.label, MARGIN_X + padding, BODY_SIZE, this.bold, COLORS.text);
      this.y = top;
      this.drawLines(row.value, MARGIN_X + padding + labelWidth, BODY_SIZE, this.regular, COLORS.text);
      this.y = top - rowHeights[index]!;
    });
    this.y -= padding + 8;
  }

  /** A table whose header row is repeated on each page it continues on. */
  table(columns: TableColumn[], rows: string[][]): void {
    const size = 9;
    const lineHeight = size * LEADING;
    const cellPadding = 4;
    const scale = CONTENT_WIDTH / columns.reduce((sum, column) => sum + column.width, 0);
    const widths = columns.map((column) => column.width * scale);
    const wrapRow = (cells: string[], font: PDFFont) =>
      cells.map((cell, index) => wrapText(cell, widths[index]! - 2 * cellPadding, this.measure(font, size)));
    const drawRow = (cells: string[][], font: PDFFont, filled: boolean) => {
      const height = Math.max(...cells.map((lines) => lines.length)) * lineHeight + 2 * cellPadding;
      if (filled) this.page.drawRectangle({ x: MARGIN_X, y: this.y - height, width: CONTENT_WIDTH, height, color: COLORS.fill });
      let x = MARGIN_X;
      const top = this.y;
      cells.forEach((lines, index) => {
        this.y = top - cellPadding;
        this.drawLines(lines, x + cellPadding, size, font, COLORS.text);
        x += widths[index]!;
      });
      this.y = top - height;
      this.rule(this.y);
    };
    const header = wrapRow(
      columns.map((column) => column.header),
      this.bold,
    );
    const headerHeight = Math.max(...header.map((lines) => lines.length)) * lineHeight + 2 * cellPadding;
    this.ensureSpace(headerHeight * 2);
    drawRow(header, this.bold, true);
    for (const row of rows) {
      const cells = wrapRow(row, this.regular);
      const height = Math.max(...cells.map((lines) => lines.length)) * lineHeight + 2 * cellPadding;
      if (this.y - height < CONTENT_BOTTOM) {
        this.newPage();
        drawRow(header, this.bold, true);
      }
      drawRow(cells, this.regular, false);
    }
    this.y -= 10;
  }

  /** An empty box to tick by hand, with its label. */
  checkbox(label: string): void {
    const box = 9;
    const indent = 18;
    const lines = wrapText(label, CONTENT_WIDTH - indent, this.measure(this.regular, BODY_SIZE));
    this.ensureSpace(lines.length * BODY_SIZE * LEADING + 4);
    const top = this.y;
    this.drawLines(lines, MARGIN_X + indent, BODY_SIZE, this.regular, COLORS.text);
    const firstBaseline = top - BODY_SIZE * LEADING + this.baselineOffset(BODY_SIZE);
    this.page.drawRectangle({ x: MARGIN_X + 1, y: firstBaseline - 1, width: box, height: box, borderColor: COLORS.text, borderWidth: 0.8 });
    this.y -= 3;
  }

  /** A label followed by a line to write on; `lines` adds full-width lines below it. */
  fillLine(label: string, options: { lines?: number } = {}): void {
    const count = options.lines ?? 1;
    this.ensureSpace(count * FILL_LINE_GAP + 6);
    for (let index = 0; index < count; index++) {
      this.y -= FILL_LINE_GAP;
      this.drawFillLine(index === 0 ? label : '', MARGIN_X, MARGIN_X + CONTENT_WIDTH);
    }
    this.y -= 6;
  }

  /** Several labelled lines to write on, side by side in one row. */
  fillRow(labels: string[]): void {
    const gap = 16;
    const width = (CONTENT_WIDTH - gap * (labels.length - 1)) / labels.length;
    this.ensureSpace(FILL_LINE_GAP + 6);
    this.y -= FILL_LINE_GAP;
    labels.forEach((label, index) => {
      const left = MARGIN_X + index * (width + gap);
      this.drawFillLine(label, left, left + width);
    });
    this.y -= 6;
  }

  /** One box per character, as on paper forms for PESEL and similar numbers. */
  characterBoxes(label: string, count: number): void {
    const box = 15;
    this.ensureSpace(box + 14);
    this.y -= box + 4;
    const labelWidth = this.regular.widthOfTextAtSize(label, BODY_SIZE) + 8;
    this.text(label, MARGIN_X, this.y + 4, BODY_SIZE, this.regular, COLORS.text);
    for (let index = 0; index < count; index++) {
      this.page.drawRectangle({
        x: MARGIN_X + labelWidth + index * box,
        y: this.y,
        width: box,
        height: box,
        borderColor: COLORS.muted,
        borderWidth: 0.6,
      });
    }
    this.y -= 8;
  }

  /** Signature lines side by side at the foot of a form or letter. */
  signatureLines(captions: string[]): void {
    const gap = 24;
    const width = (CONTENT_WIDTH - gap * (captions.length - 1)) / captions.length;
    this.ensureSpace(54);
    this.y -= 32;
    captions.forEach((caption, index) => {
      const x = MARGIN_X + index * (width + gap);
      this.page.drawLine({
        start: { x, y: this.y },
        end: { x: x + width, y: this.y },
        thickness: 0.6,
        color: COLORS.muted,
        dashArray: [1.5, 2],
      });
      const captionWidth = this.regular.widthOfTextAtSize(caption, 8);
      this.text(caption, x + (width - captionWidth) / 2, this.y - 10, 8, this.regular, COLORS.muted);
    });
    this.y -= 22;
  }

  space(points: number): void {
    this.y -= points;
  }

  /** Keeps the next block of about `height` points on one page. */
  ensureSpace(height: number): void {
    if (this.y - height < CONTENT_BOTTOM) this.newPage();
  }

  async save(): Promise<Uint8Array> {
    const pages = this.doc.getPages();
    pages.forEach((page, index) => this.drawFooter(page, index + 1, pages.length));
    return this.doc.save();
  }

  private drawTitle(): void {
    const size = 16;
    this.drawLines(wrapText(this.frame.title, CONTENT_WIDTH, this.measure(this.bold, size)), MARGIN_X, size, this.bold, COLORS.text);
    if (this.frame.subtitle) {
      this.y -= 1;
      this.paragraph(this.frame.subtitle, { muted: true, size: 10.5 });
    }
    this.y -= 8;
  }

  private newPage(): void {
    this.page = this.addPage();
    this.y = CONTENT_TOP;
  }

  private addPage(): PDFPage {
    const page = this.doc.addPage(A4);
    const { provider } = this.frame;
    const top = A4[1] - 42;
    this.text(provider.legalName, MARGIN_X, top, 10, this.bold, COLORS.text, page);
    this.text(provider.address, MARGIN_X, top - 13, 8.5, this.regular, COLORS.muted, page);
    const contact = `${this.labels.phone} ${provider.phone} · ${this.labels.email} ${provider.email}`;
    this.text(contact, MARGIN_X, top - 24, 8.5, this.regular, COLORS.muted, page);
    page.drawLine({ start: { x: MARGIN_X, y: top - 33 }, end: { x: A4[0] - MARGIN_X, y: top - 33 }, thickness: 1.2, color: COLORS.accent });
    return page;
  }

  private drawFooter(page: PDFPage, pageNumber: number, pageCount: number): void {
    const size = 8;
    const y = 40;
    page.drawLine({ start: { x: MARGIN_X, y: y + 11 }, end: { x: A4[0] - MARGIN_X, y: y + 11 }, thickness: 0.5, color: COLORS.rule });
    const pageLabel = this.labels.page(pageNumber, pageCount);
    const pageLabelWidth = this.regular.widthOfTextAtSize(pageLabel, size);
    const [title] = wrapText(this.frame.title, CONTENT_WIDTH - pageLabelWidth - 20, this.measure(this.regular, size));
    this.text(title ?? '', MARGIN_X, y, size, this.regular, COLORS.muted, page);
    this.text(pageLabel, A4[0] - MARGIN_X - pageLabelWidth, y, size, this.regular, COLORS.muted, page);
  }

  private drawFillLine(label: string, left: number, right: number): void {
    const labelWidth = label ? this.regular.widthOfTextAtSize(label, BODY_SIZE) + 6 : 0;
    if (label) this.text(label, left, this.y + 2, BODY_SIZE, this.regular, COLORS.text);
    this.page.drawLine({
      start: { x: left + labelWidth, y: this.y },
      end: { x: right, y: this.y },
      thickness: 0.6,
      color: COLORS.muted,
      dashArray: [1.5, 2],
    });
  }

  /** Text widths are cached: the same words recur on every page and shaping them is slow. */
  private measure(font: PDFFont, size: number): (text: string) => number {
    const prefix = `${font === this.bold ? 'b' : 'r'}${size}:`;
    return (text) => {
      const key = prefix + text;
      let width = this.widths.get(key);
      if (width === undefined) {
        width = font.widthOfTextAtSize(text, size);
        this.widths.set(key, width);
      }
      return width;
    };
  }

  private rule(y: number): void {
    this.page.drawLine({ start: { x: MARGIN_X, y }, end: { x: A4[0] - MARGIN_X, y }, thickness: 0.5, color: COLORS.rule });
  }

  /** Draws lines top-down from the cursor and moves the cursor below them. */
  private drawLines(lines: string[], x: number, size: number, font: PDFFont, color: ReturnType<typeof rgb>): void {
    for (const line of lines) {
      this.y -= size * LEADING;
      this.text(line, x, this.baselineAbove(size), size, font, color);
    }
  }

  /** Distance from the bottom of a line box to its baseline, leaving room for descenders. */
  private baselineOffset(size: number): number {
    return (size * LEADING - size) / 2 + size * 0.12;
  }

  /** Baseline of the line that was just drawn above the cursor. */
  private baselineAbove(size: number): number {
    return this.y + this.baselineOffset(size);
  }

  private text(value: string, x: number, y: number, size: number, font: PDFFont, color: ReturnType<typeof rgb>, page = this.page): void {
    if (value) page.drawText(value, { x, y, size, font, color });
  }
}
