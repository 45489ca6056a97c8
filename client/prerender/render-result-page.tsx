import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import type { ResultPageAnswers, ResultPageRenderer } from '@common/drawn-result-page';
import { App } from '../app/App';
import { preloadPage } from '../app/pages';
import { DrawnTitle } from '../hooks/use-document-title';
import { adoptResultPageAnswers } from '../early-start/drawn-result-page';
import { startIntl } from '../lib/intl';
import { parseConsentCookie } from '../shell/consent/consent-cookie';
import { consentDialog } from '../shell/consent/consent-store';

/**
 * The result page of a signed-in result-portal patient, drawn by the server for each request
 * (server/result-page/) from the answers the app would ask for, as the app's first render shows
 * them (client/early-start/drawn-result-page.ts). In Polish, like the public pages drawn at build
 * time (scripts/vite-prerender.ts): hidden from her who chose another language until the app has
 * drawn hers (app/styles/base.css). The build bundles this file for Node
 * (scripts/vite-result-page-render.ts).
 */

/** Where the examinations take place: the server cannot know the zone of her device. */
const PROVIDER_TIME_ZONE = 'Europe/Warsaw';

/** React's mark of a Suspense boundary it could not finish and left to the browser. */
const UNFINISHED_BOUNDARY = '<!--$!-->';

async function prepare(): Promise<void> {
  await Promise.all([startIntl({ timeZone: PROVIDER_TIME_ZONE }), preloadPage('screening')]);
}

function cookieDialogAnswered(cookieHeader: string): boolean {
  return parseConsentCookie(cookieHeader) !== null;
}

/**
 * Synchronous on purpose: the stores the page reads are this process's one copy, so her answers
 * are put in, drawn and taken out again before any other request's code can run.
 */
function render(path: string, answers: ResultPageAnswers): { markup: string; title: string } {
  const forgetAnswers = adoptResultPageAnswers(answers);
  // Drawn only for her who answered the cookie dialog (cookieDialogAnswered): no dialog, as in the app.
  consentDialog.isOpen = false;
  try {
    let title: string | undefined;
    const markup = renderToString(
      <DrawnTitle value={(pageTitle) => (title = pageTitle)}>
        <Router ssrPath={path}>
          <App />
        </Router>
      </DrawnTitle>,
    );
    // A part that suspended would come out as its loading state, which the app's first render does not show.
    if (markup.includes(UNFINISHED_BOUNDARY)) throw new Error('a part of the result page suspended while it was drawn');
    if (!title) throw new Error('the result page set no title');
    return { markup, title };
  } finally {
    forgetAnswers();
  }
}

export default { prepare, cookieDialogAnswered, render } satisfies ResultPageRenderer;
