import type { ExtraPaths } from '../provider/openapi';

/** The DICOMweb calls in the provider API's OpenAPI document, written by hand: none is JSON. */

const ERROR = { $ref: '#/components/schemas/Error' };
const DICOM_JSON_ARRAY = { 'application/dicom+json': { schema: { type: 'array', items: { type: 'object' } } } };
const MULTIPART_DICOM = {
  'multipart/related; type="application/dicom"': {
    schema: { type: 'string', description: 'One application/dicom part per instance: the stored DICOM Part 10 files, as they are.' },
  },
};

function error(description: string) {
  return { description, content: { 'application/json': { schema: ERROR } } };
}

const COMMON = {
  401: error('No key, an unknown, revoked (API_KEY_REVOKED) or expired (API_KEY_EXPIRED) key.'),
  403: error('The key lacks the scope this call needs (API_KEY_SCOPE).'),
  429: error("Over the key's calls per minute (RATE_LIMITED); wait for `Retry-After` seconds."),
  500: error('Unexpected failure (INTERNAL); safe to retry.'),
};

function uid(name: string, description: string) {
  return { name, in: 'path', required: true, description, schema: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)*$', maxLength: 64 } };
}
const STUDY = uid('study', 'Study Instance UID (0020,000D).');
const SERIES = uid('series', 'Series Instance UID (0020,000E).');
const INSTANCE = uid('instance', 'SOP Instance UID (0008,0018).');

const PAGING = [
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: 'At most this many results (1-1000, default 100).',
    schema: { type: 'integer', minimum: 1, maximum: 1000 },
  },
  { name: 'offset', in: 'query', required: false, description: 'Skip this many results.', schema: { type: 'integer', minimum: 0 } },
];

const PATIENT_ID_MEANING =
  'PatientID (0010,0020) is your own id of the patient (the `externalId` of the patients API) or, for a patient without one, ' +
  "`portal-<id>` with the portal's id. PatientName is the portal's record of her name.";

function read(operationId: string, summary: string, description: string, parameters: object[], ok: object) {
  return {
    get: {
      operationId,
      summary,
      description,
      tags: ['DICOMweb'],
      security: [{ apiKey: ['images:read'] }],
      parameters,
      responses: {
        200: ok,
        400: error('A query parameter breaks a rule (VALIDATION, with `issues`).'),
        404: error('No such study, series or instance (NOT_FOUND).'),
        ...COMMON,
      },
    },
  };
}

const SEARCH_RESULTS = {
  description: 'The matches in the DICOM JSON model (PS3.18 F.2); an empty array when none.',
  content: DICOM_JSON_ARRAY,
};
const RETRIEVED = { description: 'The instances, streamed as multipart/related (PS3.18 10.4).', content: MULTIPART_DICOM };
const STOW_RESPONSE = {
  'application/dicom+json': {
    schema: {
      type: 'object',
      description:
        'Store Instances Response Module: 00081190 RetrieveURL (when one study was stored), 00081198 FailedSOPSequence ' +
        '(00081150, 00081155, 00081197 FailureReason) and 00081199 ReferencedSOPSequence (00081150, 00081155, 00081190).',
    },
  },
};

export const dicomwebOpenApiPaths: ExtraPaths = {
  '/dicomweb/studies': {
    post: {
      operationId: 'stowStudies',
      summary: 'STOW-RS: store DICOM instances of screenings.',
      description:
        'PS3.18 10.5. Each instance is stored with the screening whose `accessionNumber` equals its AccessionNumber (0008,0050). ' +
        'Each instance succeeds or fails alone; one the patient already has is a success (a retry stores nothing twice). ' +
        'FailureReason: 0xA700 (43008) a part over the size limit or past the number of parts; 0xA900 (43264) not an image ' +
        '(no pixel data, a DICOMDIR); 0xC000 (49152) not DICOM, truncated or unreadable, a transfer syntax claim the data ' +
        'contradicts, or no screening with its accession number; 0x0110 (272) the portal failed to store it. ' +
        'Built disc images of the patient are dropped so the next one includes the new images.',
      tags: ['DICOMweb'],
      security: [{ apiKey: ['images:write'] }],
      requestBody: {
        required: true,
        content: {
          'multipart/related; type="application/dicom"': {
            schema: { type: 'string', description: 'One application/dicom part per instance (DICOM Part 10 files).' },
          },
        },
      },
      responses: {
        200: { description: 'Every instance is stored.', content: STOW_RESPONSE },
        202: { description: 'Some instances are stored, some failed (see FailedSOPSequence).', content: STOW_RESPONSE },
        409: { description: 'No instance is stored (see FailedSOPSequence).', content: STOW_RESPONSE },
        400: error('The multipart body is malformed or cut short (VALIDATION).'),
        415: error('The body is not multipart/related; type="application/dicom" with a boundary (UNSUPPORTED_MEDIA_TYPE).'),
        ...COMMON,
      },
    },
    ...read(
      'searchStudies',
      'QIDO-RS: search for studies.',
      'PS3.18 10.6. One result per patient and study: the screening images and the studies patients uploaded themselves. ' +
        'Matching keys (by keyword or tag): PatientID, StudyInstanceUID (a list), AccessionNumber, StudyDate (YYYYMMDD or a range). ' +
        PATIENT_ID_MEANING,
      [
        { name: 'PatientID', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'StudyInstanceUID', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'AccessionNumber', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'StudyDate', in: 'query', required: false, schema: { type: 'string', pattern: '^(\\d{8})?-?(\\d{8})?$' } },
        ...PAGING,
      ],
      SEARCH_RESULTS,
    ),
  },
  '/dicomweb/studies/{study}': read(
    'retrieveStudy',
    'WADO-RS: retrieve the instances of a study.',
    'PS3.18 10.4. Every stored instance with this Study Instance UID, of every patient who has it.',
    [STUDY],
    RETRIEVED,
  ),
  '/dicomweb/studies/{study}/series': read(
    'searchSeries',
    'QIDO-RS: search for the series of a study.',
    `PS3.18 10.6. One result per patient and series. ${PATIENT_ID_MEANING}`,
    [STUDY, ...PAGING],
    SEARCH_RESULTS,
  ),
  '/dicomweb/studies/{study}/series/{series}': read(
    'retrieveSeries',
    'WADO-RS: retrieve the instances of a series.',
    'PS3.18 10.4.',
    [STUDY, SERIES],
    RETRIEVED,
  ),
  '/dicomweb/studies/{study}/series/{series}/instances': read(
    'searchInstances',
    'QIDO-RS: search for the instances of a series.',
    `PS3.18 10.6. ${PATIENT_ID_MEANING}`,
    [STUDY, SERIES, ...PAGING],
    SEARCH_RESULTS,
  ),
  '/dicomweb/studies/{study}/series/{series}/instances/{instance}': read(
    'retrieveInstance',
    'WADO-RS: retrieve one instance.',
    'PS3.18 10.4. The stored file, its preamble zeroed.',
    [STUDY, SERIES, INSTANCE],
    RETRIEVED,
  ),
  '/dicomweb/studies/{study}/series/{series}/instances/{instance}/metadata': read(
    'retrieveInstanceMetadata',
    'WADO-RS: the metadata of one instance.',
    'PS3.18 10.4.1.1.2. The header of the stored file in the DICOM JSON model; binary values (OB, OW, UN ...) are left out.',
    [STUDY, SERIES, INSTANCE],
    { description: "An array with the instance's data set.", content: DICOM_JSON_ARRAY },
  ),
};
