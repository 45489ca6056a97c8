import { MAX_KNOWN_UIDS_PER_REQUEST, type ResumableUploadOutcome, type UploadRefusalReason } from '@common/types/upload';
import type { DicomIdentity } from './dicom-identity';
import { createSpeedMeter, secondsLeft } from './transfer-speed';

/**
 * One upload as the patient sees it, from the first pick to the summary: files join as the marker
 * scan passes them, are identified (SOP Instance UID), checked against what she already has, and
 * sent a few at a time. No React here: the page subscribes to snapshots, taken at most every
 * SNAPSHOT_EVERY_MS, so 5,000 files never mean 5,000 renders.
 */

/** A file the marker scan passed, with its size and date as the scan's worker read them. */
export type CheckedFile = { file: File; path: string; size: number; lastModified: number };

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

/** Codes after which no file can get through: the session is gone. */
const ENDS_RUN = new Set(['UNAUTHENTICATED', 'PASSWORD_CHANGE_REQUIRED', 'INVALID_CSRF_TOKEN', 'COOKIES_BLOCKED']);
/** After a quota refusal the files not yet sent would all be refused too. */
const STOPS_REMAINING = 'UPLOAD_QUOTA_EXCEEDED';

const IDENTIFY_IN_FLIGHT = 4;
/**
 * Files identified ahead of the transfers at most. Reading a file's identity costs the page a
 * slice and a 64 kB read, as much as the marker scan itself: racing the scan (hundreds of files a
 * second) would double the page's work, following the transfers (tens a second) costs little. A
 * re-picked folder whose files are all stored still moves fast: each skip makes room for the next.
 */
const IDENTIFIED_AHEAD = 64;
/** The UIDs of one "known" question, quoted and separated: 1,000 UIDs of the longest kind would pass the API's 64 kB. */
const KNOWN_REQUEST_BYTES = 48 * 1024;
export const SNAPSHOT_EVERY_MS = 250;

type Status =
  | 'identifying'
  | 'checking' // waiting for the "known" answer
  | 'queued'
  | 'sending'
  | 'held' // a transfer stopped by a pause or a lost connection
  | 'stored'
  | 'duplicate'
  | 'refused'
  | 'failed'
  | 'skipped'
  | 'cancelled';

const UNFINISHED = new Set<Status>(['identifying', 'checking', 'queued', 'sending', 'held']);

type Entry = CheckedFile & {
  id: number;
  status: Status;
  sent: number;
  uid: string | null;
  skip?: SkipReason;
  refusal?: UploadRefusalReason;
  failure?: string;
  transfer?: Transfer;
};

/**
 * running: scanning, checking or sending; paused: by her; offline: waiting for the connection;
 * finished: nothing left; cancelled: by her; ended: the session ended (`endedBy` says how).
 */
export type RunPhase = 'running' | 'paused' | 'offline' | 'finished' | 'cancelled' | 'ended';

type ActiveFile = { id: number; path: string; size: number; sent: number };
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

const NO_SKIPS = (): Record<SkipReason, number> => ({
  alreadyStored: 0,
  notDicom: 0,
  unreadable: 0,
  dicomdir: 0,
  tooLarge: 0,
  duplicate: 0,
});

let runsCreated = 0;

export function createUploadRun(deps: RunDeps): UploadRun {
  const run = ++runsCreated;
  const now = deps.now ?? (() => performance.now());
  const entries: Entry[] = [];
  /** Files waiting to be sent, in pick order. */
  const queue: Entry[] = [];
  const waitingForIdentity: Entry[] = [];
  const waitingForKnown: Entry[] = [];
  const uidsSeen = new Set<string>();
  const skipCounts = NO_SKIPS();
  const speed = createSpeedMeter();
  let nextId = 1;
  let identifying = 0;
  let askingKnown = false;
  /** Files in the "known" question on its way. */
  let askingKnownFor = 0;
  let scanning = 0;
  let scanProgress: { done: number; total: number } | null = null;
  let userPaused = false;
  let online = true;
  let over: 'cancelled' | 'ended' | null = null;
  let stoppedBy: string | null = null;
  let transferredBytes = 0;
  let settledReported = false;

  const listeners = new Set<() => void>();
  let current: RunSnapshot | null = null;
  let emitTimer: ReturnType<typeof setTimeout> | null = null;

  /** Files not finished one way or another, and those of them on their way: kept as sets, so no event walks 5,000 files. */
  const unfinished = new Set<Entry>();
  const onTheirWay = new Set<Entry>();
  function setStatus(entry: Entry, status: Status): void {
    entry.status = status;
    if (UNFINISHED.has(status)) unfinished.add(entry);
    else unfinished.delete(entry);
    if (status === 'sending' || status === 'held') onTheirWay.add(entry);
    else onTheirWay.delete(entry);
  }

  function sending(): Entry[] {
    return [...onTheirWay].filter((entry) => entry.status === 'sending');
  }

  function phase(): RunPhase {
    if (over) return over;
    if (userPaused) return 'paused';
    if (!online) return 'offline';
    return busy() ? 'running' : 'finished';
  }

  function busy(): boolean {
    return scanning > 0 || unfinished.size > 0;
  }

  function build(): RunSnapshot {
    const files = { total: 0, finished: 0 };
    const bytes = { total: 0, sent: 0 };
    let stored = 0;
    const refused: FileProblem[] = [];
    const failed: FileProblem[] = [];
    const active: ActiveFile[] = [];
    for (const entry of entries) {
      if (entry.status === 'skipped' || entry.status === 'cancelled') continue;
      files.total++;
      if (entry.status === 'failed') {
        files.finished++;
        failed.push({ id: entry.id, path: entry.path, reason: entry.failure ?? 'UNKNOWN' });
        continue;
      }
      bytes.total += entry.size;
      bytes.sent += entry.sent;
      if (entry.status === 'stored') stored++;
      if (entry.status === 'refused') refused.push({ id: entry.id, path: entry.path, reason: entry.refusal ?? 'unreadable' });
      if (entry.status === 'stored' || entry.status === 'duplicate' || entry.status === 'refused') files.finished++;
      if (entry.status === 'sending' || entry.status === 'held')
        active.push({ id: entry.id, path: entry.path, size: entry.size, sent: entry.sent });
    }
    const skipped = { ...skipCounts, alreadyStored: skipCounts.alreadyStored + entries.filter((e) => e.status === 'duplicate').length };
    const currentPhase = phase();
    if (currentPhase === 'running') speed.sample(transferredBytes, now());
    const perSecond = currentPhase === 'running' ? speed.bytesPerSecond() : null;
    return {
      run,
      phase: currentPhase,
      scan: scanning > 0 ? scanProgress : null,
      files,
      bytes,
      stored,
      skipped,
      refused,
      failed,
      active,
      bytesPerSecond: perSecond,
      secondsLeft: scanning > 0 ? null : secondsLeft(bytes.total - bytes.sent, perSecond),
      stoppedBy,
    };
  }

  function flush(): void {
    if (emitTimer !== null) clearTimeout(emitTimer);
    emitTimer = null;
    current = build();
    for (const listener of listeners) listener();
    if (current.phase === 'finished' && !settledReported) {
      settledReported = true;
      deps.onSettled?.(current);
    }
  }

  /** `urgent`: a change she made or must hear of at once (pause, finish); progress waits its turn. */
  function changed(urgent = false): void {
    if (urgent) {
      flush();
      return;
    }
    emitTimer ??= setTimeout(flush, SNAPSHOT_EVERY_MS);
  }

  function finish(entry: Entry, status: Status): void {
    setStatus(entry, status);
    entry.transfer = undefined;
    if (status === 'stored' || status === 'duplicate' || status === 'refused') entry.sent = entry.size;
  }

  function skip(entry: Entry, reason: SkipReason): void {
    setStatus(entry, 'skipped');
    entry.skip = reason;
    skipCounts[reason]++;
  }

  function fail(entry: Entry, code: string): void {
    entry.sent = 0;
    entry.failure = code;
    finish(entry, 'failed');
  }

  function canSend(): boolean {
    return !over && !userPaused && online && stoppedBy === null;
  }

  /** The session is gone: nothing more can be sent. What the server has stays for a resume after signing in. */
  function endRun(code: string): void {
    if (over) return;
    over = 'ended';
    stoppedBy = code;
    for (const entry of [...unfinished]) {
      entry.transfer?.stop();
      fail(entry, code);
    }
    queue.length = 0;
    waitingForIdentity.length = 0;
    waitingForKnown.length = 0;
    changed(true);
  }

  /** The quota is full: the files not on their way now are not sent; those on their way fit (the server reserved their bytes). */
  function stopRemaining(code: string): void {
    stoppedBy = code;
    for (const entry of queue.splice(0)) fail(entry, code);
    for (const entry of waitingForIdentity.splice(0)) fail(entry, code);
    for (const entry of waitingForKnown.splice(0)) fail(entry, code);
    for (const entry of entries) if (entry.status === 'identifying' || entry.status === 'checking') fail(entry, code);
    changed(true);
  }

  function handlersFor(entry: Entry): TransferHandlers {
    const stillOurs = () => entry.status === 'sending' && !over;
    return {
      onProgress: (sentBytes) => {
        if (!stillOurs()) return;
        if (sentBytes > entry.sent) {
          transferredBytes += sentBytes - entry.sent;
          entry.sent = Math.min(sentBytes, entry.size);
        }
        changed();
      },
      onDone: (result) => {
        if (!stillOurs()) return;
        if (result.outcome === 'refused') {
          entry.refusal = result.reason;
          finish(entry, 'refused');
        } else {
          finish(entry, result.outcome);
        }
        pump();
        changed();
      },
      onFailed: (failure) => {
        if (!stillOurs()) return;
        if (ENDS_RUN.has(failure.code)) {
          endRun(failure.code);
          return;
        }
        if (failure.offline) {
          // Not her file's fault: it waits at the head of the queue for the connection.
          setStatus(entry, 'held');
          setOnline(false);
          return;
        }
        fail(entry, failure.code);
        if (failure.code === STOPS_REMAINING) stopRemaining(failure.code);
        pump();
        changed();
      },
    };
  }

  function pump(): void {
    if (canSend()) {
      let inFlight = sending().length;
      while (inFlight < deps.concurrency && queue.length > 0) {
        const entry = queue.shift()!;
        setStatus(entry, 'sending');
        inFlight++;
        entry.transfer = deps.startTransfer(entry, handlersFor(entry));
      }
    }
    identifyMore();
    askKnownMore();
    if (!busy()) changed(true);
  }

  function identifyMore(): void {
    const ahead = () => identifying + waitingForKnown.length + askingKnownFor + queue.length;
    while (identifying < IDENTIFY_IN_FLIGHT && ahead() < IDENTIFIED_AHEAD && waitingForIdentity.length > 0 && !over && stoppedBy === null) {
      const entry = waitingForIdentity.shift()!;
      identifying++;
      deps
        .identify(entry)
        .catch(() => ({ sopInstanceUid: null, dicomdir: false }))
        .then((identity) => {
          identifying--;
          if (entry.status !== 'identifying') return; // stopped or cancelled meanwhile
          if (identity.dicomdir) skip(entry, 'dicomdir');
          else if (identity.sopInstanceUid && uidsSeen.has(identity.sopInstanceUid)) skip(entry, 'duplicate');
          else if (identity.sopInstanceUid) {
            uidsSeen.add(identity.sopInstanceUid);
            entry.uid = identity.sopInstanceUid;
            setStatus(entry, 'checking');
            waitingForKnown.push(entry);
          } else {
            // No UID to ask about: the server decides (and refuses it if the header is damaged).
            setStatus(entry, 'queued');
            queue.push(entry);
          }
          pump();
          changed();
        });
    }
  }

  /** One question at a time, with every UID read meanwhile: the first goes alone, so the first byte leaves soon. */
  function askKnownMore(): void {
    if (askingKnown || waitingForKnown.length === 0 || over) return;
    // At most the contract's count, and a JSON body well under the API's 64 kB body limit.
    let count = 0;
    for (let bytes = 0; count < Math.min(waitingForKnown.length, MAX_KNOWN_UIDS_PER_REQUEST); count++) {
      bytes += waitingForKnown[count]!.uid!.length + 3;
      if (bytes > KNOWN_REQUEST_BYTES) break;
    }
    const batch = waitingForKnown.splice(0, Math.max(1, count));
    askingKnown = true;
    askingKnownFor = batch.length;
    deps.askKnown(batch.map((entry) => entry.uid!)).then(
      (known) => {
        askingKnown = false;
        askingKnownFor = 0;
        for (const entry of batch) {
          if (entry.status !== 'checking') continue;
          if (known.has(entry.uid!)) {
            skip(entry, 'alreadyStored');
            deps.forgetResume(entry).catch(() => {});
          } else {
            setStatus(entry, 'queued');
            queue.push(entry);
          }
        }
        pump();
        changed();
      },
      (error: unknown) => {
        askingKnown = false;
        askingKnownFor = 0;
        const code = (error as { code?: unknown } | null)?.code;
        if (typeof code === 'string' && ENDS_RUN.has(code)) {
          endRun(code);
          return;
        }
        // The question failed (a lost connection, a server error): send them all the same; the
        // server stores each image once anyway.
        for (const entry of batch) {
          if (entry.status !== 'checking') continue;
          setStatus(entry, 'queued');
          queue.push(entry);
        }
        pump();
        changed();
      },
    );
  }

  function addChecked(files: readonly CheckedFile[], counts?: { notDicom: number; unreadable: number }): void {
    if (over) return;
    if (counts) {
      skipCounts.notDicom += counts.notDicom;
      skipCounts.unreadable += counts.unreadable;
    }
    for (const file of files) {
      const entry: Entry = { ...file, id: nextId++, status: 'identifying', sent: 0, uid: null };
      entries.push(entry);
      setStatus(entry, 'identifying');
      if (file.size > deps.maxFileBytes) skip(entry, 'tooLarge');
      else if (stoppedBy !== null) fail(entry, stoppedBy);
      else waitingForIdentity.push(entry);
    }
    settledReported = false;
    pump();
    changed();
  }

  function holdAll(): void {
    for (const entry of sending()) {
      setStatus(entry, 'held');
      entry.transfer?.stop();
    }
    speed.restart();
  }

  function restartHeld(): void {
    if (!canSend()) return;
    for (const entry of entries) {
      if (entry.status !== 'held') continue;
      setStatus(entry, 'sending');
      if (entry.transfer) entry.transfer.restart();
      else entry.transfer = deps.startTransfer(entry, handlersFor(entry));
    }
  }

  function setOnline(isOnline: boolean): void {
    if (online === isOnline || over) return;
    online = isOnline;
    if (isOnline) {
      restartHeld();
      pump();
    } else {
      holdAll();
    }
    changed(true);
  }

  return {
    addChecked,
    scanStarted() {
      scanning++;
      settledReported = false;
      changed(true);
    },
    scanProgress(done, total) {
      scanProgress = { done, total };
      changed();
    },
    scanEnded() {
      scanning = Math.max(0, scanning - 1);
      if (scanning === 0) scanProgress = null;
      pump();
      changed(true);
    },
    pause() {
      if (over || userPaused) return;
      userPaused = true;
      holdAll();
      changed(true);
    },
    resume() {
      if (over || !userPaused) return;
      userPaused = false;
      restartHeld();
      pump();
      changed(true);
    },
    async cancel() {
      if (over) return;
      over = 'cancelled';
      const deletions: Promise<void>[] = [];
      for (const entry of entries) {
        if (entry.status === 'sending' || entry.status === 'held') {
          if (entry.transfer) deletions.push(entry.transfer.cancel().catch(() => {}));
          entry.sent = 0;
          finish(entry, 'cancelled');
        } else if (entry.status === 'queued' || entry.status === 'checking' || entry.status === 'identifying') {
          // A part sent before a reload may wait on the server: it goes too.
          deletions.push(deps.discardResume(entry).catch(() => {}));
          finish(entry, 'cancelled');
        }
      }
      queue.length = 0;
      waitingForIdentity.length = 0;
      waitingForKnown.length = 0;
      changed(true);
      await Promise.all(deletions);
    },
    retryFailed() {
      if (over === 'ended') return;
      over = null;
      stoppedBy = null;
      for (const entry of entries) {
        if (entry.status !== 'failed') continue;
        entry.failure = undefined;
        setStatus(entry, 'queued');
        queue.push(entry);
      }
      settledReported = false;
      pump();
      changed(true);
    },
    setOnline,
    dispose() {
      for (const entry of entries) entry.transfer?.stop();
      over ??= 'cancelled';
      if (emitTimer !== null) clearTimeout(emitTimer);
      listeners.clear();
    },
    isOver: () => over !== null || phase() === 'finished',
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot() {
      current ??= build();
      return current;
    },
  };
}
