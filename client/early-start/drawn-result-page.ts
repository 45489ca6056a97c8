import { RESULT_PAGE_ANSWERS_ID, type ResultPageAnswers } from '@common/drawn-result-page';
import { session, setSignedIn } from '../stores/session-store';
import { arriveWithPage } from './result-requests';

/**
 * The result page the server drew into the HTML for a signed-in result-portal patient
 * (server/result-page/): the app starts from the answers it was drawn with, so its first render
 * shows the same page, and her result is not read (and audited) a second time.
 */

/**
 * Puts the answers where the app's first render looks for them: who is signed in (the route
 * guard then renders the page at once and only re-checks the screening), her result and the
 * sponsor logos (taken by the page as arrived requests). The server's render entry does the same
 * before drawing (client/prerender/render-result-page.tsx). Returns what forgets them.
 */
export function adoptResultPageAnswers(answers: ResultPageAnswers): () => void {
  setSignedIn(answers.user);
  const forgetRequests = arriveWithPage(answers);
  return () => {
    forgetRequests();
    session.status = 'unknown';
    session.user = null;
  };
}

/**
 * The answers the server sent with the page, read once: the element is removed, so her data does
 * not stay in the document for anything that reads it later. Undefined for every other page.
 */
export function takeDrawnResultPageAnswers(): ResultPageAnswers | undefined {
  const element = document.getElementById(RESULT_PAGE_ANSWERS_ID);
  if (!element) return undefined;
  element.remove();
  try {
    return JSON.parse(element.textContent ?? '') as ResultPageAnswers;
  } catch {
    // Unreadable: the app asks the server, as on a page that was not drawn.
    return undefined;
  }
}

/** Before the app's first render (main.tsx): starts it from the drawn page's answers, if any. */
export function adoptDrawnResultPage(): void {
  const answers = takeDrawnResultPageAnswers();
  if (answers) adoptResultPageAnswers(answers);
}
