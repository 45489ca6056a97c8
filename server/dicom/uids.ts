import { createHash, randomUUID } from 'node:crypto';

/**
 * DICOM UIDs under the `2.25` root (ISO/IEC 9834-8: a UUID written as one decimal integer), which
 * needs no registered organisation root and never collides with anyone else's.
 */
export function uidFromUuid(uuid: string = randomUUID()): string {
  return `2.25.${BigInt(`0x${uuid.replace(/-/g, '')}`).toString(10)}`;
}

/** The same name always gives the same UID, so regenerated demo images keep their identity. */
export function uidFromName(name: string): string {
  const hex = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 32);
  return `2.25.${BigInt(`0x${hex}`).toString(10)}`;
}
