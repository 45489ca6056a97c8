/** What the page and the first view's worker (first-view.worker.ts) say to each other, per image `id`. */
/** Download the file at `url` and make its picture, its longer side at least `targetLongSide` pixels. */
export type ToFirstViewWorker = { kind: 'fetch'; id: number; url: string; targetLongSide: number };

/** The small picture of a whole image, and what is needed to place it as cornerstone will. */
export type FirstViewPreview = {
  bitmap: ImageBitmap;
  /** Each picture pixel is the mean of step×step stored pixels. */
  step: number;
  rows: number;
  columns: number;
  patientOrientation: string | undefined;
};

export type FromFirstViewWorker =
  /**
   * The header was read: whether a picture will be made once every row has arrived, and when the
   * request was sent (milliseconds since the epoch, for the page's performance timeline).
   */
  | { kind: 'header'; id: number; previewable: boolean; requestedAt: number }
  /** The whole file (transferred), and its picture when it could be made. */
  | { kind: 'done'; id: number; preview: FirstViewPreview | null; file: ArrayBuffer }
  /** The download or the reading failed: cornerstone downloads the file itself. */
  | { kind: 'failed'; id: number };
