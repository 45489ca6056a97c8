import { open, rm, type FileHandle } from 'node:fs/promises';

/** Bytes gathered before they go to the disk in one `writev`, while the previous write runs. */
const WRITE_BATCH_BYTES = 1024 * 1024;

export type PartFileOptions = {
  /** How many of the first bytes to keep in memory as they came, for the caller to read from. */
  headBytes: number;
  /** How many of the first bytes are written as zeros instead (a DICOM file's preamble). */
  blankBytes?: number;
};

/**
 * Parts whose files are still being written and closed while a receiver reads the next parts: a
 * sender of many small files (a PACS, a folder upload) would otherwise wait for the disk at the
 * end of each one (a round trip to libuv's threads, slow on a busy machine), about as long as
 * reading the body took. Each holds at most about 2 MB until it is written: a request about 10 MB.
 */
export const PARTS_FINISHING_AT_ONCE = 4;

/** How many of a DICOM file's first bytes a receiver keeps in memory: its header, in most files. */
export const DICOM_HEAD_BYTES = 64 * 1024;

/** The first `limit` bytes of a stream, kept as they came (by reference, not copied). */
export class HeadKeeper {
  private readonly chunks: Buffer[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  keep(bytes: Buffer): void {
    if (this.length >= this.limit) return;
    const kept = bytes.subarray(0, this.limit - this.length);
    this.chunks.push(kept);
    this.length += kept.length;
  }

  get kept(): number {
    return this.length;
  }

  get head(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
  }
}

/**
 * `bytes`, which arrived at `position` of a file, as they are to be written: the part of them
 * within the file's first `blankBytes` as zeros (a DICOM file's preamble).
 */
export function withBlankStart(bytes: Buffer, position: number, blankBytes: number): Buffer[] {
  const blank = Math.max(0, Math.min(blankBytes - position, bytes.length));
  if (blank === 0) return [bytes];
  return blank < bytes.length ? [Buffer.alloc(blank), bytes.subarray(blank)] : [Buffer.alloc(blank)];
}

/** What a finished part left: its file, its length and its first bytes as they were sent. */
export type WrittenPart = { path: string; size: number; head: Buffer };

/**
 * One part of a multipart body written to its own file as it arrives. The bytes given to `write`
 * are kept by reference, not copied: up to 1 MB gathers while the previous batch is being
 * written, so the network and the disk work at the same time and a part holds at most about
 * 2 MB. The file is opened as the part starts, but nothing waits for that before a batch is to be
 * written: a part smaller than a batch waits for the disk only in `finish`, and a receiver that
 * lets parts finish behind it reads on meanwhile. The first `headBytes` stay in memory, so a
 * caller reads a file's header without opening it again.
 */
export class PartFile {
  size = 0;
  private readonly head: HeadKeeper;
  private batch: Buffer[] = [];
  private batchBytes = 0;
  private written = 0;
  private writing: Promise<void> | undefined;
  private failure: unknown;
  /** Undefined when the file could not be opened: `failure` says why. */
  private readonly handle: Promise<FileHandle | undefined>;

  /**
   * `path` must not exist yet: a file already there is never written over. A file that cannot be
   * opened fails the writes after it, and `finish`.
   */
  constructor(
    readonly path: string,
    private readonly options: PartFileOptions,
  ) {
    this.head = new HeadKeeper(options.headBytes);
    this.handle = open(path, 'wx').catch((error: unknown) => {
      this.failure = error;
      return undefined;
    });
  }

  /** Waits only when a batch is full and the previous one is still being written (backpressure). */
  async write(bytes: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    this.head.keep(bytes);
    for (const piece of withBlankStart(bytes, this.size, this.options.blankBytes ?? 0)) this.queue(piece);
    this.size += bytes.length;
    if (this.batchBytes >= WRITE_BATCH_BYTES) {
      await this.writing;
      this.startWrite();
    }
  }

  /** Everything written and the file closed. */
  async finish(): Promise<WrittenPart> {
    const handle = await this.handle;
    try {
      await this.writing;
      this.startWrite();
      await this.writing;
      if (this.failure) throw this.failure;
    } finally {
      await handle?.close();
    }
    return { path: this.path, size: this.size, head: this.head.head };
  }

  /** Stops writing and removes the file (a part refused mid-way, or a body that failed). */
  async discard(): Promise<void> {
    await this.writing;
    await (await this.handle)?.close().catch(() => undefined);
    await rm(this.path, { force: true });
  }

  private queue(bytes: Buffer): void {
    this.batch.push(bytes);
    this.batchBytes += bytes.length;
  }

  private startWrite(): void {
    if (this.batchBytes === 0 || this.failure) return;
    const buffers = this.batch;
    const position = this.written;
    this.written += this.batchBytes;
    this.batch = [];
    this.batchBytes = 0;
    this.writing = this.handle
      .then((handle) => handle && writeAll(handle, buffers, position))
      .catch((error: unknown) => {
        this.failure = error;
      });
  }
}

/** `writev` may write less than it was given (a signal, a full disk): the rest is written again. */
async function writeAll(handle: FileHandle, buffers: Buffer[], position: number): Promise<void> {
  let remaining = buffers;
  let at = position;
  while (remaining.length > 0) {
    const { bytesWritten } = await handle.writev(remaining, at);
    if (bytesWritten === 0) throw new Error('The disk took none of the bytes');
    at += bytesWritten;
    remaining = unwritten(remaining, bytesWritten);
  }
}

function unwritten(buffers: Buffer[], bytesWritten: number): Buffer[] {
  let skip = bytesWritten;
  const rest: Buffer[] = [];
  for (const buffer of buffers) {
    if (skip >= buffer.length) {
      skip -= buffer.length;
      continue;
    }
    rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
    skip = 0;
  }
  return rest;
}
