import type { DropItem } from 'react-aria-components';
import { yieldToPage } from '../../lib/yield-to-page';

/** A file the patient picked, with its path inside the picked folder (or its bare name). */
export type PickedFile = { file: File; path: string };

/** Files mapped per task: a folder of 5,000 mapped at once is tens of ms of a busy main thread. */
const FILES_PER_TASK = 1000;

/**
 * From a file input; a folder picker gives each file its path below the chosen folder. The list is
 * copied during the change event (the input may be cleared later) and mapped in tasks of their
 * own after it, so the pick's event ends at once.
 */
export async function pickedFromFileList(files: FileList | readonly File[] | null): Promise<PickedFile[]> {
  const list = Array.from(files ?? []);
  const picked: PickedFile[] = [];
  for (let start = 0; start < list.length; start += FILES_PER_TASK) {
    await yieldToPage();
    for (const file of list.slice(start, start + FILES_PER_TASK)) picked.push({ file, path: file.webkitRelativePath || file.name });
  }
  return picked;
}

/** Every entry of a folder: a reader hands out at most 100 per call, so ask until it answers none. */
async function readAllEntries(folder: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = folder.createReader();
  const entries: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return entries;
    entries.push(...batch);
  }
}

async function walkEntry(entry: FileSystemEntry, folder: string, into: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    into.push({ file, path: `${folder}${entry.name}` });
  } else if (entry.isDirectory) {
    for (const child of await readAllEntries(entry as FileSystemDirectoryEntry)) await walkEntry(child, `${folder}${entry.name}/`, into);
  }
}

/**
 * Every file of a drop, each dropped folder walked to its last level. Call it during the drop
 * event: the browser empties the DataTransfer afterwards. A dropped item that is no folder is taken
 * as the file it is, also when the browser offers no file-system entry for it (files handed over
 * by another page or app).
 */
export function pickedFromDataTransfer(transfer: DataTransfer): Promise<PickedFile[]> {
  const folders: FileSystemDirectoryEntry[] = [];
  const picked: PickedFile[] = [];
  for (const item of Array.from(transfer.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (entry?.isDirectory) {
      folders.push(entry as FileSystemDirectoryEntry);
    } else {
      const file = item.getAsFile();
      if (file) picked.push({ file, path: file.name });
    }
  }
  return (async () => {
    for (const folder of folders) await walkEntry(folder, '', picked);
    return picked;
  })();
}

/**
 * Files pasted into the drop zone from the clipboard (React Aria's items): its directory items
 * read folders with the same repeated `readEntries`.
 */
export async function pickedFromDropItems(items: Iterable<DropItem> | AsyncIterable<DropItem>, folder = ''): Promise<PickedFile[]> {
  const picked: PickedFile[] = [];
  for await (const item of items) {
    if (item.kind === 'file') {
      picked.push({ file: await item.getFile(), path: `${folder}${item.name}` });
    } else if (item.kind === 'directory') {
      picked.push(...(await pickedFromDropItems(item.getEntries(), `${folder}${item.name}/`)));
    }
    // Text (a link, a selection) is not a file: nothing to add.
  }
  return picked;
}
