import { buildDicomFileSet, type StoredImage } from './dicom-file-set';
import { createIsoImage } from './iso9660/writer';
import type { IsoFileInput } from './iso9660/layout';
import type { VirtualImage } from './virtual-image';

export type DiscContents = {
  images: StoredImage[];
  /** The ISO instruction PDF in the patient's language, under its own (long) name. */
  instruction: { name: string; bytes: Uint8Array } | null;
  publisher: string;
  examinedOn: string;
  createdAt: Date;
};

const README = (examinedOn: string, publisher: string) =>
  [
    `Mammografia z dnia ${examinedOn} / Mammography of ${examinedOn}`,
    '',
    'PL: Płyta zawiera obrazy badania w formacie DICOM (katalog DICOM) wraz z plikiem DICOMDIR,',
    'który otwiera każda przeglądarka DICOM. Instrukcja obsługi jest w pliku PDF na płycie.',
    '',
    'EN: The disc holds the images of the examination in DICOM format (folder DICOM) with a',
    'DICOMDIR file that any DICOM viewer opens. The PDF on the disc explains how to use it.',
    '',
    publisher,
    '',
  ].join('\r\n');

/**
 * The disc image a patient downloads: her screening's DICOM files in a file-set layout with a
 * DICOMDIR at the root, the instruction PDF and a README. Only the DICOM headers are read to lay it
 * out; the image data streams from the store when the image is read (virtual-image.ts).
 */
export async function createDiscImage(contents: DiscContents): Promise<VirtualImage> {
  const fileSet = await buildDicomFileSet(contents.images, 'MAMMOGRAFIA');
  const files: IsoFileInput[] = fileSet.images.map((image) => ({
    path: image.fileId,
    source: { kind: 'stored', key: image.stored.key, size: image.stored.size },
  }));
  files.push({ path: ['DICOMDIR'], source: { kind: 'bytes', bytes: fileSet.dicomdir } });
  files.push({
    path: ['README.TXT'],
    source: { kind: 'bytes', bytes: Buffer.from(README(contents.examinedOn, contents.publisher), 'utf8') },
  });
  if (contents.instruction) {
    files.push({
      path: ['INSTRUKC.PDF'],
      jolietName: contents.instruction.name,
      source: { kind: 'bytes', bytes: contents.instruction.bytes },
    });
  }
  return createIsoImage(files, {
    volumeId: `MAMMO_${contents.examinedOn.replace(/-/g, '')}`,
    publisher: contents.publisher,
    createdAt: contents.createdAt,
  });
}
