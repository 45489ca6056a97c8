import { isApiError } from '../../lib/api';
import type { MessageKey } from '../../lib/intl';
import type { IsoStatus } from '@common/types/result';

/** What the ISO section shows (spec section 4, ISO image status). */
export type IsoView = 'generate' | 'accepted' | 'download' | 'hidden';

export function isoViewOf(status: IsoStatus | string): IsoView {
  switch (status) {
    case 'new':
    case 'in_progress':
      return 'accepted';
    case 'done':
      return 'download';
    case 'empty':
      return 'hidden';
    default:
      // no_request, removed, and any value this client does not know yet: offer to generate.
      return 'generate';
  }
}

export function isWaitingForIso(status: IsoStatus | string): boolean {
  return isoViewOf(status) === 'accepted';
}

/** Spec section 8, ISO generate: busy for 500 iso_generator_full_status, no connection for 503. */
export function isoGenerateErrorKey(error: unknown): MessageKey {
  // docs/api.md gives these answers the codes NO_CONNECTION and ISO_GENERATOR_BUSY.
  if (isApiError(error, 'NO_CONNECTION')) return 'result.iso.noConnection';
  if (isApiError(error, 'ISO_GENERATOR_BUSY')) return 'result.iso.busy';
  if (isApiError(error, 'NETWORK')) return 'errors.offline';
  return 'result.iso.generateFailed';
}

/** Polling interval of the ISO status while the image is being built. */
export const ISO_POLL_INTERVAL_MS = 4_000;
