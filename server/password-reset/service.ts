import { createHash, randomUUID } from 'node:crypto';
import type { NewPassword, ResetRequest } from '../../common/validation/password-reset';
import { isResetTokenShape } from '../../common/validation/reset-token';
import type { Throttle } from '../auth/throttle';
import { storeNewPassword } from '../auth/password-repo';
import { endSessionsOfUser } from '../auth/user-sessions-repo';
import type { Config } from '../config';
import type { Db } from '../db';
import { writeAudit } from '../lib/audit';
import type { BackgroundTasks } from '../lib/background';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import type { Mailer } from '../lib/mail';
import { hashPassword } from '../lib/passwords';
import type { SmsSender } from '../lib/sms';
import { resetMail, resetSms } from './messages';
import {
  findActiveAccountByEmail,
  findActiveAccountsByPhone,
  findResetToken,
  replaceResetToken,
  spendResetToken,
  type LinkPurpose,
  type ResetAccount,
  type StoredResetToken,
} from './repo';

/** DECISIONS.md 5: a link works for 60 minutes, once. */
const RESET_TOKEN_LIFETIME_MINUTES = 60;
const TOKEN_LIFETIME_MS = RESET_TOKEN_LIFETIME_MINUTES * 60_000;
/** Spent tokens are kept this long so an old link still reads "used" or "expired", not "invalid". */
const KEEP_SPENT_TOKENS_MS = 24 * 60 * 60_000;

export type PasswordResetDeps = {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'provider'>;
  throttle: Throttle;
  clock: Clock;
  mailer: Mailer;
  sms: SmsSender;
  background: BackgroundTasks;
};

export function createPasswordResetService({ db, config, throttle, clock, mailer, sms, background }: PasswordResetDeps) {
  return {
    /**
     * Starts a reset and returns before anything about the address is known. The request only
     * validates and counts the attempt (the same work for every address); looking the address
     * up, making the token and handing the message over happen in the background. So neither the
     * answer nor its timing tells whether an account exists (DECISIONS.md 5), and a slow SMTP
     * server cannot slow the answer down either.
     */
    async requestReset(request: ResetRequest, ip: string | undefined): Promise<void> {
      await throttle.admit(throttle.forPasswordReset(ip ?? 'unknown', addressKey(request)));
      background.run('password-reset-link', () => sendResetLinks(request));
    },

    /** Answers whether the link can still set a password; throws the token's problem. */
    async verifyToken(token: unknown): Promise<void> {
      usableOrThrow(await findResetToken(db, tokenHash(tokenFrom(token))), clock());
    },

    /**
     * Sets the password through the link: the token is checked again under a row lock, so two
     * tabs racing with one link cannot both succeed. Every session of the user ends, including
     * one this browser may hold; nobody is signed in. `readPassword` validates the form and
     * throws its problems.
     */
    async setPassword(token: unknown, readPassword: () => Promise<NewPassword>, ip: string | undefined): Promise<{ userId: number }> {
      const hash = tokenHash(tokenFrom(token));
      // The link's problem comes before the form's (with a dead link the fields do not matter),
      // and a wrong link costs no argon2 work.
      usableOrThrow(await findResetToken(db, hash), clock());
      const passwordHash = await hashPassword((await readPassword()).password);

      return db.transaction(async (trx) => {
        const now = clock();
        const stored = usableOrThrow(await findResetToken(trx, hash, { forUpdate: true }), now);
        await storeNewPassword(trx, stored.userId, passwordHash, new Date(now));
        await spendResetToken(trx, stored, new Date(now));
        await endSessionsOfUser(trx, stored.userId);
        await writeAudit(trx, { type: 'USER_PASSWORD_CHANGE', ip, userId: stored.userId, description: 'reset_link' });
        return { userId: stored.userId };
      });
    },
  };

  async function sendResetLinks(request: ResetRequest): Promise<void> {
    if (request.channel === 'email') {
      const account = await findActiveAccountByEmail(db, request.email);
      if (account) await sendResetLink(account, request);
      return;
    }
    // A phone number may be shared (a mother and daughter): each account gets its own link.
    for (const account of await findActiveAccountsByPhone(db, phoneSpellings(request.phoneNumber))) {
      await sendResetLink(account, request);
    }
  }

  async function sendResetLink(account: ResetAccount, request: ResetRequest): Promise<void> {
    const { link } = await issuePasswordLink(
      { db, config, clock },
      { userId: account.id, channel: request.channel, purpose: 'reset', lifetimeMs: TOKEN_LIFETIME_MS },
    );
    const wording = { language: request.language, link, validMinutes: RESET_TOKEN_LIFETIME_MINUTES };
    if (request.channel === 'email') {
      await mailer.send({ to: account.email, ...resetMail({ ...wording, providerName: config.provider.legalName }) });
    } else {
      await sms.send({ to: account.phoneNumber ?? request.phoneNumber, text: resetSms(wording) });
    }
  }
}

/**
 * Makes a single-use link that sets the account's password (`/change-password/<token>`, the
 * page of the reset link): a reset, or the provider's invitation to the portal, which lives
 * longer. The new token replaces the user's unused ones; only its hash is stored.
 */
export async function issuePasswordLink(
  { db, config, clock }: { db: Db; config: Pick<Config, 'publicUrl'>; clock: Clock },
  options: { userId: number; channel: ResetRequest['channel']; purpose: LinkPurpose; lifetimeMs: number },
): Promise<{ link: string; expiresAt: Date }> {
  const token = randomUUID();
  const now = clock();
  const expiresAt = new Date(now + options.lifetimeMs);
  await db.transaction((trx) =>
    replaceResetToken(
      trx,
      {
        userId: options.userId,
        tokenHash: tokenHash(token),
        channel: options.channel,
        purpose: options.purpose,
        createdAt: new Date(now),
        expiresAt,
      },
      new Date(now - KEEP_SPENT_TOKENS_MS),
    ),
  );
  return { link: `${config.publicUrl}/change-password/${token}`, expiresAt };
}

function tokenFrom(token: unknown): string {
  if (typeof token !== 'string' || token.trim() === '') throw new AppError(400, 'MISSING_TOKEN');
  if (!isResetTokenShape(token.trim())) throw new AppError(400, 'INVALID_TOKEN');
  return token.trim().toLowerCase();
}

/** Only the SHA-256 of a token is stored: a copy of the table opens no account. */
function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function usableOrThrow(stored: StoredResetToken | undefined, now: number): StoredResetToken {
  if (!stored || !stored.accountActive) throw new AppError(400, 'INVALID_TOKEN');
  if (stored.usedAt) throw new AppError(410, 'USED_TOKEN');
  if (stored.expiresAt.getTime() <= now) throw new AppError(410, 'EXPIRED_TOKEN');
  return stored;
}

/** The throttle's name for the address: one bucket however the patient spells it. */
function addressKey(request: ResetRequest): string {
  return request.channel === 'email' ? `email:${request.email.toLowerCase()}` : `phone:${phoneSpellings(request.phoneNumber)[0]}`;
}

/**
 * How a number may be stored in personal_data: Polish numbers with or without +48 (spec: +48 is
 * optional), foreign ones as typed. The first spelling is the canonical one.
 */
function phoneSpellings(phoneNumber: string): string[] {
  const national = /^(?:\+48|0048)?(\d{9})$/.exec(phoneNumber)?.[1];
  return national ? [national, `+48${national}`] : [phoneNumber];
}
