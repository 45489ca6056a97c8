import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: { alias: { '@common': fileURLToPath(new URL('./common', import.meta.url)) } },
  test: {
    include: [
      'client/**/*.test.{ts,tsx}',
      'server/**/*.test.ts',
      'db/**/*.test.ts',
      'common/**/*.test.ts',
      'sw/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/testing-library-setup.ts'],
    // API tests boot the real app on a database; give slow machines room.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
