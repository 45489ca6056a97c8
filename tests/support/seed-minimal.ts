import { createHash } from 'node:crypto';
import type { Config } from '../../server/config';
import type { Db } from '../../server/db';
import { hashAccessCode } from '../../server/lib/access-code';
import { hashPassword } from '../../server/lib/passwords';

/** SHA-256 hex of a typed password, as the browser sends it (docs/api.md). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export type PersonInput = { firstName: string; lastName: string; birthAt: string; pesel?: string; email?: string; phoneNumber?: string };
export type AccountInput = { email: string; password: string; requirePasswordChange?: boolean; disabled?: boolean };
export type ScreeningInput = { accessCode: string; examinedAt: string };

export async function insertPerson(db: Db, person: PersonInput): Promise<number> {
  const [row] = await db('personal_data')
    .insert({
      first_name: person.firstName,
      last_name: person.lastName,
      birth_at: person.birthAt,
      pesel: person.pesel ?? null,
      email: person.email ?? null,
      phone_number: person.phoneNumber ?? null,
    })
    .returning('id');
  return row.id;
}

export async function insertAccount(db: Db, personalDataId: number, account: AccountInput): Promise<number> {
  const [row] = await db('users')
    .insert({
      personal_data_id: personalDataId,
      email: account.email,
      password_hash: await hashPassword(sha256Hex(account.password)),
      require_password_change: account.requirePasswordChange ?? false,
      disabled_at: account.disabled ? new Date() : null,
    })
    .returning('id');
  return row.id;
}

export async function insertScreening(db: Db, config: Config, personalDataId: number, screening: ScreeningInput): Promise<number> {
  const [row] = await db('screenings')
    .insert({
      personal_data_id: personalDataId,
      access_code_hash: hashAccessCode(config.accessCodeSecret, screening.accessCode),
      examined_at: screening.examinedAt,
    })
    .returning('id');
  return row.id;
}

/**
 * The smallest world the auth tests need: a patient with an account and two screenings, a
 * result-portal patient without an account, a patient who must change the password and a
 * disabled account. Every credential is returned in plain text for the test to type.
 */
export async function seedMinimal(db: Db, config: Config) {
  const patientPersonId = await insertPerson(db, {
    firstName: 'Anna',
    lastName: 'Testowa',
    birthAt: '1970-05-06',
    pesel: '70050612345',
    email: 'anna.prywatna@example.com',
    phoneNumber: '+48600100200',
  });
  const patient = {
    login: 'anna.testowa@example.com',
    password: 'Tajne!Haslo1',
    userId: await insertAccount(db, patientPersonId, { email: 'anna.testowa@example.com', password: 'Tajne!Haslo1' }),
    personalDataId: patientPersonId,
    olderScreeningId: await insertScreening(db, config, patientPersonId, { accessCode: 'Old1code', examinedAt: '2021-03-01T09:00:00Z' }),
    latestScreeningId: await insertScreening(db, config, patientPersonId, { accessCode: 'New2code', examinedAt: '2024-03-01T09:30:00Z' }),
  };

  const guestPersonId = await insertPerson(db, { firstName: 'Maria', lastName: 'Gość', birthAt: '1968-04-12' });
  const guest = {
    accessCode: 'Xk7mP2qa',
    birthAt: '1968-04-12',
    screeningId: await insertScreening(db, config, guestPersonId, { accessCode: 'Xk7mP2qa', examinedAt: '2024-05-10T08:15:00Z' }),
  };

  const mustChangePersonId = await insertPerson(db, { firstName: 'Ewa', lastName: 'Zmienna', birthAt: '1975-01-02' });
  const mustChange = {
    login: 'ewa.zmienna@example.com',
    password: 'Zmien!Haslo1',
    userId: await insertAccount(db, mustChangePersonId, {
      email: 'ewa.zmienna@example.com',
      password: 'Zmien!Haslo1',
      requirePasswordChange: true,
    }),
    screeningId: await insertScreening(db, config, mustChangePersonId, { accessCode: 'Ewa3code', examinedAt: '2023-06-01T10:00:00Z' }),
  };

  const disabledPersonId = await insertPerson(db, { firstName: 'Zofia', lastName: 'Wyłączona', birthAt: '1960-07-08' });
  const disabled = {
    login: 'zofia.wylaczona@example.com',
    password: 'Stare!Haslo1',
    userId: await insertAccount(db, disabledPersonId, { email: 'zofia.wylaczona@example.com', password: 'Stare!Haslo1', disabled: true }),
  };

  return { patient, guest, mustChange, disabled };
}

export type MinimalSeed = Awaited<ReturnType<typeof seedMinimal>>;
