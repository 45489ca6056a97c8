import type { UploadErrorCode, UploadRefusalReason } from '@common/types/upload';
import type { MessageKey } from '../../lib/intl';
import { errorMessageKey } from '../../stores/error-messages';

// Literal maps: the catalog test finds every key by scanning the source.
const UPLOAD_ERROR_KEYS: Record<UploadErrorCode, MessageKey> = {
  UPLOAD_FILE_TOO_LARGE: 'errors.UPLOAD_FILE_TOO_LARGE',
  UPLOAD_TOO_MANY_FILES: 'errors.UPLOAD_TOO_MANY_FILES',
  UPLOAD_QUOTA_EXCEEDED: 'errors.UPLOAD_QUOTA_EXCEEDED',
  UPLOAD_NO_FILES: 'errors.UPLOAD_NO_FILES',
  UPLOAD_BAD_REQUEST: 'errors.UPLOAD_BAD_REQUEST',
};

const REFUSAL_KEYS: Record<UploadRefusalReason, MessageKey> = {
  not_dicom: 'upload.refusal.not_dicom',
  dicomdir: 'upload.refusal.dicomdir',
  not_image: 'upload.refusal.not_image',
  unreadable: 'upload.refusal.unreadable',
};

/** General codes an upload request can meet that the general messages do not cover. */
const REQUEST_ERROR_KEYS: Readonly<Record<string, MessageKey>> = {
  // 413 from the server's byte limit on one request (the batches are planned to stay under it).
  PAYLOAD_TOO_LARGE: 'errors.PAYLOAD_TOO_LARGE',
};

/** Why a batch failed: the upload codes of common/types/upload.ts, else the general ones. */
export function uploadErrorKey(code: string): MessageKey {
  return UPLOAD_ERROR_KEYS[code as UploadErrorCode] ?? REQUEST_ERROR_KEYS[code] ?? errorMessageKey(code);
}

export function refusalKey(reason: UploadRefusalReason): MessageKey {
  return REFUSAL_KEYS[reason] ?? 'upload.refusal.unreadable';
}
