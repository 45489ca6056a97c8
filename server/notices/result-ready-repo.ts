import type { Db } from '../db';

export type NoticeLanguage = 'pl' | 'en';

/**
 * Marks the screening's "result ready" notice as handled, once: only the first caller gets the
 * screening's patient back, every later one (a retried result upload, a second worker) gets
 * undefined and sends nothing.
 */
export async function claimResultNotice(db: Db, screeningId: number, at: Date): Promise<{ personalDataId: number } | undefined> {
  const [row] = await db('screenings')
    .where({ id: screeningId })
    .whereNull('result_notice_sent_at')
    .update({ result_notice_sent_at: at })
    .returning(['personal_data_id']);
  return row ? { personalDataId: Number(row.personal_data_id) } : undefined;
}

export type NoticeRecipient = {
  /** Her active portal account, if she has one (a disabled one counts as none: she reads results with her access code). */
  account: { id: number; email: string; resultNotices: boolean } | null;
  personalEmail: string | null;
  phoneNumber: string | null;
  /** The language of her latest order, the only language the portal stores for a patient. */
  lastOrderLanguage: NoticeLanguage | null;
};

/** Where a notice to this patient can go, and whether she wants it. */
export async function findNoticeRecipient(db: Db, personalDataId: number): Promise<NoticeRecipient | undefined> {
  const person = await db('personal_data')
    .where({ id: personalDataId })
    .first<{ email: string | null; phone_number: string | null } | undefined>('email', 'phone_number');
  if (!person) return undefined;
  const account = await db('users')
    .where({ personal_data_id: personalDataId })
    .whereNull('disabled_at')
    .first<{ id: number; email: string; result_notices: boolean } | undefined>('id', 'email', 'result_notices');
  const order = account
    ? await db('orders')
        .where({ user_id: account.id })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .first<{ language: string } | undefined>('language')
    : undefined;
  return {
    account: account ? { id: account.id, email: account.email, resultNotices: account.result_notices } : null,
    personalEmail: person.email,
    phoneNumber: person.phone_number,
    lastOrderLanguage: order?.language === 'en' || order?.language === 'pl' ? order.language : null,
  };
}
