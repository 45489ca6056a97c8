/**
 * Images API (docs/api.md "Images"): the DICOM images a patient may view in the browser: those
 * stored for her screenings and the studies she uploaded. Shared by the server and the client.
 */

/** One stored DICOM file; its view tags are read from the file's header (null when absent or unreadable). */
export type ImageRef = {
  id: string; // opaque; the URL of the bytes is /api/images/<id>
  laterality: 'R' | 'L' | null; // ImageLaterality (0020,0062), else Laterality (0020,0060)
  viewPosition: string | null; // ViewPosition (0018,5101): 'CC', 'MLO', 'ML', 'LM', 'XCCL', ...
  studyDate: string | null; // YYYY-MM-DD
  modality: string | null;
  transferSyntaxUid: string | null;
  rows: number | null;
  columns: number | null;
  sizeBytes: number;
};

/** A screening's images, or one uploaded study; images ordered R CC, L CC, R MLO, L MLO, then the rest. */
export type ImageSet =
  | { kind: 'screening'; screeningId: number; examinedAt: string; images: ImageRef[] }
  | { kind: 'upload'; studyInstanceUid: string; studyDate: string | null; images: ImageRef[] };

/** `GET /api/images` answers this: newest first. */
export type ImageSetsResponse = { sets: ImageSet[] }; // newest first
