/** The cookies an answer set, as the Cookie header a browser would send back (a login sets the session's and the device's). */
export function cookiesSetBy(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .join('; ');
}
