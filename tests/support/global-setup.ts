import type { TestProject } from 'vitest/node';

/**
 * Tells every test file which database the run uses: the real PostgreSQL of DATABASE_URL (each
 * file takes a fresh schema there) or PGlite (each file starts its own in-memory instance, see
 * tests/support/database.ts for why).
 */
export async function setup(project: TestProject): Promise<void> {
  project.provide('databaseUrl', process.env.DATABASE_URL ?? '');
  project.provide('databaseKind', process.env.DATABASE_URL ? 'postgresql' : 'pglite');
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseKind: 'postgresql' | 'pglite';
  }
}
