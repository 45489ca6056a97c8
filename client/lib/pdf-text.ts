/**
 * The "read as text" view of a PDF: the text runs pdf.js finds on a page (./pdf.ts reads them)
 * put back into lines and paragraphs by where they stand, so the text reflows in the portal's own
 * font, size and colours. Kept apart from pdfjs-dist so it is tested without a browser.
 */

/** One text run of a page, in CSS orientation: `y` is its baseline measured down from the top. */
export type PositionedText = { text: string; x: number; y: number; width: number; size: number };

/**
 * A heading is a line set clearly larger than the page's body text. A paragraph set in columns (a
 * table row, e.g. a field's label and value) also has its `cells`; its `text` keeps them apart
 * with a tab.
 */
export type TextBlock = { kind: 'heading' | 'paragraph'; text: string; cells?: string[] };

/** Columns of a table row: the run's whitespace shows them as a gap, copied as a tab. */
export const COLUMN_GAP = '\t';

/** A stretch of a line between column gaps, and where it starts. */
type Cell = { text: string; x: number };
type Line = { text: string; cells: Cell[]; x: number; y: number; size: number; hasColumns: boolean };
/** A block being built; a table row keeps its cells, for the wrapped lines of a cell to join them. */
type OpenBlock = { kind: TextBlock['kind']; text: string; cells: Cell[] | null };

/** Runs whose baselines differ by less than this share a line (sub- and superscripts included). */
const SAME_LINE = 0.5;
/** A gap between runs wider than this (in font sizes) is a space between words. */
const WORD_GAP = 0.15;
/**
 * A gap wider than this (in font sizes) separates columns, e.g. a label and its value: within a
 * line of text the words' spaces are part of its runs, or gaps of about a third of the size.
 */
const COLUMN_GAP_WIDTH = 0.75;
/** A line's cell stands under a cell of the row above when they start this close (in font sizes). */
const SAME_COLUMN = 0.5;
/** A line at least this much larger than the body text is a heading. */
const HEADING_RATIO = 1.12;
/** Extra space above a line, beyond the page's usual line spacing, that starts a paragraph (in font sizes). */
const PARAGRAPH_GAP = 0.25;
/** A line indented further than this (in font sizes) than the one above starts a paragraph. */
const INDENT = 1.5;
const LIST_ITEM = /^(?:[•◦▪‣●○■□–—-]\s|\d{1,3}[.)]\s|[a-z][.)]\s)/;

/** The lines and paragraphs of one page, top to bottom. */
export function groupTextBlocks(runs: readonly PositionedText[]): TextBlock[] {
  const lines = toLines(runs.filter((run) => run.text.trim() !== '' && Number.isFinite(run.y) && run.size > 0));
  if (lines.length === 0) return [];
  const bodySize = mostCommonSize(lines);
  const lineGap = usualLineGap(lines);
  const blocks: OpenBlock[] = [];
  let previous: Line | null = null;
  for (const line of lines) {
    const kind = line.size >= bodySize * HEADING_RATIO ? 'heading' : 'paragraph';
    const current = blocks.at(-1);
    if (previous && current?.cells && continuesRow(current.cells, previous, line, lineGap)) {
      // The wrapped lines of a table row's cells: each joins the cell it stands under.
      for (const cell of line.cells) {
        const above = cellAbove(current.cells, cell, line.size)!;
        above.text = joinLines(above.text, cell.text);
      }
      current.text = current.cells.map((cell) => cell.text).join(COLUMN_GAP);
    } else if (previous && current && !current.cells && current.kind === kind && continuesBlock(previous, line, lineGap)) {
      current.text = joinLines(current.text, line.text);
    } else {
      blocks.push({ kind, text: line.text, cells: line.hasColumns ? line.cells.map((cell) => ({ ...cell })) : null });
    }
    previous = line;
  }
  return blocks.map(({ kind, text, cells }) => (cells ? { kind, text, cells: cells.map((cell) => cell.text) } : { kind, text }));
}

function toLines(runs: PositionedText[]): Line[] {
  const byBaseline = [...runs].sort((a, b) => a.y - b.y || a.x - b.x);
  const groups: PositionedText[][] = [];
  for (const run of byBaseline) {
    const group = groups.at(-1);
    const head = group?.[0];
    if (group && head && Math.abs(run.y - head.y) <= SAME_LINE * Math.max(run.size, head.size)) group.push(run);
    else groups.push([run]);
  }
  return groups.map(toLine);
}

function toLine(runs: PositionedText[]): Line {
  const ordered = [...runs].sort((a, b) => a.x - b.x);
  const cells: Cell[] = [];
  let end = -Infinity;
  for (const run of ordered) {
    const gap = run.x - end;
    const cell = cells.at(-1);
    if (!cell || gap > COLUMN_GAP_WIDTH * run.size) {
      cells.push({ text: run.text, x: run.x });
    } else {
      if (gap > WORD_GAP * run.size && !/\s$/.test(cell.text) && !/^\s/.test(run.text)) cell.text += ' ';
      cell.text += run.text;
    }
    end = Math.max(end, run.x + run.width);
  }
  for (const cell of cells) cell.text = cell.text.replace(/ {2,}/g, ' ').trim();
  const first = ordered[0]!;
  return {
    text: cells.map((cell) => cell.text).join(COLUMN_GAP),
    cells,
    x: first.x,
    y: average(runs.map((run) => run.y)),
    size: Math.max(...runs.map((run) => run.size)),
    hasColumns: cells.length > 1,
  };
}

function continuesBlock(previous: Line, line: Line, lineGap: Map<number, number>): boolean {
  const size = Math.max(previous.size, line.size);
  if (Math.abs(previous.size - line.size) > 0.1 * size) return false;
  if (previous.hasColumns || line.hasColumns) return false;
  if (LIST_ITEM.test(line.text)) return false;
  if (line.x > previous.x + INDENT * size) return false;
  const usual = lineGap.get(sizeKey(line.size)) ?? 1.2 * line.size;
  return line.y - previous.y <= usual + PARAGRAPH_GAP * size;
}

/**
 * A line goes on a table row when it stands at the usual line spacing under it with text in some
 * of its columns only (a cell's wrapped words); a line with text in every column is the next row.
 */
function continuesRow(row: Cell[], previous: Line, line: Line, lineGap: Map<number, number>): boolean {
  if (Math.abs(previous.size - line.size) > 0.1 * Math.max(previous.size, line.size)) return false;
  if (line.cells.length >= row.length) return false;
  const columns = line.cells.map((cell) => cellAbove(row, cell, line.size));
  if (columns.some((column) => column === undefined) || new Set(columns).size !== columns.length) return false;
  const usual = lineGap.get(sizeKey(line.size)) ?? 1.2 * line.size;
  return line.y - previous.y <= usual + PARAGRAPH_GAP * line.size;
}

function cellAbove(row: Cell[], cell: Cell, size: number): Cell | undefined {
  return row.find((above) => Math.abs(above.x - cell.x) <= SAME_COLUMN * size);
}

/**
 * A line broken at a hyphen goes on without a space (the hyphen stays: in Polish it is often part
 * of the word, "tłuszczowo-gruczołowa").
 */
function joinLines(text: string, next: string): string {
  return /[-‐]$/.test(text) ? text + next : `${text} ${next}`;
}

const sizeKey = (size: number) => Math.round(size * 2) / 2;

/** The body text size: the one most of the page's text is set in. */
function mostCommonSize(lines: Line[]): number {
  const characters = new Map<number, number>();
  for (const line of lines) characters.set(sizeKey(line.size), (characters.get(sizeKey(line.size)) ?? 0) + line.text.length);
  return [...characters].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/**
 * The spacing of lines within a paragraph, per font size: the smaller gaps between consecutive
 * lines of that size (the larger ones are between paragraphs), within sensible bounds.
 */
function usualLineGap(lines: Line[]): Map<number, number> {
  const gaps = new Map<number, number[]>();
  for (let index = 1; index < lines.length; index += 1) {
    const [above, below] = [lines[index - 1]!, lines[index]!];
    if (sizeKey(above.size) !== sizeKey(below.size)) continue;
    const list = gaps.get(sizeKey(below.size)) ?? [];
    list.push(below.y - above.y);
    gaps.set(sizeKey(below.size), list);
  }
  const usual = new Map<number, number>();
  for (const [size, list] of gaps) {
    const sorted = list.sort((a, b) => a - b);
    const lowerQuartile = sorted[Math.floor((sorted.length - 1) / 4)]!;
    usual.set(size, Math.min(Math.max(lowerQuartile, size), 1.5 * size));
  }
  return usual;
}

function average(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
