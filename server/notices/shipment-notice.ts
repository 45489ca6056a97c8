import type { Config } from '../config';
import type { Mailer } from '../lib/mail';
import type { SmsSender } from '../lib/sms';
import {
  shipmentNoticeMail,
  shipmentNoticeSms,
  type NoticeLanguage,
  type NoticeShipmentStatus,
  type ShipmentNoticeFacts,
} from './shipment-notice-messages';

export type ShipmentNoticeDeps = { config: Pick<Config, 'provider'>; mailer: Mailer; sms: SmsSender };

export type ShipmentNotice = ShipmentNoticeFacts & {
  language: NoticeLanguage;
  /** Her account's e-mail. */
  email: string;
  /** Her phone, when the provider gave one: the notice goes as a text too. */
  phoneNumber: string | null;
};

export type { NoticeShipmentStatus };

/**
 * Tells the patient that her copy order's shipment changed (DECISIONS.md 18), in the order's
 * language, through the outbox (mail, and SMS when her phone is known). The caller decides that
 * the status really changed; this sends once per call.
 */
export async function sendShipmentNotice(deps: ShipmentNoticeDeps, notice: ShipmentNotice): Promise<void> {
  const { language, email, phoneNumber, ...facts } = notice;
  await deps.mailer.send({ to: email, ...shipmentNoticeMail(language, facts, deps.config.provider.legalName) });
  if (phoneNumber) await deps.sms.send({ to: phoneNumber, text: shipmentNoticeSms(language, facts) });
}
