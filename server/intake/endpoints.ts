import { z } from 'zod';
import { defineEndpoint, type ProviderEndpoint } from '../provider/endpoint';
import {
  createdScreeningAnswer,
  documentAnswer,
  documentQuery,
  externalId,
  patientAnswer,
  patientBody,
  resultBody,
  screeningAnswer,
  screeningBody,
} from './schemas';
import { createIntakeService, type IntakeDeps } from './service';

const PATIENTS = 'Patients';
const SCREENINGS = 'Screenings';
const DOCUMENTS = 'Documents';

/** 20 MB: a scanned description of a few pages is far below it. */
const MAX_PDF_BYTES = 20 * 1024 * 1024;

const patientParams = z.object({ externalId: externalId.describe('Your id of the patient (1 to 64 characters).') });
const screeningParams = z.object({ externalId: externalId.describe('Your id of the screening (1 to 64 characters).') });
const documentParams = screeningParams.extend({
  documentExternalId: externalId.describe('Your id of the document (1 to 64 characters).'),
});

const conflictSchema = z.object({
  code: z.literal('CONFLICT'),
  field: z.string().describe('The input that clashes with another object.'),
  message: z.string(),
});

/** The provider API's intake calls: what the RIS sends about patients, screenings, results and documents. */
export function intakeEndpoints(deps: IntakeDeps): ProviderEndpoint[] {
  const intake = createIntakeService(deps);
  return [
    defineEndpoint({
      method: 'put',
      path: '/patients/:externalId',
      operationId: 'upsertPatient',
      summary: 'Create or update a patient by your own id',
      description:
        'Idempotent: the same body again answers the same patient (200) and changes nothing. A PESEL must have a right ' +
        'check digit and encode birthAt.',
      tag: PATIENTS,
      scope: 'patients:write',
      request: { params: patientParams, body: patientBody },
      responses: {
        200: { description: 'Updated (or already so).', schema: patientAnswer },
        201: { description: 'Created.', schema: patientAnswer },
        409: { description: 'Another patient has this PESEL (CONFLICT).', schema: conflictSchema },
      },
      async handle({ params, body }) {
        const { created, patient } = await intake.upsertPatient(params.externalId, body);
        return { status: created ? 201 : 200, body: patient, object: { type: 'patient', id: patient.id } };
      },
    }),

    defineEndpoint({
      method: 'get',
      path: '/patients/:externalId',
      operationId: 'getPatient',
      summary: 'Read a patient back by your own id',
      tag: PATIENTS,
      scope: 'patients:write',
      request: { params: patientParams },
      responses: { 200: { description: 'The patient.', schema: patientAnswer } },
      async handle({ params }) {
        const patient = await intake.getPatient(params.externalId);
        return { status: 200, body: patient, object: { type: 'patient', id: patient.id } };
      },
    }),

    defineEndpoint({
      method: 'put',
      path: '/screenings/:externalId',
      operationId: 'upsertScreening',
      summary: 'Create or update a screening by your own id',
      description:
        'Creating a screening without `accessCode` generates one (8 letters and digits, case sensitive) and returns it in ' +
        'the 201 answer only: the portal keeps a keyed hash, never the code, so it cannot be shown again. Print it on the ' +
        "patient's slip. The same id again is an update (200), never a second screening, and its answer has no code: to " +
        'get the first answer, with the code, replayed after a lost answer, send the create with an `Idempotency-Key` and ' +
        'retry with the same key. An update keeps the code unless you send a new `accessCode`.',
      tag: SCREENINGS,
      scope: 'screenings:write',
      idempotent: true,
      request: { params: screeningParams, body: screeningBody },
      responses: {
        200: { description: 'Updated (or already so); no access code.', schema: screeningAnswer },
        201: { description: 'Created; `accessCode` when the portal generated it.', schema: createdScreeningAnswer },
        409: {
          description:
            'The accession number or access code belongs to another screening (CONFLICT, `field` names it); or a call with ' +
            'this Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_PROGRESS).',
        },
        422: {
          description:
            'patientExternalId names no patient (VALIDATION with an issue on patientExternalId: PUT the patient first); or ' +
            'the Idempotency-Key was used with another request (IDEMPOTENCY_KEY_REUSED).',
        },
      },
      async handle({ params, body }) {
        const { created, screening, accessCode } = await intake.upsertScreening(params.externalId, body);
        return {
          status: created ? 201 : 200,
          body: created && accessCode ? { ...screening, accessCode } : screening,
          object: { type: 'screening', id: screening.id },
        };
      },
    }),

    defineEndpoint({
      method: 'get',
      path: '/screenings/:externalId',
      operationId: 'getScreening',
      summary: 'Read a screening back by your own id',
      description: 'With its result and documents; never its access code.',
      tag: SCREENINGS,
      scope: 'screenings:write',
      request: { params: screeningParams },
      responses: { 200: { description: 'The screening.', schema: screeningAnswer } },
      async handle({ params }) {
        const screening = await intake.getScreening(params.externalId);
        return { status: 200, body: screening, object: { type: 'screening', id: screening.id } };
      },
    }),

    defineEndpoint({
      method: 'put',
      path: '/screenings/:externalId/result',
      operationId: 'setScreeningResult',
      summary: "Set a screening's result and descriptions status",
      description:
        "The result (BI-RADS and signing time) is the screening's first description's. When descriptionsStatus becomes " +
        'completed the patient can read her result and is sent the "result ready" notice, once: retrying changes nothing.',
      tag: SCREENINGS,
      scope: 'screenings:write',
      request: { params: screeningParams, body: resultBody },
      responses: { 200: { description: 'The screening with its result.', schema: screeningAnswer } },
      async handle({ params, body }) {
        const screening = await intake.setResult(params.externalId, body);
        return { status: 200, body: screening, object: { type: 'screening', id: screening.id } };
      },
    }),

    defineEndpoint({
      method: 'put',
      path: '/screenings/:externalId/documents/:documentExternalId',
      operationId: 'putScreeningDocument',
      summary: "Store a screening's PDF by your own document id",
      description:
        'A description (in pl, en or de), the referral or the facilities list that comes with it; one of each per ' +
        'screening (and language). The same document id again replaces the bytes; the same bytes change nothing (200).',
      tag: DOCUMENTS,
      scope: 'documents:write',
      request: { params: documentParams, query: documentQuery },
      binaryBody: { mediaType: 'application/pdf', maxBytes: MAX_PDF_BYTES, description: 'The PDF, at most 20 MB.' },
      responses: {
        200: { description: 'Replaced, or unchanged when the bytes were the same.', schema: documentAnswer },
        201: { description: 'Stored.', schema: documentAnswer },
        409: {
          description:
            'The document id belongs to another screening, or the screening has this kind (and language) of document ' +
            'under another id (CONFLICT).',
          schema: conflictSchema,
        },
        413: { description: 'The PDF is larger than 20 MB (PAYLOAD_TOO_LARGE).' },
        422: { description: 'The body is not a PDF (NOT_A_PDF).' },
      },
      async handle({ params, query, body }) {
        const { created, document } = await intake.putDocument(params.externalId, params.documentExternalId, query, body);
        return { status: created ? 201 : 200, body: document, object: { type: 'document', id: document.id } };
      },
    }),
  ];
}
