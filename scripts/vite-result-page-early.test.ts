import { describe, expect, it } from 'vitest';
import { resultPageUrls } from './vite-result-page-early';

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
    expect(resultPageUrls(outputs)).toEqual({ pdfWorker: '/assets/pdf.worker.min-CIqJB0yW.mjs', pageScript: '/assets/ResultPage-B.js' });
    expect(resultPageUrls(outputs, '/portal/').pageScript).toBe('/portal/assets/ResultPage-B.js');
  });

  it('fails the build when a file is missing or ambiguous', () => {
    expect(() => resultPageUrls(outputs.filter((output) => !output.fileName.includes('worker')))).toThrow(/pdf.js worker.*found 0/);
    expect(() => resultPageUrls([...outputs, chunk('assets/ResultPage-D.js', 'ResultPage')])).toThrow(/ResultPage chunk.*found 2/);
  });
});
