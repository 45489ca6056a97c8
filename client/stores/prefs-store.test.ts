import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFS, parsePrefs } from './prefs-store';

describe('stored accessibility preferences', () => {
  it('start with Polish, the default contrast and scale 1', () => {
    expect(parsePrefs(null)).toEqual({ lang: 'pl', theme: 'default', fontScale: 1 });
    expect(DEFAULT_PREFS).toEqual({ lang: 'pl', theme: 'default', fontScale: 1 });
  });

  it('keep a valid choice', () => {
    expect(parsePrefs('{"lang":"en","theme":"pink-black","fontScale":1.6}')).toEqual({
      lang: 'en',
      theme: 'pink-black',
      fontScale: 1.6,
    });
  });

  it('fall back per field when a value is unknown, and entirely when the entry is broken', () => {
    expect(parsePrefs('{"lang":"de","theme":"black-pink","fontScale":2}')).toEqual({
      lang: 'pl',
      theme: 'black-pink',
      fontScale: 1,
    });
    expect(parsePrefs('{not json')).toEqual(DEFAULT_PREFS);
    expect(parsePrefs('"en"')).toEqual(DEFAULT_PREFS);
    expect(parsePrefs('null')).toEqual(DEFAULT_PREFS);
  });
});
