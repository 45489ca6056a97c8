/**
 * DICOM upload (`POST /api/dicom`, `GET /api/dicom`; docs/api.md "DICOM upload"). Shared by the
 * server and the client. DECISIONS.md 15: a file is kept only with `DICM` at bytes 128-131.
 */

/** Byte offset and text of the DICOM marker (spec section 9). */
export const DICOM_MARKER_OFFSET = 128;
export const DICOM_MARKER = 'DICM';

/** Why one file of an upload was not stored. */
export type UploadRefusalReason =
  | 'not_dicom' // no DICM marker at 128-131
  | 'dicomdir' // a DICOMDIR (media directory), not an image
  | 'not_image' // a DICOM object that is not a storable image (no pixel data)
  | 'unreadable' // the marker is there but the header cannot be parsed (truncated, missing UIDs)
  | 'bad_name'; // its name holds a control character, so it cannot be shown or stored under it

/**
 * `POST /api/dicom` (multipart, repeated field `dicoms`) answers 200 with this for every request
 * it accepted, even when some files were refused: each file is counted exactly once.
 */
export type UploadOutcome = {
  stored: number;
  duplicates: number;
  refused: { name: string; reason: UploadRefusalReason }[];
};

/** Error codes of a refused upload request as a whole (nothing of it is kept). */
export type UploadErrorCode =
  | 'UPLOAD_FILE_TOO_LARGE' // 413: one file is over the per-file limit (the client skips such files before sending)
  | 'UPLOAD_TOO_MANY_FILES' // 413: more files in one request than the server accepts
  | 'UPLOAD_QUOTA_EXCEEDED' // 413: the patient's stored images would pass the quota
  | 'UPLOAD_NO_FILES' // 400: no file in the field `dicoms`
  | 'UPLOAD_BAD_REQUEST' // 400: not multipart, or a field other than `dicoms`, or a malformed resumable (tus) request
  | 'UPLOAD_INCOMPLETE' // 409: a resumable upload's outcome asked for before its last byte arrived
  | 'UPLOAD_OFFSET_CONFLICT' // 409: a resumable PATCH whose Upload-Offset is not the stored offset (ask HEAD, resume there)
  | 'UPLOAD_BUSY'; // 423: another request of the same resumable upload holds it (retry shortly)

/**
 * Resumable uploads (tus 1.0.0 at `/api/dicom/uploads`; docs/api.md "Resumable DICOM upload"):
 * what became of one file, in the `Upload-Outcome` header of the request that delivered its last
 * byte and in `GET /api/dicom/uploads/<id>/outcome`.
 */
export type ResumableUploadOutcome = { outcome: 'stored' | 'duplicate' } | { outcome: 'refused'; reason: UploadRefusalReason };

/** `POST /api/dicom/uploads/known`: at most this many SOP Instance UIDs per request. */
export const MAX_KNOWN_UIDS_PER_REQUEST = 1000;
export type KnownInstancesRequest = { sopInstanceUids: string[] };
export type KnownInstancesResponse = { known: string[] };

/** Limits the client needs to form batches: `GET /api/dicom/limits`. */
export type UploadLimits = {
  maxFileBytes: number;
  maxFilesPerRequest: number;
  maxRequestBytes: number;
  quotaBytes: number;
  /** What she uploaded and was stored. */
  usedBytes: number;
  /** What her unfinished resumable uploads declared: held against the quota until they finish, are cancelled or expire. */
  reservedBytes: number;
  /** When the last of those reservations lapses (ISO 8601); null when she has none. */
  reservedUntil: string | null;
};

/** One uploaded study of the patient, for the list on the upload page: `GET /api/dicom`. */
export type UploadedStudy = {
  studyInstanceUid: string;
  studyDate: string | null; // YYYY-MM-DD from the header
  modalities: string[];
  instances: number;
  sizeBytes: number;
  /** when the last image of the study was uploaded, ISO 8601 UTC */
  lastUploadedAt: string;
};
export type UploadedStudiesResponse = { studies: UploadedStudy[] };
