/**
 * A streaming reader of multipart bodies (the RFC 2046 framing): `multipart/related` (RFC 2387),
 * as STOW-RS sends DICOM instances (PS3.18 10.5), and `multipart/form-data` (RFC 7578), as a
 * browser sends a patient's files. It is fed the body chunk by chunk and answers what it found in
 * each, so the caller can write a part's bytes to disk as they arrive and never holds a whole part.
 * The bytes of a `data` event are slices of the chunks fed in, not copies.
 */

export type PartEvent = { kind: 'part'; headers: Map<string, string> } | { kind: 'data'; bytes: Buffer } | { kind: 'partEnd' };

export class MultipartError extends Error {}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_PREAMBLE_BYTES = 64 * 1024;

type State = 'preamble' | 'boundaryLine' | 'headers' | 'body' | 'epilogue';

export class MultipartParser {
  /** `CRLF--boundary`: what ends a part's body and starts the next boundary line. */
  private readonly delimiter: Buffer;
  // The body may start with the first boundary line itself (no CRLF before it): a virtual CRLF
  // in front of the body lets one search find the first delimiter and every later one.
  private pending: Buffer = CRLF;
  private state: State = 'preamble';
  private skippedPreamble = 0;

  /**
   * RFC 2046 allows 70 characters, but Orthanc's DICOMweb client sends 73 (two UUIDs joined by a
   * dash): a PACS's boundary is taken up to 200.
   */
  static isBoundary(boundary: string): boolean {
    return /^[ -~]{1,200}$/.test(boundary) && !boundary.endsWith(' ');
  }

  constructor(boundary: string) {
    if (!MultipartParser.isBoundary(boundary)) throw new MultipartError('Invalid boundary');
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  get finished(): boolean {
    return this.state === 'epilogue';
  }

  /** The events the chunk completes, in order; the bytes of a `data` event are the caller's to keep. */
  write(chunk: Buffer): PartEvent[] {
    if (this.state === 'epilogue') return [];
    const events: PartEvent[] = [];
    this.pending = this.pending.length === 0 ? chunk : this.joinHeldBytes(chunk, events);
    for (;;) {
      const progressed = this.step(events);
      if (!progressed || this.finished) break;
    }
    if (this.finished) this.pending = Buffer.alloc(0);
    return events;
  }

  /**
   * Inside a part's body the bytes held back are fewer than a delimiter's: whether they start one is
   * decided against the chunk's first bytes alone, so the chunk itself is not copied. (A copy of
   * every chunk cost an upload about a third of its CPU time, most of it in garbage collection.)
   * Only a delimiter that straddles the two, or a chunk shorter than a delimiter, joins them.
   */
  private joinHeldBytes(chunk: Buffer, events: PartEvent[]): Buffer {
    const held = this.pending;
    if (this.state !== 'body' || chunk.length < this.delimiter.length) return Buffer.concat([held, chunk]);
    const start = Buffer.concat([held, chunk.subarray(0, this.delimiter.length - 1)]);
    const at = start.indexOf(this.delimiter);
    if (at !== -1 && at < held.length) return Buffer.concat([held, chunk]);
    events.push({ kind: 'data', bytes: held });
    return chunk;
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
    // UTF-8: browsers send a file's name in its raw UTF-8 bytes (the HTML standard's form encoding).
    const headers = parseHeaderBlock(this.pending.subarray(CRLF.length, end).toString('utf8'));
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
    this.pending = this.pending.subarray(at + this.delimiter.length);
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

const TOKEN = "[!#$%&'*+.^`|~\\w-]+";
const MEDIA_TYPE_START = new RegExp(`^\\s*(${TOKEN}/${TOKEN})\\s*`);
const DISPOSITION_START = new RegExp(`^\\s*(${TOKEN})\\s*`);
/** `; name=token` or `; name="quoted"`: sticky, each parameter read where the last one ended. */
const parameterWith = (quoted: string) => new RegExp(`;\\s*(${TOKEN})\\s*=\\s*(?:${quoted}|([^;\\s]*))\\s*`, 'y');
const ESCAPED_PARAMETER = parameterWith('"((?:[^"\\\\]|\\\\.)*)"');
const RAW_PARAMETER = parameterWith('"([^"]*)"');

/** `type/subtype; name=value; name="quoted value"`, names and the type in lower case. */
export function parseMediaType(value: string): MediaType | undefined {
  return parseHeaderValue(value, MEDIA_TYPE_START, ESCAPED_PARAMETER);
}

/**
 * `form-data; name="dicoms"; filename="folder/IM0001"` (RFC 7578 4.2), read like a media type,
 * except that a backslash is itself: browsers send names raw, escaping only `"`, CR and LF (as
 * %22, %0D, %0A), so `..\scan.dcm` is a name with a backslash, not an escape.
 */
export function parseContentDisposition(value: string): MediaType | undefined {
  return parseHeaderValue(value, DISPOSITION_START, RAW_PARAMETER);
}

function parseHeaderValue(value: string, start: RegExp, parameter: RegExp): MediaType | undefined {
  const match = start.exec(value);
  if (!match) return undefined;
  const parameters = new Map<string, string>();
  let position = match[0].length;
  while (position < value.length) {
    parameter.lastIndex = position;
    const found = parameter.exec(value);
    if (!found) {
      if (/^[;\s]*$/.test(value.slice(position))) break;
      return undefined;
    }
    const quoted = parameter === ESCAPED_PARAMETER ? found[2]?.replace(/\\(.)/g, '$1') : found[2];
    parameters.set(found[1]!.toLowerCase(), quoted ?? found[3]!);
    position = parameter.lastIndex;
  }
  return { type: match[1]!.toLowerCase(), parameters };
}
