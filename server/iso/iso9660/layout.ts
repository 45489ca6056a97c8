import { SECTOR_SIZE, sectorsFor } from './encoding';

/** Where the bytes of a file on the disc come from: a stored file (read when the image is read) or bytes at hand. */
type IsoFileSource = { kind: 'stored'; key: string; size: number } | { kind: 'bytes'; bytes: Uint8Array };

export type IsoFileInput = {
  /** ISO 9660 names from the root, e.g. ['DICOM', 'ST000001', 'IM000001'] or ['README.TXT']. */
  path: string[];
  /** The file's name in the Joliet tree when it should differ from the 8.3 name (long names). */
  jolietName?: string;
  source: IsoFileSource;
};

export type IsoFile = IsoFileInput & { size: number; extent: number };

export type IsoDirectory = {
  name: string;
  parent: IsoDirectory | null;
  directories: IsoDirectory[];
  files: IsoFile[];
  /** Path table number (1 for the root), the same in both trees. */
  number: number;
  primary: { extent: number; size: number };
  joliet: { extent: number; size: number };
};

export type Tree = 'primary' | 'joliet';

/** ECMA-119 level 1: d-characters, an 8-character name, a 3-character extension. */
const LEVEL1_FILE = /^[A-Z0-9_]{1,8}(\.[A-Z0-9_]{0,3})?$/;
const LEVEL1_DIRECTORY = /^[A-Z0-9_]{1,8}$/;
const MAX_DEPTH = 8;

function sourceSize(source: IsoFileSource): number {
  return source.kind === 'stored' ? source.size : source.bytes.length;
}

/** The identifier a file's record carries: `NAME.EXT;1` in the primary tree, the long name in Joliet. */
function fileIdentifier(file: IsoFileInput, tree: Tree): string {
  const name = file.path[file.path.length - 1]!;
  if (tree === 'joliet') return `${file.jolietName ?? name};1`;
  return `${name.includes('.') ? name : `${name}.`};1`;
}

/** Length of one directory record with a name of `nameBytes` (ECMA-119 9.1: padded to even). */
export function directoryRecordLength(nameBytes: number): number {
  return 33 + nameBytes + (nameBytes % 2 === 0 ? 1 : 0);
}

export function pathTableRecordLength(nameBytes: number): number {
  return 8 + nameBytes + (nameBytes % 2);
}

function nameBytes(identifier: string, tree: Tree): number {
  return tree === 'joliet' ? identifier.length * 2 : identifier.length;
}

/** Children of a directory in the order their records appear (ECMA-119 9.3: sorted by identifier). */
export function directoryEntries(
  directory: IsoDirectory,
  tree: Tree,
): Array<{ identifier: string; directory?: IsoDirectory; file?: IsoFile }> {
  const entries = [
    ...directory.directories.map((child) => ({ identifier: child.name, directory: child })),
    ...directory.files.map((file) => ({ identifier: fileIdentifier(file, tree), file })),
  ];
  return entries.sort((a, b) => compareIdentifiers(a.identifier, b.identifier));
}

function compareIdentifiers(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Bytes of a directory's extent: records never cross a sector boundary (ECMA-119 6.8.1.1). */
function directoryExtentSize(directory: IsoDirectory, tree: Tree): number {
  const lengths = [directoryRecordLength(1), directoryRecordLength(1)];
  for (const entry of directoryEntries(directory, tree)) lengths.push(directoryRecordLength(nameBytes(entry.identifier, tree)));
  let used = 0;
  for (const length of lengths) {
    const room = SECTOR_SIZE - (used % SECTOR_SIZE);
    if (length > room) used += room;
    used += length;
  }
  return sectorsFor(used) * SECTOR_SIZE;
}

export type IsoLayout = {
  root: IsoDirectory;
  /** Directories in path table order: by level, then parent number, then name. */
  directories: IsoDirectory[];
  files: IsoFile[];
  pathTables: Record<Tree, { size: number; lExtent: number; mExtent: number }>;
  totalSectors: number;
};

/** ECMA-119 6.2.1: the system area, unused here, before the volume descriptors. */
export const SYSTEM_AREA_SECTORS = 16;
const FIRST_PATH_TABLE_SECTOR = SYSTEM_AREA_SECTORS + 3; // after the PVD, the Joliet SVD and the terminator

/** Places every directory and file on the disc; nothing is read or written yet. */
export function layOut(inputs: IsoFileInput[]): IsoLayout {
  const root = newDirectory('\0', null);
  for (const input of inputs) addFile(root, input);

  const directories: IsoDirectory[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const directory = queue.shift()!;
    directory.number = directories.length + 1;
    directories.push(directory);
    directory.directories.sort((a, b) => compareIdentifiers(a.name, b.name));
    queue.push(...directory.directories);
  }

  let sector = FIRST_PATH_TABLE_SECTOR;
  const pathTable = (tree: Tree) => {
    const size = directories.reduce((sum, d) => sum + pathTableRecordLength(d === root ? 1 : nameBytes(d.name, tree)), 0);
    const lExtent = sector;
    sector += sectorsFor(size);
    const mExtent = sector;
    sector += sectorsFor(size);
    return { size, lExtent, mExtent };
  };
  const pathTables = { primary: pathTable('primary'), joliet: pathTable('joliet') };
  for (const tree of ['primary', 'joliet'] as const) {
    for (const directory of directories) {
      const size = directoryExtentSize(directory, tree);
      directory[tree] = { extent: sector, size };
      sector += size / SECTOR_SIZE;
    }
  }
  const files: IsoFile[] = [];
  for (const directory of directories) {
    for (const entry of directoryEntries(directory, 'primary')) {
      if (!entry.file) continue;
      entry.file.extent = sector;
      sector += sectorsFor(entry.file.size);
      files.push(entry.file);
    }
  }
  return { root, directories, files, pathTables, totalSectors: sector };
}

function newDirectory(name: string, parent: IsoDirectory | null): IsoDirectory {
  return { name, parent, directories: [], files: [], number: 0, primary: { extent: 0, size: 0 }, joliet: { extent: 0, size: 0 } };
}

function addFile(root: IsoDirectory, input: IsoFileInput): void {
  if (input.path.length === 0 || input.path.length > MAX_DEPTH) throw new Error(`ISO 9660 path too deep: ${input.path.join('/')}`);
  let directory = root;
  for (const name of input.path.slice(0, -1)) {
    if (!LEVEL1_DIRECTORY.test(name)) throw new Error(`Not an ISO 9660 level 1 directory name: ${name}`);
    let child = directory.directories.find((d) => d.name === name);
    if (!child) {
      child = newDirectory(name, directory);
      directory.directories.push(child);
    }
    directory = child;
  }
  const name = input.path[input.path.length - 1]!;
  if (!LEVEL1_FILE.test(name)) throw new Error(`Not an ISO 9660 level 1 file name: ${name}`);
  if (input.jolietName !== undefined && (input.jolietName.length > 64 || /[*/:;?\\]/.test(input.jolietName))) {
    throw new Error(`Not a Joliet file name: ${input.jolietName}`);
  }
  const size = sourceSize(input.source);
  if (size > 0xffffffff) throw new Error(`File too large for one ISO 9660 extent: ${input.path.join('/')}`);
  if (directory.files.some((f) => f.path[f.path.length - 1] === name) || directory.directories.some((d) => d.name === name)) {
    throw new Error(`Duplicate ISO 9660 path: ${input.path.join('/')}`);
  }
  directory.files.push({ ...input, size, extent: 0 });
}
