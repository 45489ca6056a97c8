import { isResetTokenShape } from '@common/validation/reset-token';
import { api } from '../../lib/api';
import { routeForPath } from '../../routes/paths';

/** The server's verdict on a reset link: usable, or refused with the error it answered. */
export type TokenCheck = { usable: true } | { usable: false; error: unknown };

/** `POST /api/auth/password/token`: whether the link can still set a password. */
function checkToken(token: string, signal?: AbortSignal): Promise<TokenCheck> {
  return api.post('/auth/password/token', { token }, { signal }).then(
    (): TokenCheck => ({ usable: true }),
    (error: unknown): TokenCheck => ({ usable: false, error }),
  );
}

type EarlyCheck = { token: string; check: Promise<TokenCheck>; answer?: TokenCheck };
let early: EarlyCheck | null = null;

/**
 * Asks the server about the reset link being opened while the app still loads (main.tsx), as the
 * session check is: its page then usually has the verdict for its first render and draws the form
 * or the refusal at once, instead of "checking the link" with a spinning spinner until two more
 * round trips after that render, and then the card again (issue 16, Lighthouse). Only a token of
 * the right shape is sent, as the page itself would.
 */
export function startTokenCheck(path: string): void {
  const found = routeForPath(path);
  const token = found?.route.name === 'change_password_with_token' ? found.params.token : undefined;
  if (token === undefined || !isResetTokenShape(token)) return;
  const started: EarlyCheck = { token, check: checkToken(token) };
  void started.check.then((answer) => {
    started.answer = answer;
  });
  early = started;
}

/** The early check's verdict on `token`, if it has already come. */
export function earlyTokenVerdict(token: string): TokenCheck | undefined {
  return early?.token === token ? early.answer : undefined;
}

/**
 * The check started early for `token`, taken once (a later visit of the same link asks again: it
 * may have been used meanwhile); otherwise a check starting now.
 */
export function tokenCheckOf(token: string, signal: AbortSignal): Promise<TokenCheck> {
  const taken = early;
  early = null;
  return taken?.token === token ? taken.check : checkToken(token, signal);
}
