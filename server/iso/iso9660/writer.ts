import { SECTOR_SIZE, asciiField, bothEndian16, bothEndian32, directoryRecordDate, ucs2, ucs2Field, volumeDate } from './encoding';
import {
  directoryEntries,
  directoryRecordLength,
  layOut,
  pathTableRecordLength,
  type IsoDirectory,
  type IsoFile,
  type IsoFileInput,
  type IsoLayout,
  type Tree,
  SYSTEM_AREA_SECTORS,
} from './layout';
import { virtualImage, type ImagePiece, type VirtualImage } from '../virtual-image';

export type IsoImageOptions = {
  /** Up to 32 d-characters (A-Z, 0-9, _) in the primary descriptor, 16 characters in Joliet. */
  volumeId: string;
  publisher: string;
  createdAt: Date;
};

const FLAG_DIRECTORY = 0x02;
/** Joliet level 3 (ECMA-35 escape sequence "%/E", UCS-2 names). */
const JOLIET_ESCAPE = '%/E';

/**
 * An ISO 9660 image (level 1 names) with a Joliet supplementary volume descriptor. Both trees
 * point at the same file extents. The image is answered as its pieces (virtual-image.ts): the
 * descriptors, path tables and directories as bytes, then each file in the order of its extent, a
 * stored file by its key and size.
 */
export function createIsoImage(inputs: IsoFileInput[], options: IsoImageOptions): VirtualImage {
  const layout = layOut(inputs);
  const headers: Buffer[] = [volumeDescriptor(layout, options, 'primary'), volumeDescriptor(layout, options, 'joliet'), terminator()];
  for (const tree of ['primary', 'joliet'] as const) headers.push(pathTable(layout, tree, 'L'), pathTable(layout, tree, 'M'));
  for (const tree of ['primary', 'joliet'] as const) {
    for (const directory of layout.directories) headers.push(directoryExtent(directory, tree, options.createdAt));
  }
  const pieces: ImagePiece[] = [
    { kind: 'zeros', size: SYSTEM_AREA_SECTORS * SECTOR_SIZE },
    { kind: 'bytes', bytes: Buffer.concat(headers) },
  ];
  for (const file of layout.files) pieces.push(file.source.kind === 'bytes' ? { kind: 'bytes', bytes: file.source.bytes } : file.source);
  const image = virtualImage(pieces);
  if (image.size !== layout.totalSectors * SECTOR_SIZE) throw new Error('ISO pieces do not match the layout');
  return image;
}

function volumeDescriptor(layout: IsoLayout, options: IsoImageOptions, tree: Tree): Buffer {
  const sector = Buffer.alloc(SECTOR_SIZE);
  const joliet = tree === 'joliet';
  const text = (offset: number, length: number, value: string) =>
    joliet ? ucs2Field(sector, offset, length, value) : asciiField(sector, offset, length, toACharacters(value));
  sector[0] = joliet ? 2 : 1;
  sector.write('CD001', 1, 'ascii');
  sector[6] = 1;
  text(8, 32, '');
  text(40, 32, options.volumeId);
  bothEndian32(sector, 80, layout.totalSectors);
  if (joliet) sector.write(JOLIET_ESCAPE, 88, 'ascii');
  bothEndian16(sector, 120, 1);
  bothEndian16(sector, 124, 1);
  bothEndian16(sector, 128, SECTOR_SIZE);
  const table = layout.pathTables[tree];
  bothEndian32(sector, 132, table.size);
  sector.writeUInt32LE(table.lExtent, 140);
  sector.writeUInt32BE(table.mExtent, 148);
  directoryRecord(layout.root, tree, options.createdAt, '\0').copy(sector, 156);
  text(190, 128, '');
  text(318, 128, options.publisher);
  text(446, 128, options.publisher);
  text(574, 128, '');
  text(702, 37, '');
  text(739, 37, '');
  text(776, 37, '');
  volumeDate(sector, 813, options.createdAt);
  volumeDate(sector, 830, options.createdAt);
  volumeDate(sector, 847, null);
  volumeDate(sector, 864, options.createdAt);
  sector[881] = 1;
  return sector;
}

/** ECMA-119 7.4.1 a-characters: upper-case ASCII letters, digits and a few marks; diacritics dropped. */
function toACharacters(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .toUpperCase()
    .replace(/[^A-Z0-9_ !"%&'()*+,\-./:;<=>?]/g, '_');
}

function terminator(): Buffer {
  const sector = Buffer.alloc(SECTOR_SIZE);
  sector[0] = 255;
  sector.write('CD001', 1, 'ascii');
  sector[6] = 1;
  return sector;
}

function encodeName(identifier: string, tree: Tree): Buffer {
  if (identifier === '\0' || identifier === '\u0001') return Buffer.from([identifier.charCodeAt(0)]);
  return tree === 'joliet' ? ucs2(identifier) : Buffer.from(identifier, 'ascii');
}

function pathTable(layout: IsoLayout, tree: Tree, byteOrder: 'L' | 'M'): Buffer {
  const { size } = layout.pathTables[tree];
  const table = Buffer.alloc(Math.ceil(size / SECTOR_SIZE) * SECTOR_SIZE);
  let offset = 0;
  for (const directory of layout.directories) {
    const name = encodeName(directory.name, tree);
    table[offset] = name.length;
    table[offset + 1] = 0;
    const parentNumber = directory.parent?.number ?? 1;
    if (byteOrder === 'L') {
      table.writeUInt32LE(directory[tree].extent, offset + 2);
      table.writeUInt16LE(parentNumber, offset + 6);
    } else {
      table.writeUInt32BE(directory[tree].extent, offset + 2);
      table.writeUInt16BE(parentNumber, offset + 6);
    }
    name.copy(table, offset + 8);
    offset += pathTableRecordLength(name.length);
  }
  return table;
}

function directoryExtent(directory: IsoDirectory, tree: Tree, recordedAt: Date): Buffer {
  const extent = Buffer.alloc(directory[tree].size);
  const records = [
    directoryRecord(directory, tree, recordedAt, '\0'),
    directoryRecord(directory.parent ?? directory, tree, recordedAt, '\u0001'),
    ...directoryEntries(directory, tree).map((entry) =>
      entry.directory
        ? directoryRecord(entry.directory, tree, recordedAt, entry.identifier)
        : fileRecord(entry.file!, tree, recordedAt, entry.identifier),
    ),
  ];
  let offset = 0;
  for (const record of records) {
    const room = SECTOR_SIZE - (offset % SECTOR_SIZE);
    if (record.length > room) offset += room;
    record.copy(extent, offset);
    offset += record.length;
  }
  return extent;
}

function directoryRecord(directory: IsoDirectory, tree: Tree, recordedAt: Date, identifier: string): Buffer {
  return record(encodeName(identifier, tree), directory[tree].extent, directory[tree].size, FLAG_DIRECTORY, recordedAt);
}

function fileRecord(file: IsoFile, tree: Tree, recordedAt: Date, identifier: string): Buffer {
  return record(encodeName(identifier, tree), file.extent, file.size, 0, recordedAt);
}

/** ECMA-119 9.1: one directory record. */
function record(name: Buffer, extent: number, dataLength: number, flags: number, recordedAt: Date): Buffer {
  const bytes = Buffer.alloc(directoryRecordLength(name.length));
  bytes[0] = bytes.length;
  bothEndian32(bytes, 2, extent);
  bothEndian32(bytes, 10, dataLength);
  directoryRecordDate(bytes, 18, recordedAt);
  bytes[25] = flags;
  bothEndian16(bytes, 28, 1);
  bytes[32] = name.length;
  name.copy(bytes, 33);
  return bytes;
}
