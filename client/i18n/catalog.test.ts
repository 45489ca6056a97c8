import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import pl from './pl.json';

/**
 * The catalogs are the only source of visible text. This keeps them honest: both languages have
 * the same keys with the same ICU placeholders, every key the code uses exists, and no key lies
 * unused. "Used" means the key appears as a quoted string in client/ or common/ source; that is
 * why keys are never built by concatenation (a code-to-key map is written out literally).
 */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE_ROOTS = ['client', 'common'];
const THIS_FILE = relative(repoRoot, fileURLToPath(import.meta.url));

const catalogs: Record<string, Record<string, string>> = { pl, en };
const referenceKeys = Object.keys(pl);
const keyPrefixes = new Set(referenceKeys.map((key) => key.split('.')[0]));

/** Dotted strings in source that look like keys but are names of something else. */
const NOT_MESSAGE_KEYS = new Set(['portal.prefs', 'portal.sid', 'portal.csrf', 'portal.cookie-consent']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

function quotedStrings(source: string): string[] {
  const found: string[] = [];
  // '…', "…" and `…` without interpolation; a key never spans lines.
  for (const match of source.matchAll(/'([^'\\\n]*)'|"([^"\\\n]*)"|`([^`$\\\n]*)`/g)) {
    found.push(match[1] ?? match[2] ?? match[3] ?? '');
  }
  return found;
}

const sources = SOURCE_ROOTS.flatMap((root) => sourceFiles(join(repoRoot, root)))
  .filter((path) => relative(repoRoot, path) !== THIS_FILE)
  .map((path) => ({ path: relative(repoRoot, path), strings: quotedStrings(readFileSync(path, 'utf8')) }));

const KEY_SHAPE = /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9_-]+)+$/;
const FILE_NAME = /\.(ts|tsx|js|mjs|json|css|html|pdf|svg|png|webp|webmanifest)$/;

function looksLikeKey(value: string): boolean {
  return KEY_SHAPE.test(value) && keyPrefixes.has(value.split('.')[0]) && !FILE_NAME.test(value) && !NOT_MESSAGE_KEYS.has(value);
}

/** Argument, tag and plural/select names of a message with their kinds, e.g. "days:plural". */
function placeholders(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
        into.add(`${element.value}:argument`);
        break;
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        into.add(`${element.value}:${TYPE[element.type]}`);
        break;
      case TYPE.select:
      case TYPE.plural:
        into.add(`${element.value}:${TYPE[element.type]}`);
        for (const option of Object.values(element.options)) placeholders(option.value, into);
        break;
      case TYPE.tag:
        into.add(`<${element.value}>`);
        placeholders(element.children, into);
        break;
      default:
        break;
    }
  }
  return into;
}

describe('message catalogs', () => {
  it('have the same keys in Polish and English', () => {
    const plKeys = new Set(Object.keys(pl));
    const enKeys = new Set(Object.keys(en));
    expect(
      [...plKeys].filter((key) => !enKeys.has(key)),
      'keys missing from en.json',
    ).toEqual([]);
    expect(
      [...enKeys].filter((key) => !plKeys.has(key)),
      'keys missing from pl.json',
    ).toEqual([]);
  });

  it('have no empty message', () => {
    for (const [lang, catalog] of Object.entries(catalogs)) {
      const empty = Object.entries(catalog)
        .filter(([, text]) => text.trim() === '')
        .map(([key]) => key);
      expect(empty, `empty messages in ${lang}.json`).toEqual([]);
    }
  });

  it('use the same ICU placeholders in both languages, in valid ICU syntax', () => {
    const mismatches: string[] = [];
    for (const key of referenceKeys) {
      const [plText, enText] = [pl[key as keyof typeof pl], (en as Record<string, string>)[key]];
      if (enText === undefined) continue; // reported by the key test
      const plArgs = [...placeholders(parse(plText))].sort().join(', ');
      const enArgs = [...placeholders(parse(enText))].sort().join(', ');
      if (plArgs !== enArgs) mismatches.push(`${key}: pl {${plArgs}} en {${enArgs}}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('contain every key the source code uses', () => {
    const known = new Set(referenceKeys);
    const missing = sources.flatMap(({ path, strings }) =>
      strings.filter((value) => looksLikeKey(value) && !known.has(value)).map((value) => `${value} (${path})`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });

  it('contain no key that the source code never uses', () => {
    const used = new Set(sources.flatMap(({ strings }) => strings));
    expect(referenceKeys.filter((key) => !used.has(key))).toEqual([]);
  });
});
