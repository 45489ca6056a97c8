import { proxy, subscribe } from 'valtio';

/**
 * Accessibility preferences kept on the device. They live in localStorage (not IndexedDB) under
 * one key because the inline script in index.html must read them synchronously before first
 * paint; keep that script in step with `applyPrefsToDocument` below.
 */
export const PREFS_STORAGE_KEY = 'portal.prefs';

export const LANGUAGES = ['pl', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** "X-Y" reads as X text on Y background. */
export const THEMES = ['default', 'black-white', 'white-black', 'black-pink', 'pink-black'] as const;
export type Theme = (typeof THEMES)[number];

export const FONT_SCALES = [1, 1.4, 1.6] as const;
export type FontScale = (typeof FONT_SCALES)[number];

export type Prefs = { lang: Language; theme: Theme; fontScale: FontScale };

export const DEFAULT_PREFS: Readonly<Prefs> = { lang: 'pl', theme: 'default', fontScale: 1 };

function oneOf<T>(allowed: readonly T[], value: unknown, fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** Reads stored preferences; anything missing, unknown or unparsable falls back to the default. */
export function parsePrefs(stored: string | null): Prefs {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = stored ? JSON.parse(stored) : null;
    if (parsed && typeof parsed === 'object') raw = parsed as Record<string, unknown>;
  } catch {
    // A corrupted entry must never keep the portal from starting.
  }
  return {
    lang: oneOf(LANGUAGES, raw.lang, DEFAULT_PREFS.lang),
    theme: oneOf(THEMES, raw.theme, DEFAULT_PREFS.theme),
    fontScale: oneOf(FONT_SCALES, raw.fontScale, DEFAULT_PREFS.fontScale),
  };
}

function readStorage(): string | null {
  try {
    return globalThis.localStorage?.getItem(PREFS_STORAGE_KEY) ?? null;
  } catch {
    return null; // storage disabled by the browser: defaults for this visit
  }
}

function writeStorage(value: Prefs) {
  try {
    globalThis.localStorage?.setItem(PREFS_STORAGE_KEY, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the choice still applies until the page closes.
  }
}

export const prefs = proxy<Prefs>(parsePrefs(readStorage()));

/** Theme and font scale; the language attribute follows the loaded catalog (see lib/intl.ts). */
function applyPrefsToDocument(value: Prefs) {
  if (typeof document === 'undefined') return;
  const html = document.documentElement;
  html.dataset.theme = value.theme;
  html.style.setProperty('--font-scale', String(value.fontScale));
}

export function setLanguage(lang: Language) {
  prefs.lang = lang;
}
export function setTheme(theme: Theme) {
  prefs.theme = theme;
}
export function setFontScale(fontScale: FontScale) {
  prefs.fontScale = fontScale;
}
export function resetPrefs() {
  Object.assign(prefs, DEFAULT_PREFS);
}

subscribe(prefs, () => {
  const snapshot = { lang: prefs.lang, theme: prefs.theme, fontScale: prefs.fontScale };
  writeStorage(snapshot);
  applyPrefsToDocument(snapshot);
});

// Another tab changed the preferences: follow it so both tabs look the same.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== PREFS_STORAGE_KEY) return;
    const next = parsePrefs(event.newValue);
    if (next.lang !== prefs.lang || next.theme !== prefs.theme || next.fontScale !== prefs.fontScale) {
      Object.assign(prefs, next);
    }
  });
}
