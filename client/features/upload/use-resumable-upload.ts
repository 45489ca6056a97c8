import { startTransition, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { KnownInstancesRequest, KnownInstancesResponse, UploadLimits } from '@common/types/upload';
import { api } from '../../lib/api';
import { yieldToPage } from '../../lib/yield-to-page';
import { notify } from '../../stores/notification-store';
import { session } from '../../stores/session-store';
import { createMarkerScanner, type MarkerScanner } from './marker-scanner';
import type { PickedFile } from './picked-files';
import { ResumeStorage, resumeFingerprint } from './resume-storage';
import {
  CsrfToken,
  discardStoredUpload,
  forgetStoredUpload,
  reportBatch,
  startTusTransfer,
  UPLOADS_PATH,
  type TusContext,
} from './tus-transfer';
import type { RunSnapshot, UploadRun } from './run-types';
import { createUploadRun } from './upload-run';

/**
 * Files sent at once. Several requests keep the uplink busy between the small files of a disc
 * (each waits for the server's check of its last byte); more only share the same bandwidth.
 */
const FILES_IN_FLIGHT = 4;

type ResumableUpload = {
  /** null before the first pick. */
  snapshot: RunSnapshot | null;
  /** The marker scan of a pick is running: the pickers wait for it. */
  scanning: boolean;
  pick: (picked: PickedFile[] | Promise<PickedFile[]>) => Promise<void>;
  pause: () => void;
  resume: () => void;
  cancel: () => void;
  retryFailed: () => void;
};

const noSubscription = () => () => {};
const noSnapshot = () => null;

function tusContext(): TusContext {
  const storage = new ResumeStorage();
  storage.dropExpired();
  const csrf = new CsrfToken();
  // Asked for now, not at the first pick: the first file's requests then wait for nothing (api.ts adopts it too).
  csrf.get().catch(() => {});
  return {
    storage,
    csrf,
    endpoint: new URL(`/api${UPLOADS_PATH}`, window.location.origin).href,
    fingerprint: async (file) => {
      const userId = session.user?.id;
      return typeof userId === 'number' ? resumeFingerprint(userId, file) : null;
    },
  };
}

/** The upload page's run: picking starts it, files go out as soon as the marker check passes them. */
export function useResumableUpload(limits: UploadLimits | null, onSettled: () => void): ResumableUpload {
  const [run, setRun] = useState<UploadRun | null>(null);
  const [scanning, setScanning] = useState(false);
  const scanner = useRef<MarkerScanner | null>(null);
  const context = useRef<TusContext | null>(null);
  const runRef = useRef<UploadRun | null>(null);
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  }, [onSettled]);

  useEffect(() => {
    // Started with the page: the worker's script is loaded and running before the first pick.
    const started = createMarkerScanner();
    scanner.current = started;
    context.current = tusContext();
    const onlineChanged = () => runRef.current?.setOnline(navigator.onLine);
    window.addEventListener('online', onlineChanged);
    window.addEventListener('offline', onlineChanged);
    return () => {
      window.removeEventListener('online', onlineChanged);
      window.removeEventListener('offline', onlineChanged);
      // Leaving the page stops the transfers; the server keeps their bytes for a later pick.
      started.dispose();
      scanner.current = null;
      runRef.current?.dispose();
      runRef.current = null;
    };
  }, []);

  const newRun = useCallback((maxFileBytes: number, tus: TusContext, reader: MarkerScanner): UploadRun => {
    const batch = crypto.randomUUID();
    const created = createUploadRun({
      maxFileBytes,
      concurrency: FILES_IN_FLIGHT,
      identify: (file) => reader.identify(file),
      askKnown: async (uids) => {
        const request: KnownInstancesRequest = { sopInstanceUids: uids };
        const { known } = await api.post<KnownInstancesResponse>(`${UPLOADS_PATH}/known`, request);
        return new Set(known);
      },
      startTransfer: (file, handlers) => startTusTransfer(tus, file, handlers, batch),
      forgetResume: (file) => forgetStoredUpload(tus, file),
      discardResume: (file) => discardStoredUpload(tus, file),
      onSettled: (snapshot) => {
        reportBatch(batch);
        const succeeded = snapshot.failed.length === 0 && snapshot.files.total + snapshot.skipped.alreadyStored > 0;
        notify({ kind: succeeded ? 'success' : 'error', key: succeeded ? 'upload.success' : 'upload.failure' });
        settled.current();
      },
    });
    if (!navigator.onLine) created.setOnline(false);
    return created;
  }, []);

  const pick = useCallback(
    async (picked: PickedFile[] | Promise<PickedFile[]>) => {
      // The pick's event ends first, and the progress panel's first render (cold code, tens of ms
      // on a busy tablet) is a transition: React renders it in slices between the scan's posts.
      await yieldToPage();
      const worker = scanner.current;
      const tus = context.current;
      if (!limits || !worker || !tus) return;
      // A pick while files are still on their way joins them; after the summary it starts afresh.
      let target = runRef.current;
      if (!target || target.isOver()) {
        target?.dispose();
        target = newRun(limits.maxFileBytes, tus, worker);
        runRef.current = target;
        const created = target;
        startTransition(() => setRun(created));
      }
      const into = target;
      into.scanStarted();
      startTransition(() => setScanning(true));
      try {
        await worker.scan(await picked, {
          onChecked: (dicom, counts) => into.addChecked(dicom, counts),
          onProgress: (done, total) => into.scanProgress(done, total),
        });
      } catch {
        // A folder the browser would not let us read, or a worker that failed to start.
        notify({ kind: 'error', key: 'upload.readFailed' });
      } finally {
        into.scanEnded();
        setScanning(false);
      }
    },
    [limits, newRun],
  );

  const snapshot = useSyncExternalStore(run?.subscribe ?? noSubscription, run?.snapshot ?? noSnapshot);
  return {
    snapshot,
    scanning,
    pick,
    pause: useCallback(() => runRef.current?.pause(), []),
    resume: useCallback(() => runRef.current?.resume(), []),
    cancel: useCallback(() => void runRef.current?.cancel(), []),
    retryFailed: useCallback(() => runRef.current?.retryFailed(), []),
  };
}
