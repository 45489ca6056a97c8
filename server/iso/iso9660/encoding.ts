/** Byte-level encodings of ISO 9660 (ECMA-119) and its Joliet extension. */

export const SECTOR_SIZE = 2048;

export function sectorsFor(bytes: number): number {
  return Math.ceil(bytes / SECTOR_SIZE);
}

/** ECMA-119 7.2.3 / 7.3.3: the same number little endian, then big endian. */
export function bothEndian16(target: Buffer, offset: number, value: number): void {
  target.writeUInt16LE(value, offset);
  target.writeUInt16BE(value, offset + 2);
}

export function bothEndian32(target: Buffer, offset: number, value: number): void {
  target.writeUInt32LE(value, offset);
  target.writeUInt32BE(value, offset + 4);
}

/** A fixed-width text field padded with spaces (a- and d-characters are plain ASCII). */
export function asciiField(target: Buffer, offset: number, length: number, text: string): void {
  target.fill(0x20, offset, offset + length);
  target.write(text.slice(0, length), offset, 'ascii');
}

/** Joliet text: UCS-2 big endian, padded with UCS-2 spaces. */
export function ucs2Field(target: Buffer, offset: number, length: number, text: string): void {
  for (let i = 0; i + 1 < length; i += 2) target.writeUInt16BE(0x0020, offset + i);
  ucs2(text.slice(0, Math.floor(length / 2))).copy(target, offset);
}

export function ucs2(text: string): Buffer {
  const bytes = Buffer.alloc(text.length * 2);
  for (let i = 0; i < text.length; i++) bytes.writeUInt16BE(text.charCodeAt(i), i * 2);
  return bytes;
}

/** ECMA-119 9.1.5: seven bytes of recording time, here always in UTC. */
export function directoryRecordDate(target: Buffer, offset: number, date: Date): void {
  target[offset] = date.getUTCFullYear() - 1900;
  target[offset + 1] = date.getUTCMonth() + 1;
  target[offset + 2] = date.getUTCDate();
  target[offset + 3] = date.getUTCHours();
  target[offset + 4] = date.getUTCMinutes();
  target[offset + 5] = date.getUTCSeconds();
  target[offset + 6] = 0;
}

/** ECMA-119 8.4.26.1: "YYYYMMDDHHMMSScc" plus the offset from UTC in 15-minute steps. */
export function volumeDate(target: Buffer, offset: number, date: Date | null): void {
  const text = date
    ? date
        .toISOString()
        .replace(/[-:T.]/g, '')
        .slice(0, 16)
    : '0000000000000000';
  target.write(text, offset, 'ascii');
  target[offset + 16] = 0;
}
