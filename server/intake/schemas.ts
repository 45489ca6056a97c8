import { z } from 'zod';
import { isValidPesel, peselBirthDate } from '../../db/seeds/pesel';
import { PROVIDER_ACCESS_CODE } from './access-code';

/**
 * The intake calls' inputs and answers. The same schemas validate each call and describe it in
 * the OpenAPI document; messages are plain English, for the provider's developers.
 */

export const externalId = z.string().min(1).max(64);

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day that exists (no 2023-02-30). Whether it is in the past is the service's check (it has the clock). */
export function isCalendarDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

const trimmedName = z.string().trim().min(1).max(100);

export const patientBody = z
  .strictObject({
    firstName: trimmedName,
    lastName: trimmedName,
    birthAt: z
      .string()
      .regex(DAY, 'Expected a date as YYYY-MM-DD.')
      .refine(isCalendarDay, 'Not a real calendar date.')
      .describe('Date of birth, YYYY-MM-DD; a real date in the past.'),
    pesel: z
      .string()
      .regex(/^\d{11}$/, 'A PESEL is 11 digits.')
      .refine(isValidPesel, 'The PESEL check digit is wrong.')
      .nullish()
      .describe('Polish national id number; its check digit must be right and its date of birth must be birthAt.'),
    email: z.email().max(254).nullish(),
    phoneNumber: z
      .string()
      .regex(/^\+\d{7,15}$/, 'Expected + and 7 to 15 digits, e.g. +48600100200.')
      .nullish(),
  })
  .superRefine((patient, context) => {
    if (
      patient.pesel &&
      isCalendarDay(patient.birthAt) &&
      isValidPesel(patient.pesel) &&
      peselBirthDate(patient.pesel) !== patient.birthAt
    ) {
      context.addIssue({ code: 'custom', path: ['pesel'], message: 'The PESEL encodes another date of birth than birthAt.' });
    }
  })
  .describe('A PUT replaces the patient: an optional field left out is cleared.');
export type PatientInput = z.output<typeof patientBody>;

export const patientAnswer = z.object({
  id: z.number().int().describe("The portal's patient id."),
  externalId: z.string().describe('Your id of the patient.'),
  firstName: z.string(),
  lastName: z.string(),
  birthAt: z.string().describe('YYYY-MM-DD.'),
  pesel: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
});
export type PatientAnswer = z.output<typeof patientAnswer>;

export const screeningBody = z
  .strictObject({
    patientExternalId: externalId.describe('Your id of the patient, stored before with PUT /patients/{externalId}.'),
    examinedAt: z.iso.datetime({ offset: true, message: 'Expected an ISO 8601 date-time, e.g. 2026-11-20T09:30:00+01:00.' }),
    absorbedDoseMgy: z.number().min(0).max(999.999).nullish().describe('Absorbed dose in mGy, up to 3 decimals.'),
    facility: z.string().trim().min(1).max(200).nullish().describe('Where the screening was made (a mammobus, a clinic).'),
    accessionNumber: z
      .string()
      .min(1)
      .max(16)
      .nullish()
      .describe("The DICOM accession number (0008,0050): DICOMweb STOW-RS files the screening's images by it."),
    accessCode: z
      .string()
      .regex(PROVIDER_ACCESS_CODE, 'An access code is exactly 8 letters or digits.')
      .optional()
      .describe(
        'Your own access code (8 letters or digits, case sensitive). Left out: a new screening gets a generated one, an update keeps its code.',
      ),
  })
  .describe('A PUT replaces the screening: an optional field left out is cleared (except accessCode, which is kept).');
export type ScreeningInput = z.output<typeof screeningBody>;

const DESCRIPTIONS_STATUSES = ['in_progress', 'completed'] as const;

const BIRADS = [-1, 1, 2, 3, 4, 5] as const;

export const resultBody = z
  .strictObject({
    descriptionsStatus: z
      .enum(DESCRIPTIONS_STATUSES)
      .describe('completed shows the result to the patient and sends her the "result ready" notice once.'),
    birads: z
      .literal(BIRADS)
      .nullish()
      .describe('BI-RADS category: -1 is category 0 (additional imaging needed), 1 to 5; null or left out: no result shown.'),
    signedAt: z.iso.datetime({ offset: true }).nullish().describe('When the description was signed; null or left out: not given.'),
  })
  .describe('A PUT replaces the result: birads or signedAt left out is cleared.');
export type ResultInput = z.output<typeof resultBody>;

const DOCUMENT_KINDS = ['description', 'referral', 'facilities_list'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
const DOCUMENT_LANGUAGES = ['pl', 'en', 'de'] as const;
export type DocumentLanguage = (typeof DOCUMENT_LANGUAGES)[number];

export const documentQuery = z
  .object({
    kind: z.enum(DOCUMENT_KINDS).describe('What the PDF is.'),
    language: z.enum(DOCUMENT_LANGUAGES).default('pl').describe("A description's language; a referral and a facilities list are Polish."),
  })
  .superRefine((query, context) => {
    if (query.kind !== 'description' && query.language !== 'pl') {
      context.addIssue({ code: 'custom', path: ['language'], message: 'Only a description can be in another language than pl.' });
    }
  });

export const documentAnswer = z.object({
  id: z.string().describe("The portal's document id (a UUID)."),
  externalId: z.string().nullable().describe('Your id of the document; null for one that did not come through this API.'),
  kind: z.enum(DOCUMENT_KINDS),
  language: z.enum(DOCUMENT_LANGUAGES),
  name: z.string().describe('The file name the patient sees.'),
  sizeBytes: z.number().int(),
  sha256: z.string().describe('SHA-256 of the bytes, hex.'),
});
export type DocumentAnswer = z.output<typeof documentAnswer>;

export const screeningAnswer = z.object({
  id: z.number().int().describe("The portal's screening id."),
  externalId: z.string(),
  patientExternalId: z.string().nullable(),
  examinedAt: z.string().describe('ISO 8601 UTC.'),
  absorbedDoseMgy: z.number().nullable(),
  facility: z.string().nullable(),
  accessionNumber: z.string().nullable(),
  descriptionsStatus: z.enum(DESCRIPTIONS_STATUSES),
  birads: z.number().int().nullable().describe('The result on the first description; -1 is BI-RADS 0.'),
  signedAt: z.string().nullable().describe('ISO 8601 UTC.'),
  documents: z.array(documentAnswer),
});
export type ScreeningAnswer = z.output<typeof screeningAnswer>;

export const createdScreeningAnswer = screeningAnswer.extend({
  accessCode: z
    .string()
    .optional()
    .describe('The generated access code, in this answer only and never again: give it to the patient. Absent when you sent your own.'),
});
