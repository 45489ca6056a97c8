import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultThrottlePolicy } from './throttle-policy';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { insertAccount, insertPerson, insertScreening } from '../../tests/support/seed-minimal';

/**
 * Patients behind one public IP (clinic Wi-Fi, carrier NAT) signing in at once, with the real
 * numbers: a right credential is never refused because other attempts are in flight.
 */
let app: TestApp;
const patients: { login: string; password: string; accessCode: string; birthAt: string }[] = [];

beforeAll(async () => {
  app = await startTestApp({ throttlePolicy: defaultThrottlePolicy });
  for (let i = 0; i < 10; i++) {
    const birthAt = `1960-01-${String(10 + i)}`;
    const personId = await insertPerson(app.db, { firstName: 'Pacjentka', lastName: `Nr${i}`, birthAt });
    const login = `nat.${i}@example.com`;
    const password = `Nat!Haslo${i}x`;
    await insertAccount(app.db, personId, { email: login, password });
    const accessCode = `Nat${i}code`;
    await insertScreening(app.db, app.config, personId, { accessCode, examinedAt: '2024-01-01T09:00:00Z' });
    patients.push({ login, password, accessCode, birthAt });
  }
});
afterAll(() => app?.close());

const behindNat = { 'x-forwarded-for': '198.51.100.7' };

describe('correct logins from one IP at once', () => {
  it('answers 50 concurrent patient logins with the right password all with 200', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const { login, password } = patients[i % patients.length]!;
        return (await app.client().loginPortal(login, password, behindNat)).status;
      }),
    );
    expect(statuses).toEqual(Array(50).fill(200));
  });

  it('answers 50 concurrent result logins with the right code all with 200', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const { accessCode, birthAt } = patients[i % patients.length]!;
        return (await app.client().loginResult(accessCode, birthAt, behindNat)).status;
      }),
    );
    expect(statuses).toEqual(Array(50).fill(200));
  });
});
