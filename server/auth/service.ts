import type { PortalLogin, ResultLogin } from '../../common/validation/auth';
import type { Config } from '../config';
import type { Db } from '../db';
import { hashAccessCode } from '../lib/access-code';
import { writeAudit } from '../lib/audit';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { verifyAgainstDummy, verifyPassword } from '../lib/passwords';
import { createDeviceCookies } from './device-cookie';
import { findAccountByLogin, findScreeningByAccessCodeHash, recordLogin } from './repo';
import type { SessionPrincipal } from '../lib/principal';
import type { Throttle } from './throttle';

export type AuthDeps = { db: Db; config: Config; throttle: Throttle; clock: Clock };

/** Why a patient login was refused, as written to the owner's audit log (never what was typed). */
type PortalRefusal = 'unknown_login' | 'wrong_password' | 'account_disabled';

/** Who signed in, and the device cookie (device-cookie.ts) the browser keeps from now on. */
export type SignedIn = { principal: SessionPrincipal; deviceCookie: string };

export function createAuthService({ db, config, throttle, clock }: AuthDeps) {
  const devices = createDeviceCookies(config);

  return {
    /**
     * Result portal: access code and birth date open one screening (spec section 5).
     * `deviceCookie` is the browser's, if any.
     */
    async loginWithAccessCode(input: ResultLogin, ip: string | undefined, deviceCookie: string | undefined): Promise<SignedIn> {
      const subject = { kind: 'result', accessCode: input.accessCode } as const;
      const buckets = throttle.forResultLogin(ip ?? 'unknown', input.birthAt, devices.trustedNonce(deviceCookie, subject));
      const { screening, genuine } = await throttle.verify(buckets, async () => {
        const found = await findScreeningByAccessCodeHash(db, hashAccessCode(config.accessCodeSecret, input.accessCode));
        return { genuine: found !== undefined && found.birthAt === input.birthAt, screening: found };
      });
      if (!screening || !genuine) throw new AppError(401, 'INVALID_ACCESS_CODE');

      await writeAudit(db, { type: 'LOGIN_RESULT', ip, screeningId: screening.id });
      return { principal: { kind: 'guest', screeningId: screening.id }, deviceCookie: devices.renewed(deviceCookie, subject) };
    },

    /** Patient portal: login (email) and the SHA-256 hex the browser made of the password. */
    async loginWithPassword(input: PortalLogin, ip: string | undefined, deviceCookie: string | undefined): Promise<SignedIn> {
      const subject = { kind: 'portal', login: input.login } as const;
      const buckets = throttle.forPortalLogin(ip ?? 'unknown', input.login, devices.trustedNonce(deviceCookie, subject));
      const { account, genuine } = await throttle.verify(buckets, async () => {
        const found = await findAccountByLogin(db, input.login);
        // The dummy check costs what a real one does, so the answer time does not reveal accounts.
        const passwordMatches = found ? await verifyPassword(found.passwordHash, input.password) : await verifyAgainstDummy(input.password);
        // A disabled account with the right password counts as genuine: the attempt was no guess.
        return { genuine: found !== undefined && passwordMatches, account: found };
      });

      if (!account || !genuine) {
        await refuse(account ? 'wrong_password' : 'unknown_login', ip, account?.id);
        throw new AppError(401, 'LOGIN_FAILED');
      }
      // Told only to whoever knows the password, so it reveals nothing to a guesser.
      if (account.disabled) {
        await refuse('account_disabled', ip, account.id);
        throw new AppError(403, 'ACCOUNT_DISABLED');
      }

      await recordLogin(db, account.id, new Date(clock()));
      await writeAudit(db, { type: 'LOGIN_PORTAL', ip, userId: account.id });
      return {
        principal: { kind: 'patient', userId: account.id, requirePasswordChange: account.requirePasswordChange },
        deviceCookie: devices.renewed(deviceCookie, subject),
      };
    },
  };

  function refuse(reason: PortalRefusal, ip: string | undefined, userId: number | undefined): Promise<void> {
    return writeAudit(db, { type: 'LOGIN_PORTAL_UNAUTHORIZED', ip, userId, description: reason });
  }
}
