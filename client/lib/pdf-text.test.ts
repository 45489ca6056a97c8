import { describe, expect, it } from 'vitest';
import { COLUMN_GAP, groupTextBlocks, type PositionedText } from './pdf-text';

/** A run of text as pdf.js would place it: `width` from an average glyph of half the font size. */
function run(text: string, x: number, y: number, size = 10): PositionedText {
  return { text, x, y, width: text.length * size * 0.5, size };
}

/** Lines of body text at the description's leading (10 pt, 1.38), starting at baseline `top`. */
function lines(texts: string[], top: number, { x = 56, size = 10, leading = 1.38 } = {}): PositionedText[] {
  return texts.map((text, index) => run(text, x, top + index * size * leading, size));
}

describe('groupTextBlocks', () => {
  it('joins the lines of a paragraph and starts another after a larger gap', () => {
    const first = lines(['The breasts are fatty, with', 'scattered areas of dense tissue.'], 100);
    // 5 pt more than the line spacing, as the portal's descriptions leave between paragraphs.
    const second = lines(['No suspicious mass.'], 100 + 2 * 13.8 + 5);
    expect(groupTextBlocks([...first, ...second])).toEqual([
      { kind: 'paragraph', text: 'The breasts are fatty, with scattered areas of dense tissue.' },
      { kind: 'paragraph', text: 'No suspicious mass.' },
    ]);
  });

  it('orders the runs by where they stand, not by the order of the content stream', () => {
    const [top, bottom] = lines(['first line of text', 'second line of text'], 100);
    expect(groupTextBlocks([bottom!, top!])).toEqual([{ kind: 'paragraph', text: 'first line of text second line of text' }]);
  });

  it('puts runs of one baseline on one line, with spaces only where the words stand apart', () => {
    // Words 3 pt (a space of a 10 pt font) apart; "Mammo" and "graphy" touch.
    const runs = [run('Mammo', 56, 100), run('graphy', 81, 100), run('of', 114, 100), run('both', 127, 100.4)];
    expect(groupTextBlocks(runs)).toEqual([{ kind: 'paragraph', text: 'Mammography of both' }]);
  });

  it('takes lines set larger than the body text for headings, a wrapped title as one', () => {
    const title = lines(['Report of a screening', 'mammography'], 60, { size: 16 });
    const section = lines(['Findings'], 120, { size: 11.5 });
    const body = lines(['Both breasts show no', 'suspicious findings.', 'Nothing else to report.'], 140);
    expect(groupTextBlocks([...title, ...section, ...body])).toEqual([
      { kind: 'heading', text: 'Report of a screening mammography' },
      { kind: 'heading', text: 'Findings' },
      { kind: 'paragraph', text: 'Both breasts show no suspicious findings. Nothing else to report.' },
    ]);
  });

  it('keeps every item of a list apart, its wrapped lines with it', () => {
    const runs = [
      run('•', 59, 100),
      run('Repeat the screening in two years,', 70, 100),
      run('as the programme invites.', 70, 113.8),
      run('•', 59, 129.6),
      run('See your doctor if anything changes.', 70, 129.6),
    ];
    expect(groupTextBlocks(runs)).toEqual([
      { kind: 'paragraph', text: '• Repeat the screening in two years, as the programme invites.' },
      { kind: 'paragraph', text: '• See your doctor if anything changes.' },
    ]);
  });

  it('keeps a table row together with its columns apart, one row per block', () => {
    const runs = [
      run('Accession number', 64, 100),
      run('ACC-2024-001', 214, 100),
      run('Examination', 64, 115.8),
      run('Screening', 214, 115.8),
    ];
    expect(groupTextBlocks(runs)).toEqual([
      { kind: 'paragraph', text: `Accession number${COLUMN_GAP}ACC-2024-001`, cells: ['Accession number', 'ACC-2024-001'] },
      { kind: 'paragraph', text: `Examination${COLUMN_GAP}Screening`, cells: ['Examination', 'Screening'] },
    ]);
  });

  it('joins the wrapped lines of a row to the cells they stand under, a label and a value alike', () => {
    // As the description's fields: a 150 pt label column, rows 2 pt further apart than lines.
    const runs = [
      run('Examination', 56, 237.7),
      run('Bilateral screening mammography', 206, 237.7),
      // The label wraps 8 pt before its value's column: still a column, not a space.
      { ...run('Absorbed dose (AGD, all', 56, 253.5), width: 142 },
      run('5.18 mGy', 206, 253.5),
      run('views)', 56, 267.3),
      run('Breast composition', 56, 283.1),
      run('heterogeneously dense (ACR c), which may obscure small', 206, 283.1),
      run('masses.', 206, 296.9),
      // After the fields, a paragraph at the label's column starts a block of its own.
      run('Findings follow.', 56, 330.3),
    ];
    expect(groupTextBlocks(runs).map((block) => block.cells ?? block.text)).toEqual([
      ['Examination', 'Bilateral screening mammography'],
      ['Absorbed dose (AGD, all views)', '5.18 mGy'],
      ['Breast composition', 'heterogeneously dense (ACR c), which may obscure small masses.'],
      'Findings follow.',
    ]);
    expect(groupTextBlocks(runs)[1]?.text).toBe(`Absorbed dose (AGD, all views)${COLUMN_GAP}5.18 mGy`);
  });

  it('starts a paragraph at an indented line and at a change of the font size', () => {
    const runs = [
      ...lines(['A paragraph of body text that', 'ends here.'], 100),
      run('An indented paragraph.', 90, 127.6),
      run('Small print below it.', 56, 139, 8),
    ];
    expect(groupTextBlocks(runs).map((block) => block.text)).toEqual([
      'A paragraph of body text that ends here.',
      'An indented paragraph.',
      'Small print below it.',
    ]);
  });

  it('joins a line broken after a hyphen without a space, keeping the hyphen', () => {
    expect(groupTextBlocks(lines(['Budowa piersi tłuszczowo-', 'gruczołowa.'], 100))).toEqual([
      { kind: 'paragraph', text: 'Budowa piersi tłuszczowo-gruczołowa.' },
    ]);
  });

  it('finds paragraphs of one line each by the spacing of the page', () => {
    const runs = [...lines(['One.', 'Two', 'lines.'], 100), ...lines(['Three.'], 146.4), ...lines(['Four.'], 165.2)];
    expect(groupTextBlocks(runs).map((block) => block.text)).toEqual(['One. Two lines.', 'Three.', 'Four.']);
  });

  it('ignores empty and blank runs and gives nothing for a page without text', () => {
    expect(groupTextBlocks([run('', 56, 100), run('   ', 80, 100)])).toEqual([]);
    expect(groupTextBlocks([run('Text', 56, 100), run(' ', 80, 100), run('', 90, 100)])).toEqual([{ kind: 'paragraph', text: 'Text' }]);
  });
});
