import type { ResumableUploadOutcome } from '@common/types/upload';
import type { DicomIdentity } from '../../workers/dicom-identity';

/** What an upload run (upload-run.ts) takes, gives and shows: shared by the page, the transfers and their tests. */

/**
 * A file the marker scan passed, with its size and date as the scan's worker read them, and the
 * key the worker holds it under for reading its identity (marker-scanner.ts).
 */
export type CheckedFile = { file: File; path: string; size: number; lastModified: number; scanKey?: number };

/** Why a file was not sent at all. */
export type SkipReason = 'alreadyStored' | 'notDicom' | 'unreadable' | 'dicomdir' | 'tooLarge' | 'duplicate';
export const SKIP_REASONS: readonly SkipReason[] = ['alreadyStored', 'duplicate', 'dicomdir', 'notDicom', 'unreadable', 'tooLarge'];

export type TransferOutcome = ResumableUploadOutcome;
/** `code`: a docs/api.md error code or a client one (NETWORK, FILE_UNREADABLE); `offline` when the browser had no connection. */
export type TransferFailure = { code: string; offline?: boolean };
export type TransferHandlers = {
  /** Bytes of this file the server has or is receiving. */
  onProgress: (sentBytes: number) => void;
  onDone: (outcome: TransferOutcome) => void;
  onFailed: (failure: TransferFailure) => void;
};
/** One file on its way (tus-transfer.ts): `stop` keeps what the server has, `cancel` deletes it there. */
export type Transfer = { stop(): void; restart(): void; cancel(): Promise<void> };

export type RunDeps = {
  maxFileBytes: number;
  /** Files sent at once. */
  concurrency: number;
  identify: (file: CheckedFile) => Promise<DicomIdentity>;
  /** Those of `uids` already stored for her (POST /dicom/uploads/known); throws like api.ts. */
  askKnown: (uids: string[]) => Promise<ReadonlySet<string>>;
  startTransfer: (file: CheckedFile, handlers: TransferHandlers) => Transfer;
  /** A file found already stored: what the device remembers to resume it is of no use any more. */
  forgetResume: (file: CheckedFile) => Promise<void>;
  /** Cancel: a partial upload of this file from before (a reload) is deleted on the server. */
  discardResume: (file: CheckedFile) => Promise<void>;
  /** Each time nothing is left to do (also again after "try again"). */
  onSettled?: (snapshot: RunSnapshot) => void;
  now?: () => number;
};

/**
 * running: scanning, checking or sending; paused: by her; offline: waiting for the connection;
 * finished: nothing left; cancelled: by her; ended: the session ended (`endedBy` says how).
 */
export type RunPhase = 'running' | 'paused' | 'offline' | 'finished' | 'cancelled' | 'ended';

export type ActiveFile = { id: number; path: string; size: number; sent: number };
export type FileProblem = { id: number; path: string; reason: string };

export type RunSnapshot = {
  /** Tells one run from the next: a new pick after a summary starts afresh. */
  run: number;
  phase: RunPhase;
  /** Files the marker scan checked of those picked; null when no scan runs. */
  scan: { done: number; total: number } | null;
  /** Files to send (not skipped) and those of them finished, whatever the result. */
  files: { total: number; finished: number };
  /** Bytes of the files to send, and of them at the server. Failed files count in neither. */
  bytes: { total: number; sent: number };
  stored: number;
  skipped: Record<SkipReason, number>;
  refused: FileProblem[];
  failed: FileProblem[];
  active: ActiveFile[];
  bytesPerSecond: number | null;
  secondsLeft: number | null;
  /** The code that stopped the files not yet sent (quota) or ended the run (session). */
  stoppedBy: string | null;
};

export type UploadRun = {
  /** Files that passed the marker check, and the scan's counts of those it refused. */
  addChecked(files: readonly CheckedFile[], counts?: { notDicom: number; unreadable: number }): void;
  /** From the pick on, before the scan's first batch: the run must not look finished meanwhile. */
  scanStarted(): void;
  scanProgress(done: number, total: number): void;
  scanEnded(): void;
  pause(): void;
  resume(): void;
  cancel(): Promise<void>;
  retryFailed(): void;
  setOnline(online: boolean): void;
  /** Leaving the page: every transfer stops, the server keeps what it has for a later resume. */
  dispose(): void;
  /** A run that is over takes no more files; the next pick starts a new one. */
  isOver(): boolean;
  subscribe(listener: () => void): () => void;
  snapshot(): RunSnapshot;
};
