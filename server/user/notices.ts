import { z } from 'zod';
import type { NoticePreferences } from '../../common/types/notices';
import type { Db } from '../db';
import { notFound } from '../lib/errors';

/** `PATCH /api/user/notices`: the one choice there is. */
export const noticePreferencesSchema = z.object({ resultNotices: z.boolean({ error: 'errors.generic' }) });

/** The signed-in patient's notice choices; a disabled or missing account reads as not found. */
export function createNoticePreferencesService({ db }: { db: Db }) {
  return {
    async read(userId: number): Promise<NoticePreferences> {
      const row = await db('users')
        .where({ id: userId })
        .whereNull('disabled_at')
        .first<{ result_notices: boolean } | undefined>('result_notices');
      if (!row) throw notFound();
      return { resultNotices: row.result_notices };
    },

    async update(userId: number, preferences: NoticePreferences): Promise<NoticePreferences> {
      const [row] = await db('users')
        .where({ id: userId })
        .whereNull('disabled_at')
        .update({ result_notices: preferences.resultNotices })
        .returning<{ result_notices: boolean }[]>('result_notices');
      if (!row) throw notFound();
      return { resultNotices: row.result_notices };
    },
  };
}
