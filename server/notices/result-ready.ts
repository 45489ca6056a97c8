import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import type { Mailer } from '../lib/mail';
import type { SmsSender } from '../lib/sms';
import { resultReadyMail, resultReadySms } from './result-ready-messages';
import { claimResultNotice, findNoticeRecipient, type NoticeLanguage } from './result-ready-repo';

export type ResultNoticeDeps = {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'provider'>;
  mailer: Mailer;
  sms: SmsSender;
  clock: Clock;
};

/** The portal's default language, used when nothing tells us hers. */
const DEFAULT_LANGUAGE: NoticeLanguage = 'pl';

export function createResultNotices({ db, config, mailer, sms, clock }: ResultNoticeDeps) {
  return {
    /**
     * Tells the patient her screening's result can be read in the portal: by e-mail (her login
     * if she has an account, else the address the provider gave) and by SMS when a phone number
     * is known. Sent once per screening whatever retries happen: the screening is claimed first
     * (`result_notice_sent_at`), and only the claim's winner sends. The claim comes before the
     * sending because the mailer and SMS sender store the message in the outbox (and retry it
     * from there); a failure to even store it loses this notice rather than risking two.
     * A patient who switched notices off in her profile gets nothing, but the screening is
     * marked all the same, so switching them back on later does not send an old notice.
     */
    async resultReady(screeningId: number): Promise<void> {
      const claimed = await claimResultNotice(db, screeningId, new Date(clock()));
      if (!claimed) return;
      const recipient = await findNoticeRecipient(db, claimed.personalDataId);
      if (!recipient) return;
      if (recipient.account && !recipient.account.resultNotices) return;

      // The portal stores no language for a patient (personal_data and users have none). The one
      // choice she made herself is the language of her orders, so her latest order decides;
      // without one, Polish, the portal's default and the language of the provider's patients.
      // (Sending both languages in one message would double every SMS for nearly everyone.)
      const language = recipient.lastOrderLanguage ?? DEFAULT_LANGUAGE;
      // With an account she signs in to the patient portal; without, the result portal opens
      // the screening with its access code and her birth date.
      const link = `${config.publicUrl}${recipient.account ? '/portal/login' : '/login'}`;

      const email = recipient.account?.email ?? recipient.personalEmail;
      if (email) await mailer.send({ to: email, ...resultReadyMail({ language, link, providerName: config.provider.legalName }) });
      if (recipient.phoneNumber) await sms.send({ to: recipient.phoneNumber, text: resultReadySms({ language, link }) });
    },
  };
}

export type ResultNotices = ReturnType<typeof createResultNotices>;
