import type { DirectoryDropItem, DropItem, FileDropItem } from 'react-aria-components';
import { describe, expect, it } from 'vitest';
import { pickedFromDataTransfer, pickedFromDropItems, pickedFromFileList } from './picked-files';

function fileItem(name: string): FileDropItem {
  const file = new File(['x'], name);
  return { kind: 'file', type: 'application/octet-stream', name, getFile: async () => file, getText: async () => 'x' };
}

/** A folder that hands out its entries in batches of at most 100, as browsers' readers do. */
function folder(name: string, entries: Array<FileDropItem | DirectoryDropItem>): DirectoryDropItem & { reads: number } {
  const item = {
    kind: 'directory' as const,
    name,
    reads: 0,
    async *getEntries() {
      for (let start = 0; start < entries.length; start += 100) {
        item.reads++;
        await Promise.resolve();
        yield* entries.slice(start, start + 100);
      }
    },
  };
  return item;
}

/** File-system entries as a browser hands them out for a dropped folder. */
function fileEntry(name: string): FileSystemFileEntry {
  const file = new File(['x'], name);
  return {
    isFile: true,
    isDirectory: false,
    name,
    file: (resolve: (file: File) => void) => setTimeout(() => resolve(file)),
  } as unknown as FileSystemFileEntry;
}

/** Its reader answers at most 100 entries per call, then an empty batch, like Chromium's. */
function folderEntry(name: string, children: FileSystemEntry[]): FileSystemDirectoryEntry & { calls: number } {
  const entry = {
    isFile: false,
    isDirectory: true,
    name,
    calls: 0,
    createReader: () => {
      let offset = 0;
      return {
        readEntries: (resolve: (entries: FileSystemEntry[]) => void) => {
          entry.calls++;
          const batch = children.slice(offset, offset + 100);
          offset += batch.length;
          setTimeout(() => resolve(batch));
        },
      };
    },
  };
  return entry as unknown as FileSystemDirectoryEntry & { calls: number };
}

function transferOf(items: Array<{ entry: FileSystemEntry | null; file?: File; kind?: string }>): DataTransfer {
  return {
    items: items.map(({ entry, file, kind = 'file' }) => ({ kind, webkitGetAsEntry: () => entry, getAsFile: () => file ?? null })),
  } as unknown as DataTransfer;
}

describe('pickedFromDataTransfer (a drop)', () => {
  it('reads a big folder in every batch its reader hands out, through every level', async () => {
    const series = folderEntry(
      'SE000000',
      Array.from({ length: 250 }, (_, index) => fileEntry(`IM${String(index).padStart(5, '0')}`)),
    );
    const disc = folderEntry('DISC', [
      fileEntry('DICOMDIR'),
      folderEntry('PT000000', [folderEntry('ST000000', [series])]),
      folderEntry('EMPTY', []),
    ]);

    const picked = await pickedFromDataTransfer(transferOf([{ entry: disc }]));

    // 100 + 100 + 50, then the empty answer that says the folder is done.
    expect(series.calls).toBe(4);
    expect(picked).toHaveLength(251);
    expect(picked[0]!.path).toBe('DISC/DICOMDIR');
    expect(picked.map((item) => item.path)).toContain('DISC/PT000000/ST000000/SE000000/IM00249');
  });

  it('takes dropped files as they are, also those without a file-system entry, and ignores text', async () => {
    const loose = new File(['x'], 'CT_small.dcm');
    const handedOver = new File(['y'], 'MR_small.dcm');
    const picked = await pickedFromDataTransfer(
      transferOf([
        { entry: fileEntry('CT_small.dcm'), file: loose },
        { entry: null, file: handedOver },
        { entry: null, kind: 'string' },
      ]),
    );
    expect(picked).toEqual([
      { file: loose, path: 'CT_small.dcm' },
      { file: handedOver, path: 'MR_small.dcm' },
    ]);
  });
});

describe('pickedFromDropItems (a paste)', () => {
  it('walks every level of a dropped disc and every batch of a big folder, keeping the paths', async () => {
    const series = folder(
      'SE000000',
      Array.from({ length: 250 }, (_, index) => fileItem(`IM${String(index).padStart(5, '0')}`)),
    );
    const disc = folder('DISC', [fileItem('DICOMDIR'), folder('PT000000', [folder('ST000000', [series])]), folder('EMPTY', [])]);
    const text: DropItem = { kind: 'text', types: new Set(['text/plain']), getText: async () => 'hello' };

    const picked = await pickedFromDropItems([disc, fileItem('loose.dcm'), text]);

    expect(series.reads).toBe(3);
    expect(picked).toHaveLength(1 + 250 + 1);
    expect(picked[0]!.path).toBe('DISC/DICOMDIR');
    expect(picked[1]!.path).toBe('DISC/PT000000/ST000000/SE000000/IM00000');
    expect(picked[250]!.path).toBe('DISC/PT000000/ST000000/SE000000/IM00249');
    expect(picked.at(-1)!.path).toBe('loose.dcm');
    expect(picked.at(-1)!.file.name).toBe('loose.dcm');
  });
});

describe('pickedFromFileList', () => {
  it('takes the path inside a picked folder, or the bare name of a picked file', async () => {
    const inFolder = new File(['x'], '4648');
    Object.defineProperty(inFolder, 'webkitRelativePath', { value: 'dicomdirtests/98892003/MR700/4648' });
    const single = new File(['x'], 'CT_small.dcm');
    expect((await pickedFromFileList([inFolder, single])).map((picked) => picked.path)).toEqual([
      'dicomdirtests/98892003/MR700/4648',
      'CT_small.dcm',
    ]);
    expect(await pickedFromFileList(null)).toEqual([]);
  });

  it('keeps the pick order of a folder mapped over several tasks', async () => {
    const files = Array.from({ length: 2_345 }, (_, index) => new File(['x'], `IM${index}`));
    expect((await pickedFromFileList(files)).map((picked) => picked.path)).toEqual(files.map((file) => file.name));
  });
});
