/** The cookies an answer set, as the Cookie header a browser would send back (a login sets the session's and the device's). */
export function cookiesSetBy(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .join('; ');
}

/** A result-portal sign-in through the API, as the login form sends it: her cookies and the session's CSRF token. */
export async function resultPortalSession(
  base: string,
  login: { accessCode: string; birthAt: string },
): Promise<{ cookie: string; token: string }> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const answer = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { cookie: cookiesSetBy(csrf), 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ ...login, portalTerms: true, policyTerms: true }),
  });
  if (!answer.ok) throw new Error(`result login failed: ${answer.status}`);
  const { csrfToken: token } = (await answer.json()) as { csrfToken: string };
  return { cookie: cookiesSetBy(answer), token };
}
