import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const HOME_BUDGET_KB = 150;

export type BundleReport = {
  firstPaintKb: number;
  files: { file: string; gzipKb: number }[];
  lazyChunks: number;
  pdfjsInFirstPaint: boolean;
};

/**
 * What the home page loads before its first paint: the entry script and stylesheets named in
 * index.html or inside it, and every module they import statically (followed through the `import` statements
 * of the built chunks, as the browser would). Lazy `import()` chunks are not counted.
 */
export function measureHomeBundle(clientDir: string): BundleReport {
  const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith('.js')) continue;
    const code = readFileSync(path.join(clientDir, file), 'utf8');
    // Static imports only: `import{a}from"./x.js"` and `import"./x.js"`, not `import("./x.js")`.
    for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?["'](\.\/[^"']+)["']/g)) {
      queue.push(path.posix.join(path.posix.dirname(file), m[1]!));
    }
  }
  const files = [...seen].map((file) => ({
    file,
    gzipKb: gzipSync(readFileSync(path.join(clientDir, file)), { level: 9 }).length / 1024,
  }));
  // The stylesheet the build puts inside index.html (scripts/vite-inline-stylesheet.ts) counts too.
  const inlineCss = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!).join('');
  if (inlineCss) files.push({ file: 'index.html <style>', gzipKb: gzipSync(inlineCss, { level: 9 }).length / 1024 });
  const all = readdirSync(path.join(clientDir, 'assets')).filter((f) => f.endsWith('.js'));
  return {
    firstPaintKb: files.reduce((sum, f) => sum + f.gzipKb, 0),
    files,
    lazyChunks: all.length - [...seen].filter((f) => f.endsWith('.js')).length,
    pdfjsInFirstPaint: [...seen].some((f) => /pdf/i.test(f)),
  };
}

export function printBundleReport(report: BundleReport): boolean {
  console.log('\n## Home page: JavaScript + CSS before first paint (gzip)');
  for (const f of report.files) console.log(`  ${f.file.padEnd(48)} ${f.gzipKb.toFixed(1).padStart(7)} KB`);
  const ok = report.firstPaintKb <= HOME_BUDGET_KB && !report.pdfjsInFirstPaint;
  console.log(`  total ${report.firstPaintKb.toFixed(1)} KB of ${HOME_BUDGET_KB} KB budget: ${ok ? 'within' : 'OVER'}`);
  console.log(
    `  lazy chunks loaded on demand: ${report.lazyChunks}; pdfjs before first paint: ${report.pdfjsInFirstPaint ? 'yes (wrong)' : 'no'}`,
  );
  return ok;
}
