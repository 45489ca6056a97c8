import type { PortalLogin, ResultLogin } from '../../common/validation/auth';
import type { Config } from '../config';
import type { Db } from '../db';
import { hashAccessCode } from '../lib/access-code';
import { writeAudit } from '../lib/audit';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { verifyAgainstDummy, verifyPassword } from '../lib/passwords';
import { findAccountByLogin, findScreeningByAccessCodeHash, recordLogin } from './repo';
import type { SessionPrincipal } from '../lib/principal';
import type { Throttle } from './throttle';

export type AuthDeps = { db: Db; config: Config; throttle: Throttle; clock: Clock };

/** Why a patient login was refused, as written to the owner's audit log (never what was typed). */
type PortalRefusal = 'unknown_login' | 'wrong_password' | 'account_disabled';

export function createAuthService({ db, config, throttle, clock }: AuthDeps) {
  return {
    /** Result portal: access code and birth date open one screening (spec section 5). */
    async loginWithAccessCode(input: ResultLogin, ip: string | undefined): Promise<SessionPrincipal> {
      const buckets = throttle.forResultLogin(ip ?? 'unknown', input.birthAt);
      await throttle.admit(buckets);

      const screening = await findScreeningByAccessCodeHash(db, hashAccessCode(config.accessCodeSecret, input.accessCode));
      if (!screening || screening.birthAt !== input.birthAt) {
        throw new AppError(401, 'INVALID_ACCESS_CODE');
      }

      await throttle.recordSuccess(buckets);
      await writeAudit(db, { type: 'LOGIN_RESULT', ip, screeningId: screening.id });
      return { kind: 'guest', screeningId: screening.id };
    },

    /** Patient portal: login (email) and the SHA-256 hex the browser made of the password. */
    async loginWithPassword(input: PortalLogin, ip: string | undefined): Promise<SessionPrincipal> {
      const buckets = throttle.forPortalLogin(ip ?? 'unknown', input.login);
      await throttle.admit(buckets);

      const account = await findAccountByLogin(db, input.login);
      // The dummy check costs what a real one does, so the answer time does not reveal accounts.
      const passwordMatches = account
        ? await verifyPassword(account.passwordHash, input.password)
        : await verifyAgainstDummy(input.password);

      if (!account || !passwordMatches) {
        await refuse(account ? 'wrong_password' : 'unknown_login', ip, account?.id);
        throw new AppError(401, 'LOGIN_FAILED');
      }
      // Told only to whoever knows the password, so it reveals nothing to a guesser.
      if (account.disabled) {
        await throttle.recordSuccess(buckets);
        await refuse('account_disabled', ip, account.id);
        throw new AppError(403, 'ACCOUNT_DISABLED');
      }

      await throttle.recordSuccess(buckets);
      await recordLogin(db, account.id, new Date(clock()));
      await writeAudit(db, { type: 'LOGIN_PORTAL', ip, userId: account.id });
      return { kind: 'patient', userId: account.id, requirePasswordChange: account.requirePasswordChange };
    },
  };

  function refuse(reason: PortalRefusal, ip: string | undefined, userId: number | undefined): Promise<void> {
    return writeAudit(db, { type: 'LOGIN_PORTAL_UNAUTHORIZED', ip, userId, description: reason });
  }
}
