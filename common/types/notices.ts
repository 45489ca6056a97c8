/** `GET /api/user/notices` and `PATCH /api/user/notices` (docs/api.md): the patient's notice choices. */
export type NoticePreferences = {
  /** Whether she is told by e-mail/SMS that a screening's result is ready (never the result itself). */
  resultNotices: boolean;
};
