import { Readable } from 'node:stream';
import type { ByteRange } from '../lib/storage';
import { SECTOR_SIZE } from './iso9660/encoding';

/**
 * One run of a disc image: bytes the image itself holds (the volume descriptors, the directories,
 * the DICOMDIR, the README, the instruction), zeros, or a stored file (a DICOM image) read from the
 * store when the image is read. Each piece starts on a sector: a piece not filling its last sector
 * is followed by zeros.
 */
export type ImagePiece =
  { kind: 'bytes'; bytes: Uint8Array } | { kind: 'zeros'; size: number } | { kind: 'stored'; key: string; size: number };

/**
 * A disc image kept as its pieces (issue 16): the layout and the small files only, a few hundred
 * KB for a 1 GB study, while the images' bytes stay where they are stored. Ready as soon as the
 * DICOMDIR is written, and it costs no storage of its own; a download streams it, ranges included.
 * The stored files it names never change (a key names one content) and are never deleted while a
 * row names them.
 */
export type VirtualImage = { size: number; pieces: ImagePiece[] };

/** Opens a stored file's bytes, or those of one range: `FileStorage.openRead`. */
export type OpenStored = (key: string, range?: ByteRange) => Promise<AsyncIterable<Uint8Array>>;

const FORMAT = 'portal-virtual-disc/1';
/** The storage key's ending of a virtual image (a disc image built before them ends in `.iso`). */
export const VIRTUAL_DISC_EXTENSION = '.disc';
/** Zeros are handed out in slices of this size (a piece may be large: the system area, padding). */
const ZEROS = Buffer.alloc(64 * 1024);

const pieceSize = (piece: ImagePiece): number => (piece.kind === 'bytes' ? piece.bytes.length : piece.size);
const paddedSize = (piece: ImagePiece): number => Math.ceil(pieceSize(piece) / SECTOR_SIZE) * SECTOR_SIZE;

export function virtualImage(pieces: ImagePiece[]): VirtualImage {
  return { size: pieces.reduce((total, piece) => total + paddedSize(piece), 0), pieces };
}

type EncodedPiece = { bytes: number } | { zeros: number } | { key: string; size: number };

/**
 * The image as one small file: a 4-byte length, a JSON description of the pieces, then the bytes
 * of the `bytes` pieces one after another.
 */
export function encodeVirtualImage(image: VirtualImage): Buffer {
  const pieces: EncodedPiece[] = image.pieces.map((piece) =>
    piece.kind === 'bytes'
      ? { bytes: piece.bytes.length }
      : piece.kind === 'zeros'
        ? { zeros: piece.size }
        : { key: piece.key, size: piece.size },
  );
  const description = Buffer.from(JSON.stringify({ format: FORMAT, size: image.size, pieces }), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(description.length);
  const contents = image.pieces.flatMap((piece) => (piece.kind === 'bytes' ? [piece.bytes] : []));
  return Buffer.concat([length, description, ...contents]);
}

export function decodeVirtualImage(encoded: Buffer): VirtualImage {
  const descriptionEnd = 4 + encoded.readUInt32BE(0);
  const description = JSON.parse(encoded.subarray(4, descriptionEnd).toString('utf8')) as {
    format: string;
    size: number;
    pieces: EncodedPiece[];
  };
  if (description.format !== FORMAT) throw new Error(`Not a virtual disc image: ${description.format}`);
  let offset = descriptionEnd;
  const pieces = description.pieces.map((piece): ImagePiece => {
    if ('key' in piece) return { kind: 'stored', key: piece.key, size: piece.size };
    if ('zeros' in piece) return { kind: 'zeros', size: piece.zeros };
    offset += piece.bytes;
    return { kind: 'bytes', bytes: encoded.subarray(offset - piece.bytes, offset) };
  });
  const image = virtualImage(pieces);
  if (image.size !== description.size || offset !== encoded.length) throw new Error('Virtual disc image does not add up');
  return image;
}

/** The image's bytes, or those of one range, streamed: one stored file open at a time. */
export function readVirtualImage(image: VirtualImage, openStored: OpenStored, range?: ByteRange): Readable {
  return Readable.from(rangeChunks(image, openStored, range ?? { start: 0, end: image.size - 1 }), { objectMode: false });
}

async function* rangeChunks(image: VirtualImage, openStored: OpenStored, range: ByteRange): AsyncGenerator<Uint8Array> {
  let offset = 0;
  for (const piece of image.pieces) {
    if (offset > range.end) return;
    const span = paddedSize(piece);
    // The part of this piece inside the range, relative to the piece's start (end exclusive).
    const from = Math.max(range.start - offset, 0);
    const to = Math.min(range.end + 1 - offset, span);
    if (from < to) yield* pieceChunks(piece, from, to, openStored);
    offset += span;
  }
}

async function* pieceChunks(piece: ImagePiece, from: number, to: number, openStored: OpenStored): AsyncGenerator<Uint8Array> {
  const dataEnd = Math.min(to, pieceSize(piece));
  if (from < dataEnd) {
    if (piece.kind === 'bytes') yield piece.bytes.subarray(from, dataEnd);
    else if (piece.kind === 'zeros') yield* zeros(dataEnd - from);
    else yield* storedChunks(piece.key, from, dataEnd, openStored);
  }
  const paddingStart = Math.max(from, pieceSize(piece));
  if (paddingStart < to) yield* zeros(to - paddingStart);
}

/**
 * A stored file's bytes [from, to): exactly as many as it had when the image was laid out (the
 * build checked every size; a file cut short since fails the read rather than shift the rest).
 */
async function* storedChunks(key: string, from: number, to: number, openStored: OpenStored): AsyncGenerator<Uint8Array> {
  const wanted = to - from;
  let read = 0;
  for await (const chunk of await openStored(key, { start: from, end: to - 1 })) {
    read += chunk.length;
    if (read > wanted) break;
    yield chunk;
  }
  if (read !== wanted) throw new Error(`A stored file of the disc image changed size: ${key}`);
}

function* zeros(length: number): Generator<Uint8Array> {
  for (let left = length; left > 0; left -= ZEROS.length) yield ZEROS.subarray(0, Math.min(left, ZEROS.length));
}
