import type { MessageKey } from '../../lib/intl';

/** Where the ISO image of screening `screeningId` is downloaded from (docs/api.md, `GET /iso`). */
export function isoDownloadUrl(screeningId: number): string {
  return `/api/iso?id=${screeningId}`;
}

export type IsoDownloadCheck = { ok: true } | { ok: false; message: MessageKey; imageGone: boolean };

/**
 * Asks for the first byte of the image before the browser is sent to download it: a failure then
 * gets the page's own message (spec section 8) instead of a broken download in the browser's list.
 * Only the headers are waited for and the body is dropped, so a server that ignored the range
 * would still not send the whole image (up to gigabytes) into memory.
 */
export async function checkIsoDownload(url: string): Promise<IsoDownloadCheck> {
  const controller = new AbortController();
  let response: Response;
  try {
    response = await fetch(url, { headers: { Range: 'bytes=0-0' }, credentials: 'same-origin', signal: controller.signal });
  } catch {
    return { ok: false, message: 'errors.offline', imageGone: false };
  }
  if (response.ok) {
    controller.abort();
    return { ok: true };
  }
  const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
  if (response.status === 503 && body?.detail === 'no_connection')
    return { ok: false, message: 'result.iso.noConnection', imageGone: false };
  // A 404 here means the image was removed meanwhile: the section asks for its status again.
  return { ok: false, message: 'result.iso.downloadFailed', imageGone: response.status === 404 };
}

/** Hands the download to the browser, which streams the image to disk under the server's name. */
export function startIsoDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}
