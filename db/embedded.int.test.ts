import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type Db } from '../server/db';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded';

let embedded: EmbeddedDatabase;
let db: Db;

beforeAll(async () => {
  embedded = await startEmbeddedDatabase();
  db = createDb({ url: embedded.url, poolMax: embedded.poolMax });
});
afterAll(async () => {
  await db?.destroy();
  await embedded?.stop();
});

it('answers every one of many concurrent parameterized queries with its own parameters', async () => {
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      db.raw<{ rows: { n: number; at: string; label: string }[] }>('SELECT ?::int AS n, ?::timestamptz::text AS at, ?::text AS label', [
        i,
        new Date(Date.UTC(2026, 0, 1 + (i % 28))),
        `query-${i}`,
      ]),
    ),
  );
  answers.forEach((answer, i) => {
    expect(answer.rows[0]).toEqual({
      n: i,
      at: expect.stringContaining(`2026-01-${String(1 + (i % 28)).padStart(2, '0')}`),
      label: `query-${i}`,
    });
  });
});

it('refuses a second connection instead of letting it share the single PGlite session', async () => {
  await db.raw('SELECT 1'); // the pool holds the one connection
  const intruder = new pg.Client({ connectionString: embedded.url });
  await expect(intruder.connect().then(() => intruder.query('SELECT 1'))).rejects.toThrow();
  await intruder.end().catch(() => undefined);
});
