import { AUDIT_TYPES, type AuditFilterGroup, type AuditItem, type AuditType } from '@common/audit';
import type { MessageKey, Translate } from '../../lib/intl';

/** One catalog key per audit type, written out so the catalog test can find every one. */
const AUDIT_TYPE_KEYS: Readonly<Record<AuditType, MessageKey>> = {
  RESULT: 'audit.type.RESULT',
  RESULT_UNAUTHORIZED: 'audit.type.RESULT_UNAUTHORIZED',
  LOGIN_RESULT: 'audit.type.LOGIN_RESULT',
  LOGIN_PORTAL: 'audit.type.LOGIN_PORTAL',
  LOGIN_PORTAL_UNAUTHORIZED: 'audit.type.LOGIN_PORTAL_UNAUTHORIZED',
  ISO_GENERATE: 'audit.type.ISO_GENERATE',
  ISO_UNAUTHORIZED: 'audit.type.ISO_UNAUTHORIZED',
  ISO_GENERATE_UNAUTHORIZED: 'audit.type.ISO_GENERATE_UNAUTHORIZED',
  SCREENING: 'audit.type.SCREENING',
  SCREENING_UNAUTHORIZED: 'audit.type.SCREENING_UNAUTHORIZED',
  REFFERENCE: 'audit.type.REFFERENCE',
  REFFERENCE_UNAUTHORIZED: 'audit.type.REFFERENCE_UNAUTHORIZED',
  USER_PASSWORD_CHANGE: 'audit.type.USER_PASSWORD_CHANGE',
  USER_PASSWORD_CHANGE_UNAUTHORIZED: 'audit.type.USER_PASSWORD_CHANGE_UNAUTHORIZED',
  DICOM_UPLOAD: 'audit.type.DICOM_UPLOAD',
  ORDER: 'audit.type.ORDER',
  ORDER_UNAUTHORIZED: 'audit.type.ORDER_UNAUTHORIZED',
  ORDER_CANCEL: 'audit.type.ORDER_CANCEL',
  PAYMENT: 'audit.type.PAYMENT',
  PAYMENT_COMPLETED: 'audit.type.PAYMENT_COMPLETED',
  PAYMENT_CANCELED: 'audit.type.PAYMENT_CANCELED',
};

/** Labels of the filter groups (spec section 9). */
export const AUDIT_GROUP_KEYS: Readonly<Record<AuditFilterGroup, MessageKey>> = {
  SCREENING: 'audit.group.SCREENING',
  RESULT: 'audit.group.RESULT',
  REFFERENCE: 'audit.group.REFFERENCE',
  ISO: 'audit.group.ISO',
  ISO_GENERATE: 'audit.group.ISO_GENERATE',
  LOGIN_RESULT: 'audit.group.LOGIN_RESULT',
  LOGIN_PORTAL: 'audit.group.LOGIN_PORTAL',
  ORDER: 'audit.group.ORDER',
};

/** A type the server added after this client was built still gets a readable name. */
export function auditTypeKey(type: string): MessageKey {
  return AUDIT_TYPE_KEYS[type as AuditType] ?? 'audit.type.unknown';
}

/** The description column (spec section 2, audit page): the type's name, and the IP when there is one. */
export function describeAuditEntry(t: Translate, entry: Pick<AuditItem, 'type' | 'ip'>): string {
  const typeName = t(auditTypeKey(entry.type));
  return entry.ip ? t('audit.entry.description', { type: typeName, ip: entry.ip }) : typeName;
}

/** What the description column shows for a type, around the IP an entry may have. */
export type AuditDescriptionTexts = { type: AuditType; withoutIp: string; beforeIp: string; afterIp: string };

/** Stands for the address while the message is formatted: no translation holds it. */
const IP_PLACEHOLDER = '\u0000';

/** Each type's description texts in the current language, for the description filter. */
export function auditDescriptionTexts(t: Translate): AuditDescriptionTexts[] {
  return AUDIT_TYPES.map((type) => {
    const [beforeIp = '', afterIp = ''] = describeAuditEntry(t, { type, ip: IP_PLACEHOLDER }).split(IP_PLACEHOLDER);
    return { type, withoutIp: describeAuditEntry(t, { type, ip: null }), beforeIp, afterIp };
  });
}
