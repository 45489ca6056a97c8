import { expect, it } from 'vitest';
import { toKnexBindings } from './session-store';

it("turns the session store's numbered placeholders into knex bindings, repeats included", () => {
  const query =
    'INSERT INTO s (sess, expire, sid) SELECT $1, to_timestamp($2), $3 ON CONFLICT (sid) DO UPDATE SET sess=$1, expire=to_timestamp($2)';
  expect(toKnexBindings(query, ['S', 10, 'id'])).toEqual({
    sql: 'INSERT INTO s (sess, expire, sid) SELECT ?, to_timestamp(?), ? ON CONFLICT (sid) DO UPDATE SET sess=?, expire=to_timestamp(?)',
    bindings: ['S', 10, 'id', 'S', 10],
  });
});
