import { open, type FileHandle } from 'node:fs/promises';

/**
 * A received file's bytes as its inspection reads them: from its first bytes in memory when the
 * receiver kept them (the usual case: a header fits), else from the file, opened once when first
 * needed. Reads past the end answer what there is.
 */
export class FileBytes {
  private handle: Promise<FileHandle> | undefined;

  constructor(
    private readonly filePath: string,
    readonly size: number,
    private readonly head: Buffer = Buffer.alloc(0),
  ) {}

  async read(position: number, length: number): Promise<Buffer> {
    const end = Math.min(position + length, this.size);
    if (end <= this.head.length) return this.head.subarray(position, end);
    this.handle ??= open(this.filePath, 'r');
    const buffer = Buffer.alloc(Math.max(0, end - position));
    const { bytesRead } = await (await this.handle).read(buffer, 0, buffer.length, position);
    return buffer.subarray(0, bytesRead);
  }

  async close(): Promise<void> {
    if (this.handle) await (await this.handle).close();
  }
}
