import { MAX_KNOWN_UIDS_PER_REQUEST } from '@common/types/upload';
import { NO_SKIPS, summarize, UNFINISHED, type Entry, type Status } from './run-entries';
import type { CheckedFile, RunDeps, RunPhase, RunSnapshot, SkipReason, TransferHandlers, UploadRun } from './run-types';
import { createSpeedMeter, secondsLeft } from './transfer-speed';

/**
 * One upload as the patient sees it, from the first pick to the summary: files join as the marker
 * scan passes them, are identified (SOP Instance UID), checked against what she already has, and
 * sent a few at a time. No React here: the page subscribes to snapshots, taken at most every
 * SNAPSHOT_EVERY_MS, so 5,000 files never mean 5,000 renders.
 */

/** Codes after which no file can get through: the session is gone. */
const ENDS_RUN = new Set(['UNAUTHENTICATED', 'PASSWORD_CHANGE_REQUIRED', 'INVALID_CSRF_TOKEN', 'COOKIES_BLOCKED']);
/** After a quota refusal the files not yet sent would all be refused too. */
const STOPS_REMAINING = 'UPLOAD_QUOTA_EXCEEDED';

const IDENTIFY_IN_FLIGHT = 4;
/**
 * Files identified ahead of the transfers at most. Reading a file's identity costs the scan's
 * worker a slice and a 64 kB read, as much as a marker check: racing the scan (hundreds of files a
 * second) would slow it down, following the transfers (tens a second) costs little. A re-picked
 * folder whose files are all stored still moves fast: each skip makes room for the next.
 */
const IDENTIFIED_AHEAD = 64;
/** The UIDs of one "known" question, quoted and separated: 1,000 UIDs of the longest kind would pass the API's 64 kB. */
const KNOWN_REQUEST_BYTES = 48 * 1024;
export const SNAPSHOT_EVERY_MS = 250;

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
    const summary = summarize(entries, skipCounts);
    const currentPhase = phase();
    if (currentPhase === 'running') speed.sample(transferredBytes, now());
    const perSecond = currentPhase === 'running' ? speed.bytesPerSecond() : null;
    return {
      run,
      phase: currentPhase,
      scan: scanning > 0 ? scanProgress : null,
      ...summary,
      bytesPerSecond: perSecond,
      secondsLeft: scanning > 0 ? null : secondsLeft(summary.bytes.total - summary.bytes.sent, perSecond),
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
