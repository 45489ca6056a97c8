import type { PasswordChange } from '../../common/validation/password';
import type { Db } from '../db';
import { writeAudit } from '../lib/audit';
import type { Clock } from '../lib/clock';
import { AppError, unauthenticated } from '../lib/errors';
import { hashPassword, verifyPassword } from '../lib/passwords';
import { findActivePasswordHash, storeNewPassword } from './password-repo';
import type { Throttle } from './throttle';

export type PasswordChangeDeps = { db: Db; throttle: Throttle; clock: Clock };

/** A signed-in patient changes her password, proving she knows the old one (spec section 5). */
export function createPasswordChangeService({ db, throttle, clock }: PasswordChangeDeps) {
  return {
    async changePassword(userId: number, input: PasswordChange, ip: string | undefined): Promise<void> {
      // Counted before the check, so a burst of guesses from a stolen session gets no extra tries.
      const buckets = throttle.forPasswordChange(userId);
      await throttle.admit(buckets);

      const currentHash = await findActivePasswordHash(db, userId);
      if (!currentHash) throw unauthenticated();
      if (!(await verifyPassword(currentHash, input.oldPassword))) {
        await writeAudit(db, { type: 'USER_PASSWORD_CHANGE_UNAUTHORIZED', ip, userId, description: 'wrong_old_password' });
        throw new AppError(403, 'INVALID_PASSWORD');
      }
      await throttle.recordSuccess(buckets);

      const newHash = await hashPassword(input.newPassword);
      await db.transaction(async (trx) => {
        await storeNewPassword(trx, userId, newHash, new Date(clock()));
        await writeAudit(trx, { type: 'USER_PASSWORD_CHANGE', ip, userId });
      });
    },

    /** A result-portal session has no password to change (DECISIONS.md 4): logged, answered 404. */
    async refuseGuest(screeningId: number, ip: string | undefined): Promise<void> {
      await writeAudit(db, { type: 'USER_PASSWORD_CHANGE_UNAUTHORIZED', ip, screeningId, description: 'no_account' });
    },
  };
}
