import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

/**
 * The inline script of index.html applies the stored preferences before the first paint. It runs
 * here against a minimal document, the way the browser would run it.
 */
const html = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
const inlineScript = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';

function runWith(stored: string | null | Error) {
  const properties = new Map<string, string>();
  const attributes = new Map<string, string>();
  const documentElement = {
    lang: 'pl',
    setAttribute: (name: string, value: string) => attributes.set(name, value),
    style: { setProperty: (name: string, value: string) => properties.set(name, value) },
  };
  const document = { documentElement, title: 'Portal Pacjentki – Mammografia' };
  const localStorage = {
    getItem: () => {
      if (stored instanceof Error) throw stored;
      return stored;
    },
  };
  runInNewContext(inlineScript, { document, localStorage, location: { pathname: '/' } });
  return { lang: documentElement.lang, theme: attributes.get('data-theme'), scale: properties.get('--font-scale'), title: document.title };
}

describe('index.html before the first paint', () => {
  it('has an inline script and links the manifest', () => {
    expect(inlineScript).toContain('portal.prefs');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    expect(html).toContain('name="theme-color"');
  });

  it('applies the stored language, contrast theme and font scale', () => {
    expect(runWith('{"lang":"en","theme":"white-black","fontScale":1.4}')).toEqual({
      lang: 'en',
      theme: 'white-black',
      scale: '1.4',
      title: 'Patient Portal – Mammography',
    });
  });

  it('uses the defaults with nothing stored, a broken entry or blocked storage', () => {
    const defaults = { lang: 'pl', theme: 'default', scale: '1', title: 'Portal Pacjentki – Mammografia' };
    expect(runWith(null)).toEqual(defaults);
    expect(runWith('{broken')).toEqual(defaults);
    expect(runWith('42')).toEqual(defaults);
    expect(runWith(new Error('SecurityError'))).toEqual(defaults);
    expect(runWith('{"lang":"fr","theme":"neon","fontScale":3}')).toEqual(defaults);
  });
});
