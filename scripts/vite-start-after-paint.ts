import type { Plugin } from 'vite';

/**
 * Starts the app's entry script after the browser's first paint when the page already has content
 * (a public page drawn at build time, scripts/vite-prerender.ts), at once otherwise. As a plain
 * module script the browser would download it beside the HTML on a phone's slow link and may run
 * it, with all of its hundreds of milliseconds of work, before painting the page that was there
 * all along (issue 16, Lighthouse). In index.html a modulepreload link takes the script tag's
 * place in <head>, so an empty page downloads it from the start as before; the drawn pages have
 * none (vite-prerender.ts), and the starter preloads the entry's imports with it.
 *
 * The starter is the same inline script in every built page, so the Content-Security-Policy's
 * hash of it, computed from index.html (server/lib/security-headers.ts), covers them all; the
 * entry itself loads by `import()` from this origin, which script-src 'self' allows.
 */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * Starts once the browser reports its first contentful paint (Paint Timing), or after a short
 * wait where it reports none: an old browser, a tab opened in the background. A page whose drawn
 * content is hidden (styles/base.css: another language) paints nothing until the app has run, so
 * it starts at once, like an empty one.
 *
 * With `firstUrl` (React's chunk, vite.config.ts), that chunk is imported first and the entry in
 * the next task: evaluated together they were one task of over 30 ms of a phone's CPU, which
 * Lighthouse counts four times over as Total Blocking Time (issue 16); apart, each is about half.
 * Both are downloading by then (modulepreload), so the split costs no round trip.
 */
function starterScript(entryUrl: string, importedUrls: string[], firstUrl?: string): string {
  const importEntry = `import(${JSON.stringify(entryUrl)})`;
  const begin = firstUrl
    ? `var next=function(){setTimeout(function(){${importEntry}},0)};import(${JSON.stringify(firstUrl)}).then(next,next)`
    : importEntry;
  return (
    `(function(){var started=false;function start(){if(started)return;started=true;` +
    `${JSON.stringify(importedUrls)}.forEach(function(href){var link=document.createElement('link');link.rel='modulepreload';link.crossOrigin='anonymous';link.href=href;document.head.appendChild(link)});` +
    `${begin}}` +
    `var root=document.getElementById('root');` +
    `if(!root||!root.hasChildNodes()||getComputedStyle(root).visibility==='hidden'){start();return}` +
    `try{new PerformanceObserver(function(list,observer){if(list.getEntriesByName('first-contentful-paint').length){observer.disconnect();setTimeout(start,0)}}).observe({type:'paint',buffered:true})}catch(e){}` +
    `setTimeout(start,500)})()`
  );
}

/** `firstChunk`: the file name of a chunk the entry imports, to be evaluated before it (above). */
export function startAfterPaint(html: string, firstChunk?: string): string {
  const entry = ENTRY_SCRIPT.exec(html);
  if (!entry) throw new Error('index.html has no module script of the entry to start after the first paint');
  const url = entry[1]!;
  const imported = [...html.matchAll(MODULE_PRELOAD)].map((link) => link[1]!);
  const firstUrl = firstChunk && imported.find((href) => href.endsWith(`/${firstChunk}`));
  if (firstChunk && !firstUrl) throw new Error(`index.html does not preload ${firstChunk}, which the starter imports first`);
  if (!html.includes('</body>')) throw new Error('index.html has no </body>');
  return html
    .replace(entry[0], () => `<link rel="modulepreload" crossorigin href="${url}">`)
    .replace('</body>', () => `<script>${starterScript(url, imported, firstUrl).replace(/</g, '\\u003c')}</script>\n  </body>`);
}

/** The chunk vite.config.ts names `react`, which the starter evaluates before the entry. */
function reactChunk(bundle: Record<string, { type: string; name?: string; fileName: string }> | undefined): string {
  const found = Object.values(bundle ?? {}).filter((output) => output.type === 'chunk' && output.name === 'react');
  if (found.length !== 1) throw new Error(`expected one chunk named react in the build, found ${found.length}`);
  return found[0]!.fileName;
}

export function startAppAfterPaint(): Plugin {
  return {
    name: 'start-app-after-paint',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: (html, { bundle }) => startAfterPaint(html, reactChunk(bundle)) },
  };
}
