import { Transform, type TransformCallback } from 'node:stream';

/**
 * What stands in a part header for a control character: U+FFFF, a noncharacter no file system
 * name holds, in UTF-8. busboy accepts it; the name then tells that its file cannot be named back.
 */
export const UNNAMEABLE_MARK = '\uffff';
const MARK_BYTES = Buffer.from(UNNAMEABLE_MARK, 'utf8');

const CR = 0x0d;
const LF = 0x0a;
const TAB = 0x09;
const DEL = 0x7f;
const HEADERS_END = Buffer.from('\r\n\r\n');
/** busboy refuses a part's headers over 16 KB anyway; past this the block is passed on untouched for it to refuse. */
const MAX_HEADER_BLOCK = 64 * 1024;

type State = 'body' | 'headers' | 'epilogue';

/**
 * Sits between the request and busboy. busboy refuses the whole body when a part header holds a
 * raw control character (a file named with \x01 or ESC on some systems), so one badly named file
 * sank its whole batch. This stream rewrites such bytes in the part headers only, never in file
 * contents, to UNNAMEABLE_MARK; the file then arrives and is refused alone, with its reason.
 * A CR LF pair is the header's own line end and stays; a lone CR or LF is a character of a name.
 */
export class PartHeaderSanitizer extends Transform {
  private readonly delimiter: Buffer;
  private state: State = 'body';
  /** Bytes held back: the start of a delimiter split across chunks, or a header block being read. */
  private pending: Buffer;
  /** The body starts with a virtual CR LF, so the first delimiter (no CR LF before it) matches like the others. */
  private virtualPrefix = 2;

  constructor(boundary: string) {
    super();
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    this.pending = Buffer.from('\r\n');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.advance();
    done();
  }

  override _flush(done: TransformCallback): void {
    this.forward(this.pending);
    this.pending = Buffer.alloc(0);
    done();
  }

  private advance(): void {
    for (;;) {
      if (this.state === 'epilogue') {
        this.forward(this.pending);
        this.pending = Buffer.alloc(0);
        return;
      }
      if (this.state === 'body') {
        const at = this.pending.indexOf(this.delimiter);
        if (at === -1) {
          // Keep what could be the start of a delimiter cut by the chunk's end.
          const keep = Math.min(this.pending.length, this.delimiter.length - 1);
          this.forward(this.pending.subarray(0, this.pending.length - keep));
          this.pending = this.pending.subarray(this.pending.length - keep);
          return;
        }
        const afterDelimiter = at + this.delimiter.length;
        if (this.pending.length < afterDelimiter + 2) {
          this.forward(this.pending.subarray(0, at));
          this.pending = this.pending.subarray(at);
          return; // whether it is the closing delimiter (`--`) is not known yet
        }
        const closing = this.pending[afterDelimiter] === 0x2d && this.pending[afterDelimiter + 1] === 0x2d;
        this.forward(this.pending.subarray(0, afterDelimiter));
        this.pending = this.pending.subarray(afterDelimiter);
        this.state = closing ? 'epilogue' : 'headers';
        continue;
      }
      // Headers: from the delimiter's line end to the blank line.
      const end = this.pending.indexOf(HEADERS_END);
      if (end === -1) {
        if (this.pending.length > MAX_HEADER_BLOCK) {
          this.forward(this.pending);
          this.pending = Buffer.alloc(0);
          this.state = 'epilogue'; // malformed beyond repair: busboy refuses it as before
        }
        return;
      }
      this.forward(withoutControlCharacters(this.pending.subarray(0, end)));
      this.forward(HEADERS_END);
      this.pending = this.pending.subarray(end + HEADERS_END.length);
      this.state = 'body';
    }
  }

  private forward(bytes: Buffer): void {
    if (this.virtualPrefix > 0) {
      const dropped = Math.min(this.virtualPrefix, bytes.length);
      this.virtualPrefix -= dropped;
      bytes = bytes.subarray(dropped);
    }
    if (bytes.length > 0) this.push(bytes);
  }
}

function isControl(bytes: Buffer, index: number): boolean {
  const code = bytes[index]!;
  if (code === DEL) return true;
  if (code >= 0x20 || code === TAB) return false;
  if (code === CR) return bytes[index + 1] !== LF;
  if (code === LF) return bytes[index - 1] !== CR;
  return true;
}

function withoutControlCharacters(block: Buffer): Buffer {
  let clean = true;
  for (let index = 0; index < block.length && clean; index += 1) clean = !isControl(block, index);
  if (clean) return block;
  const parts: Buffer[] = [];
  let start = 0;
  for (let index = 0; index < block.length; index += 1) {
    if (!isControl(block, index)) continue;
    parts.push(block.subarray(start, index), MARK_BYTES);
    start = index + 1;
  }
  parts.push(block.subarray(start));
  return Buffer.concat(parts);
}
