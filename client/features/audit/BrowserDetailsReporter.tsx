import { useEffect } from 'react';
import { subscribe } from 'valtio';
import { api } from '../../lib/api';
import { session, useSession } from '../../stores/session-store';
import { describeBrowser, type UserAgentData } from './browser-details';

/** Sent (or being sent) for the current sign-in; the server also keeps only a session's first report. */
let reported = false;
subscribe(session, () => {
  if (session.status !== 'signedIn') reported = false;
});

async function reportBrowserDetails(): Promise<void> {
  reported = true;
  const { userAgentData } = navigator as Navigator & { userAgentData?: UserAgentData };
  const details = describeBrowser({ userAgent: navigator.userAgent, userAgentData, screen: window.screen });
  try {
    await api.post('/audit/browser', details);
  } catch {
    // Nothing the user can act on (e.g. a password change is still required): try at the next sign-in.
    reported = false;
  }
}

/** Reports the browser to the audit once per sign-in (spec section 7, POST /audit/browser). */
export function BrowserDetailsReporter() {
  const { status } = useSession();
  useEffect(() => {
    if (status === 'signedIn' && !reported) void reportBrowserDetails();
  }, [status]);
  return null;
}
