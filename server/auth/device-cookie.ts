import { createHmac, randomBytes } from 'node:crypto';
import type { CookieOptions } from 'express';
import type { Config } from '../config';
import { sameToken } from './anonymous-csrf';

/**
 * OWASP's device cookies (https://owasp.org/www-community/Slow_Down_Online_Guessing_Attacks_with_Device_Cookies):
 * a browser that once signed in as someone is known for that someone, so its later attempts are
 * counted on their own (throttle.ts) and a guesser elsewhere cannot lock it out.
 *
 * The value holds one entry per subject this browser signed in as, newest first: a random nonce
 * and HMAC(key, subject, nonce). The subject (a login, an access code) itself is not in it, so the
 * cookie says nothing about whom it belongs to; an entry is recognised by recomputing the HMAC for
 * the subject being tried. A forged or copied-over entry fails that check and is simply ignored.
 */
export const DEVICE_COOKIE = 'portal.device';

/** A shared family computer signs in a few people; older entries drop out. */
const MAX_ENTRIES = 4;
const LIFETIME_MS = 365 * 24 * 60 * 60_000;
const ENTRY_PATTERN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** Whose login an entry vouches for; the kinds keep a login and an access code apart. */
export type DeviceSubject = { kind: 'portal'; login: string } | { kind: 'result'; accessCode: string };

export type DeviceCookies = {
  /** The nonce of the cookie's entry for this subject when its signature holds, else undefined. */
  trustedNonce(cookie: string | undefined, subject: DeviceSubject): string | undefined;
  /** The cookie after a sign-in as `subject`: a fresh entry first, the subject's old one gone. */
  renewed(cookie: string | undefined, subject: DeviceSubject): string;
};

export function deviceCookieOptions(config: Pick<Config, 'isProduction'>): CookieOptions {
  // Sent only to the login endpoints, which are all that read it.
  return { httpOnly: true, sameSite: 'lax', secure: config.isProduction, path: '/api/auth', maxAge: LIFETIME_MS };
}

export function createDeviceCookies(config: Pick<Config, 'sessionSecret'>): DeviceCookies {
  // Its own key, so a device entry is never also a valid CSRF token or session signature.
  const key = createHmac('sha256', config.sessionSecret).update('portal device cookie').digest();
  const macOf = (subject: DeviceSubject, nonce: string) =>
    createHmac('sha256', key)
      .update(`${subjectText(subject)}\0${nonce}`)
      .digest('base64url');
  const entriesOf = (cookie: string | undefined) =>
    (cookie ?? '')
      .split('~')
      .slice(0, MAX_ENTRIES)
      .map((entry) => ENTRY_PATTERN.exec(entry))
      .filter((match) => match !== null)
      .map(([entry, nonce, mac]) => ({ entry: entry!, nonce: nonce!, mac: mac! }));
  const matches = (subject: DeviceSubject) => (e: { nonce: string; mac: string }) => sameToken(macOf(subject, e.nonce), e.mac);

  return {
    trustedNonce(cookie, subject) {
      return entriesOf(cookie).find(matches(subject))?.nonce;
    },
    renewed(cookie, subject) {
      const nonce = randomBytes(16).toString('base64url');
      const others = entriesOf(cookie)
        .filter((e) => !matches(subject)(e))
        .map((e) => e.entry);
      return [`${nonce}.${macOf(subject, nonce)}`, ...others].slice(0, MAX_ENTRIES).join('~');
    },
  };
}

function subjectText(subject: DeviceSubject): string {
  // Logins match case-insensitively (repo.ts); access codes are case sensitive (lib/access-code.ts).
  return subject.kind === 'portal' ? `portal\0${subject.login.toLowerCase()}` : `result\0${subject.accessCode}`;
}
