import { createHash } from 'node:crypto';
import helmet from 'helmet';
import type { RequestHandler } from 'express';

/**
 * Security headers with a Content-Security-Policy fit for the built Vite SPA: scripts only from
 * this origin plus the hashes of the inline scripts of index.html (the pre-paint script that
 * applies theme, font scale and language), PDF.js and comlink workers from this origin or blob:,
 * nobody may frame the portal.
 */
/**
 * The two <style> elements react-aria inserts at run time, word for word (react-aria's usePress:
 * no double-tap-zoom delay on touch; usePreventScroll: no scroll chaining behind a modal). Allowed
 * by their hashes so no other injected stylesheet is. A react-aria update that changes them shows
 * up as a CSP violation in tests/e2e/accessibility.spec.ts.
 */
const REACT_ARIA_STYLES = [
  '@layer {\n  [data-react-aria-pressable] {\n    touch-action: pan-x pan-y pinch-zoom;\n  }\n}',
  '@layer {\n  * {\n    overscroll-behavior: contain;\n  }\n}',
];

export function securityHeaders({ isProduction, indexHtml }: { isProduction: boolean; indexHtml: string | undefined }): RequestHandler {
  const scriptHashes = indexHtml ? inlineHashes(indexHtml, 'script') : [];
  const styleHashes = [...(indexHtml ? inlineHashes(indexHtml, 'style') : []), ...REACT_ARIA_STYLES.map(sourceHash)];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
        // 'wasm-unsafe-eval' lets PDF.js compile its WebAssembly image decoders, nothing else.
        'script-src': ["'self'", "'wasm-unsafe-eval'", ...scriptHashes],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", ...styleHashes],
        // Style attributes in markup (positioning of overlays); no stylesheet can be injected.
        'style-src-attr': ["'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'worker-src': ["'self'", 'blob:'],
        'manifest-src': ["'self'"],
        'frame-src': ["'self'", 'blob:'],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        ...(isProduction ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    // HSTS on plain-http localhost would only confuse a developer's browser.
    strictTransportSecurity: isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
  });
}

/** CSP source expressions for the inline `<script>` or `<style>` elements of a page. */
function inlineHashes(html: string, tag: 'script' | 'style'): string[] {
  const pattern = new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'gi');
  const hashes: string[] = [];
  for (const [, attributes = '', body = ''] of html.matchAll(pattern)) {
    if (/\bsrc\s*=/i.test(attributes) || body.length === 0) continue;
    hashes.push(sourceHash(body));
  }
  return hashes;
}

function sourceHash(content: string): string {
  return `'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`;
}
