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
 */
function starterScript(entryUrl: string, importedUrls: string[]): string {
  return (
    `(function(){var started=false;function start(){if(started)return;started=true;` +
    `${JSON.stringify(importedUrls)}.forEach(function(href){var link=document.createElement('link');link.rel='modulepreload';link.crossOrigin='anonymous';link.href=href;document.head.appendChild(link)});` +
    `import(${JSON.stringify(entryUrl)})}` +
    `var root=document.getElementById('root');` +
    `if(!root||!root.hasChildNodes()||getComputedStyle(root).visibility==='hidden'){start();return}` +
    `try{new PerformanceObserver(function(list,observer){if(list.getEntriesByName('first-contentful-paint').length){observer.disconnect();setTimeout(start,0)}}).observe({type:'paint',buffered:true})}catch(e){}` +
    `setTimeout(start,500)})()`
  );
}

export function startAfterPaint(html: string): string {
  const entry = ENTRY_SCRIPT.exec(html);
  if (!entry) throw new Error('index.html has no module script of the entry to start after the first paint');
  const url = entry[1]!;
  const imported = [...html.matchAll(MODULE_PRELOAD)].map((link) => link[1]!);
  if (!html.includes('</body>')) throw new Error('index.html has no </body>');
  return html
    .replace(entry[0], () => `<link rel="modulepreload" crossorigin href="${url}">`)
    .replace('</body>', () => `<script>${starterScript(url, imported).replace(/</g, '\\u003c')}</script>\n  </body>`);
}

export function startAppAfterPaint(): Plugin {
  return {
    name: 'start-app-after-paint',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: (html) => startAfterPaint(html) },
  };
}
