import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { loadedCornerstone } from './cornerstone-module';
import { drawFirstView } from './first-view-draw';
import type { FirstViewPreview } from './first-view-messages';
import { firstViewOf, releaseFirstView, type FirstView } from './first-views';
import type { SlotName } from './hanging';
import { slotFlips } from './viewport-control';

// The bench (bench/viewer.ts) reads this mark: the time from navigation to the first drawn view,
// the first view's picture or cornerstone's own drawing, whichever comes first.
let firstViewMarked = false;
export function markFirstView(): void {
  if (firstViewMarked) return;
  firstViewMarked = true;
  performance.mark('images:first-view');
}

/** Resolves once the browser has painted the next frame (or after a moment, in a hidden tab that paints none). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 250);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}

type FirstViewState = {
  /** The picture drawn until cornerstone's drawing replaces it; the viewport shows `canvas` while it is set. */
  preview: FirstViewPreview | null;
  canvas: RefObject<HTMLCanvasElement | null>;
  /** The file the first view downloaded, for cornerstone; null when cornerstone must download it. */
  takeFile(): Promise<ArrayBuffer | null>;
  /** cornerstone drew the image itself, or found it cannot be shown: the picture goes. */
  dismiss(): void;
};

/**
 * The first view (first-views.ts) of a viewport's first image: its picture, drawn into the
 * viewport's second canvas as cornerstone will hang the image, and its file, handed to cornerstone.
 * `serverId` null (offline) or an image cornerstone has already: no first view.
 */
export function useFirstView(serverId: string | null, imageId: string | null, slot: SlotName | null): FirstViewState {
  const [preview, setPreview] = useState<FirstViewPreview | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const view = useRef<FirstView | null>(null);
  const dismissed = useRef(false);

  useEffect(() => {
    const cornerstone = loadedCornerstone();
    const known = cornerstone !== null && imageId !== null && cornerstone.cornerstoneHasImage(imageId);
    const started = serverId && !known ? firstViewOf(serverId) : null;
    view.current = started;
    dismissed.current = false;
    let current = true;
    void started?.preview.then((picture) => {
      if (current && picture && !dismissed.current) setPreview(picture);
    });
    return () => {
      current = false;
    };
  }, [serverId, imageId]);

  // Drawn again whenever the box changes size (font scale, rotation), as cornerstone's canvas is.
  useEffect(() => {
    const target = canvas.current;
    if (!target || !preview) return;
    const draw = () => drawFirstView(target, preview, slotFlips(slot, preview.patientOrientation));
    draw();
    markFirstView();
    const observer = new ResizeObserver(draw);
    observer.observe(target);
    return () => observer.disconnect();
  }, [preview, slot]);

  const takeFile = useCallback(async () => {
    const started = view.current;
    if (!started) return null;
    const [file, picture] = await Promise.all([started.file, started.preview]);
    if (file && serverId) releaseFirstView(serverId);
    // cornerstone reads the file in one long task: the picture is drawn and on screen first.
    if (picture) await afterNextPaint();
    return file;
  }, [serverId]);
  const dismiss = useCallback(() => {
    dismissed.current = true;
    setPreview(null);
  }, []);
  return { preview, canvas, takeFile, dismiss };
}
