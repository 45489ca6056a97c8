import type { UploadErrorCode, UploadRefusalReason } from '@common/types/upload';
import type { MessageKey } from '../../lib/intl';
import { errorMessageKey } from '../../stores/error-messages';
import type { SkipReason } from './run-types';

// Literal maps: the catalog test finds every key by scanning the source.
const UPLOAD_ERROR_KEYS: Record<UploadErrorCode, MessageKey> = {
  UPLOAD_FILE_TOO_LARGE: 'errors.UPLOAD_FILE_TOO_LARGE',
  UPLOAD_TOO_MANY_FILES: 'errors.UPLOAD_TOO_MANY_FILES',
  UPLOAD_QUOTA_EXCEEDED: 'errors.UPLOAD_QUOTA_EXCEEDED',
  UPLOAD_NO_FILES: 'errors.UPLOAD_NO_FILES',
  UPLOAD_BAD_REQUEST: 'errors.UPLOAD_BAD_REQUEST',
  UPLOAD_INCOMPLETE: 'upload.error.incomplete',
  // Both are retried (tus asks HEAD and resumes; a lock passes); these are shown only once the retries ran out.
  UPLOAD_OFFSET_CONFLICT: 'upload.error.offsetConflict',
  UPLOAD_BUSY: 'upload.error.busy',
};

/** The other codes a resumable upload meets (docs/api.md "Resumable DICOM upload"), and the client's own. */
const TRANSFER_ERROR_KEYS: Readonly<Record<string, MessageKey>> = {
  // The unfinished upload is gone from the server (removed after its expiry, or cancelled elsewhere).
  NOT_FOUND: 'upload.error.gone',
  // The session ended: a state-changing request then meets a dead token, or no session at all.
  UNAUTHENTICATED: 'upload.error.sessionEnded',
  INVALID_CSRF_TOKEN: 'upload.error.sessionEnded',
  FILE_UNREADABLE: 'upload.error.fileUnreadable',
  NETWORK: 'upload.error.network',
  PAYLOAD_TOO_LARGE: 'errors.PAYLOAD_TOO_LARGE',
};

const REFUSAL_KEYS: Record<UploadRefusalReason, MessageKey> = {
  not_dicom: 'upload.refusal.not_dicom',
  dicomdir: 'upload.refusal.dicomdir',
  not_image: 'upload.refusal.not_image',
  unreadable: 'upload.refusal.unreadable',
  bad_name: 'upload.refusal.bad_name',
};

const SKIP_KEYS: Record<SkipReason, MessageKey> = {
  alreadyStored: 'upload.skipped.alreadyStored',
  duplicate: 'upload.skipped.duplicate',
  dicomdir: 'upload.skipped.dicomdir',
  notDicom: 'upload.skipped.notDicom',
  unreadable: 'upload.skipped.unreadable',
  tooLarge: 'upload.skipped.tooLarge',
};

/** Why a file could not be sent: the upload codes, the transfer's own, else the general ones. */
export function uploadErrorKey(code: string): MessageKey {
  return UPLOAD_ERROR_KEYS[code as UploadErrorCode] ?? TRANSFER_ERROR_KEYS[code] ?? errorMessageKey(code);
}

export function refusalKey(reason: string): MessageKey {
  return REFUSAL_KEYS[reason as UploadRefusalReason] ?? 'upload.refusal.unreadable';
}

/** A count message with `{count}` (and `{max}` for tooLarge). */
export function skipKey(reason: SkipReason): MessageKey {
  return SKIP_KEYS[reason];
}
