/**
 * For tests: the part of XMLHttpRequest that `postFormWithProgress` (./api.ts) uses. Subclasses
 * decide how a sent request is answered; `reportSent`, `answer` and `onerror` finish it as the
 * browser would.
 */
type UploadProgress = { lengthComputable: boolean; loaded: number; total: number };

export abstract class FakeXhrBase {
  upload: { onprogress: ((event: UploadProgress) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  protected request: { method: string; url: string; headers: Record<string, string> } = { method: '', url: '', headers: {} };
  private responseHeaders = '';

  open(method: string, url: string) {
    this.request = { method, url, headers: {} };
  }
  setRequestHeader(name: string, value: string) {
    this.request.headers[name] = value;
  }
  getAllResponseHeaders() {
    return this.responseHeaders;
  }
  abort() {
    setTimeout(() => this.onabort?.());
  }
  abstract send(body: unknown): void;

  protected reportSent(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  /** `headers`: as getAllResponseHeaders gives them, one `name: value` line each. */
  protected answer(status: number, text: string, headers: string) {
    this.status = status;
    this.responseText = text;
    this.responseHeaders = headers;
    this.onload?.();
  }
}
