/**
 * The provider's details shown in public texts (consent clause, copies page, FAQ). Fictional demo
 * values: the server will provide the configured ones later (DECISIONS.md 8); until then this is
 * the one place to change them.
 */
export const PROVIDER = {
  legalName: 'Przykładowe Centrum Mammografii sp. z o.o. (dane fikcyjne)',
  address: 'ul. Przykładowa 1, 00-001 Warszawa',
  bankAccount: 'PL00 0000 0000 0000 0000 0000 0000',
  email: 'kontakt@example.com',
  /** As the server's PROVIDER_PHONE default: the number the result page gives for questions. */
  phone: '+48 22 000 00 00',
  dataProtectionOfficerEmail: 'iod@example.com',
  /** Fee for a copy of the medical records in PLN (spec section 9); the result itself is free. */
  copyFeePln: 21,
} as const;

/** The request form for a copy of medical records (created in public/documents by the seed). */
export const COPY_REQUEST_FORM_PATH = '/documents/wniosek-o-kopie-dokumentacji.pdf';
