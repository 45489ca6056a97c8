import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RESULT_PAGE_BUILD, type ResultPageAnswers } from '../../common/drawn-result-page';
import { createLogger } from '../lib/logger';
import { answersScript, loadResultPageDrawing } from './drawing';

const logger = createLogger({ logLevel: 'silent' });
const answers = { user: { guest: true }, result: { screening: { lastName: '</script><!--x' } } } as unknown as ResultPageAnswers;
const dirs: string[] = [];

/** A built client whose result page frame is `template`, with a renderer that draws "drawn". */
function clientWith(template: string | undefined): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-drawing-'));
  dirs.push(dir);
  if (template === undefined) return dir;
  const drawing = path.join(dir, RESULT_PAGE_BUILD.dir);
  mkdirSync(drawing, { recursive: true });
  writeFileSync(path.join(drawing, RESULT_PAGE_BUILD.template), template);
  writeFileSync(
    path.join(drawing, RESULT_PAGE_BUILD.renderer),
    'export default { prepare: async () => {}, cookieDialogAnswered: () => true, render: () => ({ markup: "drawn", title: "Wynik & opis" }) };',
  );
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the answers inside the drawn page', () => {
  it('cannot end their element or open a comment, whatever her data holds', () => {
    const script = answersScript(answers);
    expect(script).toMatch(/^<script type="application\/json" id="result-page-answers">[^<]*<\/script>$/);
    const json = script.replace(/^<script[^>]*>/, '').replace(/<\/script>$/, '');
    expect(JSON.parse(json)).toEqual(answers);
  });
});

describe('the drawing of the built client', () => {
  const { titleSlot, markupSlot, answersSlot } = RESULT_PAGE_BUILD;

  it('is absent from a client built without it, whose result page is then the plain one', () => {
    expect(loadResultPageDrawing(clientWith(undefined), logger)).toBeUndefined();
  });

  it('puts the title, the markup and the answers into their places in the frame', async () => {
    const frame = `<title>${titleSlot}</title><div id="root" inert>${markupSlot}</div>${answersSlot}<footer>`;
    const drawing = loadResultPageDrawing(clientWith(frame), logger)!;
    const renderer = await drawing.renderer;
    expect(drawing.page(renderer!.render('/screening', answers), answers)).toBe(
      `<title>Wynik &amp; opis</title><div id="root" inert>drawn</div>${answersScript(answers)}<footer>`,
    );
  });

  it('refuses a frame without each of its slots once, in order', () => {
    for (const template of [
      `${markupSlot}${answersSlot}`,
      `${titleSlot}${answersSlot}${markupSlot}`,
      `${markupSlot}${titleSlot}${answersSlot}`,
      `${titleSlot}${markupSlot}${answersSlot}${answersSlot}`,
    ]) {
      expect(() => loadResultPageDrawing(clientWith(template), logger), template).toThrow(/each slot once/);
    }
  });
});
