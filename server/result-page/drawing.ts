import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RESULT_PAGE_ANSWERS_ID, RESULT_PAGE_BUILD, type ResultPageAnswers, type ResultPageRenderer } from '../../common/drawn-result-page';
import { escapeHtml } from '../lib/html';
import { errorForLog, type Logger } from '../lib/logger';

/** The build's render entry and page frame (scripts/vite-result-page-render.ts), once loaded. */
export type ResultPageDrawing = {
  /** Settles once the renderer is ready; undefined when it could not be loaded. */
  renderer: Promise<ResultPageRenderer | undefined>;
  /** The whole page: the frame with the page's title, the markup in its root element and the answers beside it. */
  page(drawn: { markup: string; title: string }, answers: ResultPageAnswers): string;
};

/**
 * The result page's renderer of the built client in `clientDir`, loading from now on; undefined
 * for a client built without it (or none), whose result page is the plain index.html.
 */
export function loadResultPageDrawing(clientDir: string, logger: Logger): ResultPageDrawing | undefined {
  const dir = path.join(clientDir, RESULT_PAGE_BUILD.dir);
  const templatePath = path.join(dir, RESULT_PAGE_BUILD.template);
  const rendererPath = path.join(dir, RESULT_PAGE_BUILD.renderer);
  if (!existsSync(templatePath) || !existsSync(rendererPath)) return undefined;
  const [beforeTitle, beforeMarkup, beforeAnswers, afterAnswers] = splitTemplate(readFileSync(templatePath, 'utf8'));
  const renderer = import(pathToFileURL(rendererPath).href)
    .then(async (module: { default: ResultPageRenderer }) => {
      await module.default.prepare();
      return module.default;
    })
    .catch((error: unknown) => {
      logger.error({ err: errorForLog(error) }, 'the result page renderer could not be loaded: its page is sent without her result');
      return undefined;
    });
  return {
    renderer,
    page: ({ markup, title }, answers) =>
      beforeTitle + escapeHtml(title) + beforeMarkup + markup + beforeAnswers + answersScript(answers) + afterAnswers,
  };
}

/** The frame around its slots, each of which it must hold exactly once, in their order. */
function splitTemplate(template: string): [string, string, string, string] {
  const { titleSlot, markupSlot, answersSlot } = RESULT_PAGE_BUILD;
  const parts = template.split(new RegExp(`(${[titleSlot, markupSlot, answersSlot].join('|')})`));
  // Text, slot, text, slot, text, slot, text: the slots at the odd places, in order.
  if (parts.length !== 7 || parts[1] !== titleSlot || parts[3] !== markupSlot || parts[5] !== answersSlot) {
    throw new Error(`${RESULT_PAGE_BUILD.template} does not hold each slot once, in order (title, markup, answers)`);
  }
  return [parts[0]!, parts[2]!, parts[4]!, parts[6]!];
}

/**
 * The answers as data the app reads once (client/early-start/drawn-result-page.ts): not run, so
 * no Content-Security-Policy hash is needed. Every `<` is escaped, so no text in them can end the
 * element (`</script>`) or open a comment.
 */
export function answersScript(answers: ResultPageAnswers): string {
  const json = JSON.stringify(answers).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${RESULT_PAGE_ANSWERS_ID}">${json}</script>`;
}
