import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { createElement, Fragment, useMemo, type ReactNode } from 'react';
import { proxy, subscribe, useSnapshot } from 'valtio';
import { prefs, type Language } from '../stores/prefs-store';
import type plCatalog from '../i18n/pl.json';

/** Every message the user can see is one of these keys; pl.json is the reference catalog. */
export type MessageKey = keyof typeof plCatalog;
type Catalog = Record<MessageKey, string>;

type Primitive = string | number | boolean | Date | null | undefined;
export type MessageValues = Record<string, Primitive>;
type RichMessageValues = Record<string, Primitive | ReactNode | ((chunks: ReactNode[]) => ReactNode)>;

// Each language is its own chunk: only the active catalog is downloaded.
const catalogLoaders: Record<Language, () => Promise<Catalog>> = {
  pl: () => import('../i18n/pl.json').then((module) => module.default),
  en: () => import('../i18n/en.json').then((module) => module.default as Catalog),
};

const cache = createIntlCache();
let active: IntlShape<ReactNode> | null = null;
/** Undefined: dates and times in the device's own zone. Set only where no device is (startIntl). */
let timeZone: string | undefined;

/** The language whose catalog is loaded; components re-render when it changes. */
const intlState = proxy<{ lang: Language | null }>({ lang: null });

async function activate(lang: Language) {
  const messages = await catalogLoaders[lang]();
  if (prefs.lang !== lang) return; // the user switched again while this one loaded
  active = createIntl<ReactNode>(
    {
      locale: lang,
      defaultLocale: 'pl',
      messages,
      timeZone,
      onError: (error) => {
        // A missing or broken message is a developer's problem: shown in the dev console only.
        // eslint-disable-next-line no-console
        if (import.meta.env.DEV) console.warn(error.message);
      },
    },
    cache,
  );
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  intlState.lang = lang;
}

let started: Promise<void> | null = null;

/**
 * Loads the preferred language and follows later switches. Await once before the first render.
 * `timeZone` is for a page drawn on the server (client/prerender/render-result-page.tsx), which
 * cannot know the device's zone.
 */
export function startIntl(options: { timeZone?: string } = {}): Promise<void> {
  if (!started) {
    timeZone = options.timeZone;
    subscribe(prefs, () => {
      if (prefs.lang !== intlState.lang) void activate(prefs.lang);
    });
    started = activate(prefs.lang);
  }
  return started;
}

/** Translation outside React (stores, api helpers). Falls back to the key before start. */
function translate(key: MessageKey, values?: MessageValues): string {
  if (!active) return key;
  return String(active.formatMessage({ id: key }, values as Record<string, string>));
}

/** Translation with tags, e.g. "I accept the <link>regulations</link>" with `link: (c) => <a>{c}</a>`. */
function translateRich(key: MessageKey, values: RichMessageValues): ReactNode {
  if (!active) return key;
  const output = active.formatMessage({ id: key }, values as Record<string, string>) as ReactNode;
  return Array.isArray(output) ? createElement(Fragment, null, ...output) : output;
}

export type Translate = (key: MessageKey, values?: MessageValues) => string;
export type TranslateRich = (key: MessageKey, values: RichMessageValues) => ReactNode;

/** `t(key, values)` that re-renders the component when the language changes. */
export function useT(): Translate {
  const { lang } = useSnapshot(intlState);
  // `lang` is not read inside: it gives `t` a new identity per language, so components and
  // memos that depend on `t` translate again after a switch.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => (key: MessageKey, values?: MessageValues) => translate(key, values), [lang]);
}

export function useRichT(): TranslateRich {
  const { lang } = useSnapshot(intlState);
  // A new function per language, for the same reason as in useT.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => (key: MessageKey, values: RichMessageValues) => translateRich(key, values), [lang]);
}

/** The active language, for components that format by locale or pick language-specific assets. */
export function useLanguage(): Language {
  const { lang } = useSnapshot(intlState);
  return lang ?? prefs.lang;
}

/** Date and number formatting in the active language (formatDate, formatNumber, formatTime ...). */
export function useIntl(): IntlShape<ReactNode> {
  const { lang } = useSnapshot(intlState);
  return useMemo(() => {
    if (active) return active;
    return createIntl<ReactNode>({ locale: lang ?? prefs.lang, messages: {}, timeZone }, cache);
  }, [lang]);
}
