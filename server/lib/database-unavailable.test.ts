import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable';

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a server shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a server starting', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a connection failure', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['too many connections', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
    [
      'a pool that gave no connection in time',
      Object.assign(new Error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' }),
    ],
    ['a connection closed under a query', new Error('Connection terminated unexpectedly')],
  ])('says yes to %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key value'), { code: '23505' })],
    ['a syntax error', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['a programming error', new TypeError('x is undefined')],
    ['nothing', undefined],
  ])('says no to %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
