/**
 * The pre-paint script: it runs inline in index.html, before the first paint and before the app's
 * code has loaded. The build compiles this file and writes it into index.html with the built
 * files' URLs (scripts/vite-early-start.ts); it is the one place of all early work, and
 * ./takeover.ts is the one place where the app takes that work over. docs/early-start.md tells
 * what starts, in what order and why.
 *
 * Rules for this file: no imports (it runs alone, inline), nothing but the browser's own APIs, and
 * every step guarded, so a failure never stops the page from loading. What it mirrors is named at
 * each step, with the test that holds the two together.
 */

/** The built files the early work needs; empty without a build (dev server), when the app starts all of it. */
export type EarlyStartUrls = {
  /** `client/i18n/<lang>.json` chunks by language. */
  catalogs?: Partial<Record<string, string>>;
  /** The result page's chunk, with all it imports. */
  resultPage?: string;
  /** pdf.js's worker script. */
  pdfWorker?: string;
};

/** What the script leaves on `window` for the app (./takeover.ts). */
export type EarlyStartGlobals = {
  /** The result page's first GETs by URL; null: decided not to send it. */
  portalEarlyRequests?: Record<string, Promise<Response | null> | undefined>;
  /** pdf.js's worker, started offline on a result page. */
  portalPdfWorker?: Worker;
};

type StoredPrefs = { lang?: unknown; theme?: unknown; fontScale?: unknown };

export function prePaint(urls: EarlyStartUrls): void {
  // 1. The accessibility preferences (language, contrast theme, font scale), so a reload never
  //    flashes the wrong theme or language. Mirrors client/stores/prefs-store.ts
  //    (client/early-start/pre-paint.test.ts).
  let prefs: StoredPrefs = {};
  try {
    prefs = JSON.parse(localStorage.getItem('portal.prefs') ?? 'null') || {};
  } catch {
    // blocked or broken storage: the defaults
  }
  if (typeof prefs !== 'object') prefs = {};
  const themes: unknown[] = ['default', 'black-white', 'white-black', 'black-pink', 'pink-black'];
  const lang = prefs.lang === 'en' ? 'en' : 'pl';
  const html = document.documentElement;
  html.lang = lang;
  html.setAttribute('data-theme', themes.indexOf(prefs.theme) >= 0 ? String(prefs.theme) : 'default');
  html.style.setProperty('--font-scale', String([1, 1.4, 1.6].indexOf(prefs.fontScale as number) >= 0 ? prefs.fontScale : 1));
  if (lang === 'en') document.title = 'Patient Portal – Mammography';
  // A visitor who has not answered the cookie dialog sees it in the page drawn at build time
  // (client/prerender/CookieDialogPicture.tsx), as the app opens it for her: no consent cookie.
  // Mirrors client/shell/consent/consent-store.ts (the app asks again if the cookie is unreadable).
  try {
    if (!/(?:^|;\s*)portal\.cookie-consent=/.test(document.cookie)) html.setAttribute('data-cookie-consent-pending', '');
  } catch {
    // cookies blocked: the app opens the dialog itself
  }
  // The browser's list of Intl locales, built once per page on its first use. react-aria asks for
  // it as its code loads, which on a phone made a tens-of-milliseconds part of the app's one long
  // start-up task after the page was visible (issue 16, Lighthouse's Total Blocking Time). Asked
  // here, the list is built while the page is parsed, before anything is painted or tappable.
  try {
    Intl.DateTimeFormat.supportedLocalesOf([navigator.language || 'en-US']);
  } catch {
    // no Intl, or a malformed language tag: react-aria falls back itself
  }

  // Once the browser reports its first contentful paint, or after a short wait where it reports
  // none (as scripts/vite-start-after-paint.ts starts the app).
  const afterFirstPaint = (then: () => void) => {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      then();
    };
    try {
      new PerformanceObserver((list, observer) => {
        if (list.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        setTimeout(once, 0);
      }).observe({ type: 'paint', buffered: true });
    } catch {
      // no Paint Timing: the wait below
    }
    setTimeout(once, 500);
  };
  const preload = (href: string) => {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    // As the app's own loader asks for it (CORS, same-origin credentials), so the preloaded
    // copy is the one it uses.
    link.crossOrigin = 'anonymous';
    link.href = href;
    document.head.appendChild(link);
  };

  // 2. This language's catalog downloads beside the entry script, instead of after it ran
  //    (client/lib/intl.ts loads it).
  //    A page drawn into the HTML at build time (scripts/vite-prerender.ts) paints first: the
  //    catalog downloads after that, with the app's code (scripts/vite-start-after-paint.ts).
  const catalog = urls.catalogs?.[lang];
  if (catalog && lang === 'pl' && html.hasAttribute('data-prerendered')) afterFirstPaint(() => preload(catalog));
  else if (catalog) preload(catalog);

  // 3. The result page, what patients come for, starts before the app: a round trip sooner on a
  //    phone's link. Its paths are those of client/routes/paths.ts ('screening',
  //    'screening_of_patient'), in any letter case as wouter matches them.
  const screeningPath = /^\/screening(?:\/([1-9]\d{0,14}))?\/?$/i.exec(location.pathname);
  if (!urls.resultPage || !screeningPath) return;
  // Drawn by the server with her result (server/result-page/): the app starts from the answers in
  // the page, so nothing is asked (her result would be read and audited twice); only the page's
  // code comes, after the first paint, as the app's does (scripts/vite-start-after-paint.ts).
  if (html.hasAttribute('data-prerendered')) {
    const resultPage = urls.resultPage;
    afterFirstPaint(() => preload(resultPage));
    return;
  }
  const early = window as Window & EarlyStartGlobals;

  if (navigator.onLine === false) {
    // Offline, the kept descriptions open at once, and the PDF engine's worker is the slowest
    // part to start. Only from the device (the service worker answers for it), never over a
    // patient's mobile data.
    if (urls.pdfWorker && navigator.serviceWorker && navigator.serviceWorker.controller) {
      early.portalPdfWorker = new Worker(urls.pdfWorker, { type: 'module' });
    }
    return;
  }
  if (!window.fetch) return;

  // The page's first requests, taken over by URL (client/lib/api.ts through ./takeover.ts). A
  // failure belongs to the request that takes it over, not to the console.
  const requests: Record<string, Promise<Response | null>> = (early.portalEarlyRequests = {});
  const send = (url: string, after?: Promise<boolean>): Promise<Response | null> => {
    const request = () => fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    // `after`: sent once it answers true; answers null (not sent) otherwise.
    const sent = after ? after.then((allowed) => (allowed ? request() : null)) : request();
    sent.catch(() => undefined);
    requests[url] = sent;
    return sent;
  };
  const json = (response: Response | null): Promise<unknown> | null => (response && response.ok ? response.clone().json() : null);

  // Her screening and result only once the profile shows the page is hers to open: each read of
  // a result is audited. Mirrors the guard's rule, client/routes/decide-navigation.ts
  // (client/early-start/pre-paint.test.ts runs both on the same sessions).
  const hers = send('/api/auth/session')
    .then(json)
    .then((answer) => {
      const profile = (answer as { user?: unknown } | null)?.user as {
        guest?: boolean;
        id?: number | null;
        requirePasswordChange?: boolean;
      } | null;
      const guest = !!profile && (profile.guest || profile.id === null);
      return !!profile && !profile.requirePasswordChange && guest === !screeningPath[1];
    });
  const query = screeningPath[1] ? `?id=${screeningPath[1]}` : '';
  void send(`/api/screening${query}`, hers);
  void send(`/api/screening/result${query}`, hers);

  // The sponsor logos (nobody's data), the top ones' images at once: the first thing on screen.
  send('/api/banners?type=top-placement')
    .then(json)
    .then((banners) => {
      for (const banner of Array.isArray(banners) ? (banners as { imageUrl: string }[]) : []) {
        const image = new Image();
        image.fetchPriority = 'high';
        image.src = banner.imageUrl;
      }
    })
    .catch(() => undefined);

  // The page's code, needed only once the app's own has run, after her requests: over HTTP/1.1
  // a browser sends six at a time.
  preload(urls.resultPage);
}
