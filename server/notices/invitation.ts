import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { AppError, notFound } from '../lib/errors';
import type { Mailer } from '../lib/mail';
import { hashPassword } from '../lib/passwords';
import type { SmsSender } from '../lib/sms';
import { issuePasswordLink } from '../password-reset/service';
import { invitationMail, invitationSms } from './invitation-messages';
import { createInvitedAccount, findPatientByExternalId, loginTaken } from './invitation-repo';
import type { NoticeLanguage } from './result-ready-repo';

/** An invitation link sets the first password; the patient may open the mail days later. */
export const INVITATION_LIFETIME_DAYS = 7;
const INVITATION_LIFETIME_MS = INVITATION_LIFETIME_DAYS * 24 * 60 * 60_000;

export type InvitationDeps = {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'provider'>;
  clock: Clock;
  mailer: Mailer;
  sms: SmsSender;
};

export type InvitationRequest = { channel: 'email' | 'sms'; language: NoticeLanguage };
export type SentInvitation = { userId: number; personalDataId: number; channel: 'email' | 'sms'; expiresAt: Date };

/** The provider's refusals of an invitation: 422 VALIDATION with an English message per field. */
function unprocessable(path: string, message: string): AppError {
  return new AppError(422, 'VALIDATION', { issues: [{ path, message }] });
}

export function createInvitationService({ db, config, clock, mailer, sms }: InvitationDeps) {
  return {
    /**
     * Invites the patient the provider knows as `externalId` to the portal: opens her account
     * when she has none (login: the e-mail the provider gave; a random password nobody knows,
     * so the account cannot be used before she sets her own), then sends a single-use link that
     * sets the password, through the page of the reset links. A new invitation makes the older
     * unused link (and any reset link) invalid.
     */
    async invite(externalId: string, request: InvitationRequest): Promise<SentInvitation> {
      const patient = await findPatientByExternalId(db, externalId);
      if (!patient) throw notFound();
      if (patient.account?.disabled) {
        throw new AppError(409, 'CONFLICT', { message: "The patient's portal account is disabled; it cannot be invited." });
      }
      if (request.channel === 'sms' && !patient.phoneNumber) {
        throw unprocessable('phoneNumber', 'The patient has no phone number: the invitation cannot be sent by SMS.');
      }

      const userId = patient.account?.id ?? (await openAccount(patient.personalDataId, patient.email));
      const login = patient.account?.email ?? patient.email!;
      const { link, expiresAt } = await issuePasswordLink(
        { db, config, clock },
        { userId, channel: request.channel, purpose: 'invitation', lifetimeMs: INVITATION_LIFETIME_MS },
      );
      const wording = { language: request.language, link, validDays: INVITATION_LIFETIME_DAYS };
      if (request.channel === 'email') {
        await mailer.send({ to: login, ...invitationMail({ ...wording, login, providerName: config.provider.legalName }) });
      } else {
        await sms.send({ to: patient.phoneNumber!, text: invitationSms(wording) });
      }
      return { userId, personalDataId: patient.personalDataId, channel: request.channel, expiresAt };
    },
  };

  async function openAccount(personalDataId: number, email: string | null): Promise<number> {
    if (!email) throw unprocessable('email', 'The patient has no email address: a portal account needs one as its login.');
    if (await loginTaken(db, email)) {
      throw new AppError(409, 'CONFLICT', { message: "Another portal account already uses the patient's email address as its login." });
    }
    // A password nobody knows (the hash of 32 random bytes, like the browser's SHA-256 hex):
    // until she follows the link, nobody can sign in to the account.
    const passwordHash = await hashPassword(randomBytes(32).toString('hex'));
    let created: number | undefined;
    try {
      created = await createInvitedAccount(db, { personalDataId, email, passwordHash, createdAt: new Date(clock()) });
    } catch (error) {
      // The login was taken between the check and the insert.
      if ((error as { code?: unknown }).code === '23505') {
        throw new AppError(409, 'CONFLICT', { message: "Another portal account already uses the patient's email address as its login." });
      }
      throw error;
    }
    if (created !== undefined) return created;
    // A concurrent invitation opened it first.
    const row = await db('users').where({ personal_data_id: personalDataId }).first<{ id: number }>('id');
    return row.id;
  }
}
