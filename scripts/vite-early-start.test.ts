import { describe, expect, it } from 'vitest';
import { catalogUrls, earlyStartScript, resultPageUrls } from './vite-early-start';

describe('catalog URLs for the pre-paint script', () => {
  it('names the chunk of each language catalog, and nothing else', () => {
    const chunks = [
      { fileName: 'assets/pl-Xy1.js', facadeModuleId: '/app/client/i18n/pl.json' },
      { fileName: 'assets/en-Zz9.js', facadeModuleId: '/app/client/i18n/en.json' },
      { fileName: 'assets/index-Q.js', facadeModuleId: '/app/client/app/main.tsx' },
      { fileName: 'assets/shared-R.js', facadeModuleId: null },
    ];
    expect(catalogUrls(chunks)).toEqual({ pl: '/assets/pl-Xy1.js', en: '/assets/en-Zz9.js' });
  });
});

const chunk = (fileName: string, name: string) => ({ fileName, name, type: 'chunk' as const });
const asset = (fileName: string) => ({ fileName, type: 'asset' as const });

describe('the result page URLs for the pre-paint script', () => {
  const outputs = [
    chunk('assets/index-Q.js', 'index'),
    chunk('assets/ResultPage-B.js', 'ResultPage'),
    asset('assets/style-S.css'),
    asset('assets/pdf.worker.min-CIqJB0yW.mjs'),
    asset('assets/pdfjs-6.5.438/wasm/openjpeg.wasm'),
  ];

  it("names the worker and the page's chunk", () => {
    expect(resultPageUrls(outputs)).toEqual({ pdfWorker: '/assets/pdf.worker.min-CIqJB0yW.mjs', resultPage: '/assets/ResultPage-B.js' });
    expect(resultPageUrls(outputs, '/portal/').resultPage).toBe('/portal/assets/ResultPage-B.js');
  });

  it('fails the build when a file is missing or ambiguous', () => {
    expect(() => resultPageUrls(outputs.filter((output) => !output.fileName.includes('worker')))).toThrow(/pdf.js worker.*found 0/);
    expect(() => resultPageUrls([...outputs, chunk('assets/ResultPage-D.js', 'ResultPage')])).toThrow(/ResultPage chunk.*found 2/);
  });
});

describe('the pre-paint script written into index.html', () => {
  it('is the compiled module, called with the URLs, and nothing can close its tag', async () => {
    const script = await earlyStartScript({ catalogs: { pl: '/assets/pl-X.js' }, resultPage: '/assets/</script>.js' });
    expect(script).toContain('portal.prefs');
    expect(script).not.toMatch(/\bexport\b|\bimport\b/);
    expect(script).toContain('"catalogs":{"pl":"/assets/pl-X.js"}');
    expect(script).not.toContain('</script>');
  });
});
