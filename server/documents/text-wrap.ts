/** Width of a string in points at the size the caller uses. */
export type MeasureText = (text: string) => number;

/**
 * Breaks text into lines no wider than `maxWidth`: at spaces where possible, inside a word only
 * when the word alone is too wide. Explicit newlines start a new line; empty lines are kept.
 * A line's width is the sum of its words and spaces, so each word is measured once (shaping text
 * with the embedded font is the slow part of making a PDF).
 */
export function wrapText(text: string, maxWidth: number, measure: MeasureText): string[] {
  const spaceWidth = measure(' ');
  return text.split('\n').flatMap((paragraph) => wrapParagraph(paragraph, maxWidth, measure, spaceWidth));
}

function wrapParagraph(paragraph: string, maxWidth: number, measure: MeasureText, spaceWidth: number): string[] {
  const words = paragraph.split(/ +/).filter((word) => word.length > 0);
  if (words.length === 0) return [''];
  const lines: string[] = [];
  let current = '';
  let currentWidth = 0;
  for (const word of words) {
    const wordWidth = measure(word);
    if (current && currentWidth + spaceWidth + wordWidth <= maxWidth) {
      current += ` ${word}`;
      currentWidth += spaceWidth + wordWidth;
      continue;
    }
    const hyphenated = current ? breakAtHyphen(word, maxWidth - currentWidth - spaceWidth, maxWidth, measure) : undefined;
    if (hyphenated) {
      lines.push(`${current} ${hyphenated.head}`);
      current = hyphenated.tail;
      currentWidth = measure(current);
      continue;
    }
    if (current) lines.push(current);
    if (wordWidth <= maxWidth) {
      current = word;
      currentWidth = wordWidth;
      continue;
    }
    const ownLine = breakAtHyphen(word, maxWidth, maxWidth, measure);
    const pieces = ownLine ? [ownLine.head, ownLine.tail] : splitLongWord(word, maxWidth, measure);
    lines.push(...pieces.slice(0, -1));
    current = pieces.at(-1) ?? '';
    currentWidth = measure(current);
  }
  lines.push(current);
  return lines;
}

/**
 * Compound words ("chirurgiczno-onkologiczna") may break after their hyphen, as in print; short
 * prefixes stay joined so "BI-RADS" or a postal code "00-789" never split.
 */
function breakAtHyphen(word: string, room: number, maxWidth: number, measure: MeasureText): { head: string; tail: string } | undefined {
  for (let index = word.lastIndexOf('-'); index > 0; index = word.lastIndexOf('-', index - 1)) {
    const head = word.slice(0, index + 1);
    const tail = word.slice(index + 1);
    if (head.length < 5 || tail.length < 3 || /\d/.test(word)) continue;
    if (measure(head) <= room && measure(tail) <= maxWidth) return { head, tail };
  }
  return undefined;
}

function splitLongWord(word: string, maxWidth: number, measure: MeasureText): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const char of word) {
    if (piece && measure(piece + char) > maxWidth) {
      pieces.push(piece);
      piece = '';
    }
    piece += char;
  }
  if (piece) pieces.push(piece);
  return pieces;
}
