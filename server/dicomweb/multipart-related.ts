/**
 * A streaming reader of `multipart/related` bodies (RFC 2387, with the RFC 2046 framing), as
 * STOW-RS sends DICOM instances (PS3.18 10.5). Busboy reads only multipart/form-data, so this one
 * is the project's own: it is fed the body chunk by chunk and answers what it found in each, so
 * the caller can write a part's bytes to disk as they arrive and never holds a whole part.
 */

export type PartEvent = { kind: 'part'; headers: Map<string, string> } | { kind: 'data'; bytes: Buffer } | { kind: 'partEnd' };

export class MultipartError extends Error {}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_PREAMBLE_BYTES = 64 * 1024;

type State = 'preamble' | 'boundaryLine' | 'headers' | 'body' | 'epilogue';

export class MultipartRelatedParser {
  /** `CRLF--boundary`: what ends a part's body and starts the next boundary line. */
  private readonly delimiter: Buffer;
  // The body may start with the first boundary line itself (no CRLF before it): a virtual CRLF
  // in front of the body lets one search find the first delimiter and every later one.
  private pending: Buffer = CRLF;
  private state: State = 'preamble';
  private skippedPreamble = 0;

  constructor(boundary: string) {
    // RFC 2046 allows 70 characters, but Orthanc's DICOMweb client sends 73 (two UUIDs joined by
    // a dash): a PACS's boundary is taken up to 200.
    if (!/^[ -~]{1,200}$/.test(boundary) || boundary.endsWith(' ')) throw new MultipartError('Invalid boundary');
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  get finished(): boolean {
    return this.state === 'epilogue';
  }

  /** The events the chunk completes, in order; the bytes of a `data` event are the caller's to keep. */
  write(chunk: Buffer): PartEvent[] {
    if (this.state === 'epilogue') return [];
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const events: PartEvent[] = [];
    for (;;) {
      const progressed = this.step(events);
      if (!progressed || this.finished) break;
    }
    if (this.finished) this.pending = Buffer.alloc(0);
    return events;
  }

  /** The body ended: anything but a completed final boundary is a cut or malformed body. */
  end(): void {
    if (this.state !== 'epilogue') throw new MultipartError('The body ended before the final boundary');
  }

  private step(events: PartEvent[]): boolean {
    switch (this.state) {
      case 'preamble':
        return this.skipPreamble();
      case 'boundaryLine':
        return this.readBoundaryLine();
      case 'headers':
        return this.readHeaders(events);
      case 'body':
        return this.readBody(events);
      default:
        return false;
    }
  }

  private skipPreamble(): boolean {
    const at = this.pending.indexOf(this.delimiter);
    if (at === -1) {
      const keep = Math.min(this.pending.length, this.delimiter.length - 1);
      this.skippedPreamble += this.pending.length - keep;
      if (this.skippedPreamble > MAX_PREAMBLE_BYTES) throw new MultipartError('No boundary found');
      this.pending = this.pending.subarray(this.pending.length - keep);
      return false;
    }
    this.pending = this.pending.subarray(at + this.delimiter.length);
    this.state = 'boundaryLine';
    return true;
  }

  /** After `--boundary`: `--` ends the body; otherwise optional transport padding, then CRLF. */
  private readBoundaryLine(): boolean {
    if (this.pending.length < 2) return false;
    if (this.pending[0] === 0x2d && this.pending[1] === 0x2d) {
      this.state = 'epilogue';
      return true;
    }
    const lineEnd = this.pending.indexOf(CRLF);
    if (lineEnd === -1) {
      if (this.pending.length > 1024) throw new MultipartError('Malformed boundary line');
      return false;
    }
    const padding = this.pending.subarray(0, lineEnd).toString('latin1');
    if (!/^[ \t]*$/.test(padding)) throw new MultipartError('Malformed boundary line');
    // The CRLF stays: an empty header block is then CRLF CRLF like any other.
    this.pending = this.pending.subarray(lineEnd);
    this.state = 'headers';
    return true;
  }

  private readHeaders(events: PartEvent[]): boolean {
    const end = this.pending.indexOf(HEADER_END);
    if (end === -1) {
      if (this.pending.length > MAX_HEADER_BYTES) throw new MultipartError('Part headers too long');
      return false;
    }
    if (end > MAX_HEADER_BYTES) throw new MultipartError('Part headers too long');
    const headers = parseHeaderBlock(this.pending.subarray(CRLF.length, end).toString('latin1'));
    this.pending = this.pending.subarray(end + HEADER_END.length);
    this.state = 'body';
    events.push({ kind: 'part', headers });
    return true;
  }

  private readBody(events: PartEvent[]): boolean {
    const at = this.pending.indexOf(this.delimiter);
    if (at === -1) {
      // The last bytes may be the start of a delimiter split across chunks: they wait.
      const safe = this.pending.length - (this.delimiter.length - 1);
      if (safe > 0) {
        events.push({ kind: 'data', bytes: this.pending.subarray(0, safe) });
        this.pending = Buffer.from(this.pending.subarray(safe));
      }
      return false;
    }
    if (at > 0) events.push({ kind: 'data', bytes: this.pending.subarray(0, at) });
    events.push({ kind: 'partEnd' });
    this.pending = Buffer.from(this.pending.subarray(at + this.delimiter.length));
    this.state = 'boundaryLine';
    return true;
  }
}

/** Header names in lower case; folded lines (obsolete but legal) joined. */
function parseHeaderBlock(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  if (block === '') return headers;
  const lines = block.split('\r\n').reduce<string[]>((joined, line) => {
    if (/^[ \t]/.test(line) && joined.length > 0) joined[joined.length - 1] += ` ${line.trim()}`;
    else joined.push(line);
    return joined;
  }, []);
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError('Malformed part header');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

export type MediaType = { type: string; parameters: Map<string, string> };

/** `type/subtype; name=value; name="quoted value"`, names and the type in lower case. */
export function parseMediaType(value: string): MediaType | undefined {
  const match = /^\s*([!#$%&'*+.^`|~\w-]+\/[!#$%&'*+.^`|~\w-]+)\s*/.exec(value);
  if (!match) return undefined;
  const parameters = new Map<string, string>();
  const parameter = /;\s*([!#$%&'*+.^`|~\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))\s*/y;
  let position = match[0].length;
  while (position < value.length) {
    parameter.lastIndex = position;
    const found = parameter.exec(value);
    if (!found) {
      if (/^[;\s]*$/.test(value.slice(position))) break;
      return undefined;
    }
    parameters.set(found[1]!.toLowerCase(), found[2] !== undefined ? found[2].replace(/\\(.)/g, '$1') : found[3]!);
    position = parameter.lastIndex;
  }
  return { type: match[1]!.toLowerCase(), parameters };
}
