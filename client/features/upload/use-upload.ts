import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { UploadLimits } from '@common/types/upload';
import { notify } from '../../stores/notification-store';
import { createMarkerScanner, type MarkerScanner } from './marker-scanner';
import type { PickedFile } from './picked-files';
import { addSkips, admitPicked, NO_SKIPS, totalBytes, type SelectedFile, type SkippedCounts } from './selection';
import { planBatches } from './upload-batches';
import { sendInBatches, type UploadReport } from './upload-sender';

type Progress = { done: number; total: number };
/** reading: walking folders (progress null) and checking markers; sending: batches on their way. */
type UploadPhase = { name: 'idle' } | { name: 'reading'; progress: Progress | null } | { name: 'sending'; progress: Progress };

export type Upload = {
  files: SelectedFile[];
  skipped: SkippedCounts;
  phase: UploadPhase;
  /** What the last send did; cleared when new files are picked. */
  report: UploadReport | null;
  add: (picked: PickedFile[] | Promise<PickedFile[]>) => Promise<void>;
  remove: (id: string) => void;
  clear: () => void;
  send: () => Promise<void>;
};

/** Progress shown at most every PROGRESS_EVERY_MS: each update renders the page, hundreds of batches must not. */
const PROGRESS_EVERY_MS = 100;

function everyFewFrames(show: (done: number, total: number) => void): (done: number, total: number) => void {
  let shownAt = -Infinity;
  return (done, total) => {
    const now = performance.now();
    if (done < total && now - shownAt < PROGRESS_EVERY_MS) return;
    shownAt = now;
    startTransition(() => show(done, total));
  };
}

/** The file list of the upload page, from picking through the marker scan to the sent report. */
export function useUpload(limits: UploadLimits | null, onSent: () => void): Upload {
  const [files, setFiles] = useState<SelectedFile[]>([]);
  const [skipped, setSkipped] = useState<SkippedCounts>(NO_SKIPS);
  const [phase, setPhase] = useState<UploadPhase>({ name: 'idle' });
  const [report, setReport] = useState<UploadReport | null>(null);
  const scanner = useRef<MarkerScanner | null>(null);
  const sending = useRef<AbortController | null>(null);

  useEffect(() => {
    // Started with the page: the worker's script is loaded and running before the first pick.
    const started = createMarkerScanner();
    scanner.current = started;
    return () => {
      // Leaving the page ends the worker and any request still on its way.
      started.dispose();
      scanner.current = null;
      sending.current?.abort();
    };
  }, []);

  const add = useCallback(
    async (picked: PickedFile[] | Promise<PickedFile[]>) => {
      const worker = scanner.current;
      if (!limits || !worker) return;
      setPhase({ name: 'reading', progress: null });
      setReport(null);
      try {
        const scan = await worker.scan(
          await picked,
          everyFewFrames((done, total) => setPhase({ name: 'reading', progress: { done, total } })),
        );
        // The sizes and dates come from the worker: asking thousands of Files for them here would
        // freeze the page, as would sorting thousands of paths.
        const { candidates, tooLarge } = admitPicked(scan.dicom, files, limits);
        const merged = [...files, ...candidates];
        const order = await worker.order(merged.map((file) => file.path));
        // A transition: React renders the long list in slices instead of one long task, and the
        // pickers come back together with the list.
        startTransition(() => {
          setFiles(Array.from(order, (index) => merged[index]!));
          setSkipped((current) => addSkips(current, { tooLarge, notDicom: scan.notDicom, unreadable: scan.unreadable }));
          setPhase({ name: 'idle' });
        });
      } catch {
        // A folder the browser would not let us read, or a worker that failed to start.
        notify({ kind: 'error', key: 'upload.readFailed' });
        setPhase({ name: 'idle' });
      }
    },
    // Pickers are disabled while reading, so `files` cannot change under a running scan.
    [limits, files],
  );

  const clear = useCallback(() => {
    setFiles([]);
    setSkipped(NO_SKIPS);
  }, []);

  const send = useCallback(async () => {
    const toSend = files;
    if (!limits || toSend.length === 0) return;
    const controller = new AbortController();
    sending.current = controller;
    setPhase({ name: 'sending', progress: { done: 0, total: totalBytes(toSend) } });
    try {
      const result = await sendInBatches(planBatches(toSend, limits), {
        signal: controller.signal,
        onProgress: (done, total) => setPhase({ name: 'sending', progress: { done, total } }),
      });
      setReport(result);
      const succeeded = result.failed.length === 0 && result.stored + result.duplicates > 0;
      notify({ kind: succeeded ? 'success' : 'error', key: succeeded ? 'upload.success' : 'upload.failure' });
    } catch {
      if (controller.signal.aborted) return; // the page is gone
      notify({ kind: 'error', key: 'upload.failure' });
    } finally {
      // Spec section 4: the list is emptied whatever the result; the report tells what happened.
      if (!controller.signal.aborted) {
        clear();
        setPhase({ name: 'idle' });
        onSent();
      }
      sending.current = null;
    }
  }, [limits, files, clear, onSent]);

  const remove = useCallback((id: string) => setFiles((current) => current.filter((file) => file.id !== id)), []);

  return { files, skipped, phase, report, add, remove, clear, send };
}
