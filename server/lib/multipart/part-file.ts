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
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
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
    this.handle = open(path, 'wx').catch((error: unknown) => {
      this.failure = error;
      return undefined;
    });
  }

  /** Waits only when a batch is full and the previous one is still being written (backpressure). */
  async write(bytes: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.headLength < this.options.headBytes) {
      const kept = bytes.subarray(0, this.options.headBytes - this.headLength);
      this.headChunks.push(kept);
      this.headLength += kept.length;
    }
    const blank = Math.max(0, Math.min((this.options.blankBytes ?? 0) - this.size, bytes.length));
    this.size += bytes.length;
    if (blank > 0) this.queue(Buffer.alloc(blank));
    if (blank < bytes.length) this.queue(blank > 0 ? bytes.subarray(blank) : bytes);
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
    const head = this.headChunks.length === 1 ? this.headChunks[0]! : Buffer.concat(this.headChunks);
    return { path: this.path, size: this.size, head };
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
