import type { Db } from '../db';

/**
 * Deletes every stored session of the patient except `keepSessionId` (the one making the change,
 * if any), so a thief holding an old session loses it when the password changes. `userId` sits
 * at the top of the session JSON (session.ts) where `session_user_idx` finds it.
 */
export async function endSessionsOfUser(db: Db, userId: number, keepSessionId?: string): Promise<number> {
  const query = db('session').whereRaw(`sess ->> 'userId' = ?`, [String(userId)]);
  if (keepSessionId) query.whereNot('sid', keepSessionId);
  return query.delete();
}
