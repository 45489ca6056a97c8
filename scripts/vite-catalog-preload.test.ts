import { describe, expect, it } from 'vitest';
import { catalogUrls } from './vite-catalog-preload';

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
