import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DicomIdentity } from '../../workers/dicom-identity';
import type { CheckedFile, RunDeps, RunSnapshot, Transfer, TransferHandlers } from './run-types';
import { createUploadRun, SNAPSHOT_EVERY_MS } from './upload-run';

type FakeTransfer = Transfer & { file: CheckedFile; handlers: TransferHandlers; calls: string[] };

/** A run whose identities, "known" answers and transfers the test decides. */
function harness(overrides: Partial<RunDeps> = {}, options: { known?: string[]; uidOf?: (file: CheckedFile) => DicomIdentity } = {}) {
  const transfers: FakeTransfer[] = [];
  const askedKnown: string[][] = [];
  const forgotten: string[] = [];
  const discarded: string[] = [];
  const settled: RunSnapshot[] = [];
  const uidOf =
    options.uidOf ??
    ((file: CheckedFile) =>
      file.path.endsWith('DICOMDIR')
        ? { sopInstanceUid: null, dicomdir: true }
        : { sopInstanceUid: `1.2.${file.path.replace(/\D/g, '')}`, dicomdir: false });
  const run = createUploadRun({
    maxFileBytes: 1_000,
    concurrency: 2,
    identify: async (file) => uidOf(file),
    askKnown: async (uids) => {
      askedKnown.push(uids);
      return new Set(uids.filter((uid) => options.known?.includes(uid)));
    },
    startTransfer: (file, handlers) => {
      const transfer: FakeTransfer = {
        file,
        handlers,
        calls: [],
        stop: () => transfer.calls.push('stop'),
        restart: () => transfer.calls.push('restart'),
        cancel: async () => {
          transfer.calls.push('cancel');
        },
      };
      transfers.push(transfer);
      return transfer;
    },
    forgetResume: async (file) => {
      forgotten.push(file.path);
    },
    discardResume: async (file) => {
      discarded.push(file.path);
    },
    onSettled: (snapshot) => settled.push(snapshot),
    ...overrides,
  });
  const sendingPaths = () => transfers.filter((transfer) => !transfer.calls.includes('done')).map((transfer) => transfer.file.path);
  const finish = (path: string, outcome: Parameters<TransferHandlers['onDone']>[0] = { outcome: 'stored' }) => {
    const transfer = transfers.find((candidate) => candidate.file.path === path && !candidate.calls.includes('done'))!;
    transfer.calls.push('done');
    transfer.handlers.onProgress(transfer.file.size);
    transfer.handlers.onDone(outcome);
  };
  return { run, transfers, askedKnown, forgotten, discarded, settled, sendingPaths, finish };
}

function checked(path: string, size = 100): CheckedFile {
  return { file: new File([], path), path, size, lastModified: 1 };
}

/** Lets the identify and known promises settle. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('an upload run', () => {
  it('sends checked files as they come, a few at a time, and skips what needs no sending', async () => {
    const h = harness({}, { known: ['1.2.3'] });
    h.run.scanStarted();
    h.run.addChecked([checked('disc/IM1')], { notDicom: 2, unreadable: 0 });
    await settle();
    // The first file went out alone: it did not wait for the rest of the scan.
    expect(h.sendingPaths()).toEqual(['disc/IM1']);
    expect(h.askedKnown).toEqual([['1.2.1']]);

    h.run.addChecked(
      [
        checked('disc/IM2'),
        checked('disc/IM3'),
        checked('disc/IM4'),
        checked('disc/DICOMDIR'),
        checked('disc/big5', 5_000),
        checked('copy/IM2'),
      ],
      { notDicom: 1, unreadable: 1 },
    );
    h.run.scanEnded();
    await settle();
    // One question at a time, each with the UIDs read meanwhile; the copy of IM2 is not asked about.
    expect(h.askedKnown.flat()).toEqual(['1.2.1', '1.2.2', '1.2.3', '1.2.4']);
    expect(h.forgotten).toEqual(['disc/IM3']);
    expect(h.sendingPaths()).toEqual(['disc/IM1', 'disc/IM2']); // two at a time

    h.finish('disc/IM1');
    expect(h.sendingPaths()).toEqual(['disc/IM2', 'disc/IM4']);
    h.finish('disc/IM2', { outcome: 'duplicate' });
    h.finish('disc/IM4', { outcome: 'refused', reason: 'unreadable' });
    await vi.advanceTimersByTimeAsync(SNAPSHOT_EVERY_MS);

    const summary = h.run.snapshot();
    expect(summary.phase).toBe('finished');
    expect(summary.files).toEqual({ total: 3, finished: 3 });
    expect(summary.bytes).toEqual({ total: 300, sent: 300 });
    expect(summary.stored).toBe(1);
    expect(summary.skipped).toEqual({ alreadyStored: 2, duplicate: 1, dicomdir: 1, notDicom: 3, unreadable: 1, tooLarge: 1 });
    expect(summary.refused).toEqual([{ id: expect.any(Number), path: 'disc/IM4', reason: 'unreadable' }]);
    expect(summary.failed).toEqual([]);
    expect(h.settled).toHaveLength(1);
    expect(h.run.isOver()).toBe(true);
  });

  it('sends a file whose UID cannot be read without asking, so the server can say why it refuses it', async () => {
    const h = harness({}, { uidOf: () => ({ sopInstanceUid: null, dicomdir: false }) });
    h.run.addChecked([checked('broken')]);
    await settle();
    expect(h.askedKnown).toEqual([]);
    expect(h.sendingPaths()).toEqual(['broken']);
  });

  it('sends everything when the "known" question fails, and ends when the session is gone', async () => {
    const failing = harness({ askKnown: () => Promise.reject({ code: 'INTERNAL' }) });
    failing.run.addChecked([checked('a1'), checked('a2')]);
    await settle();
    expect(failing.sendingPaths()).toEqual(['a1', 'a2']);

    const ended = harness({ askKnown: () => Promise.reject({ code: 'UNAUTHENTICATED' }) });
    ended.run.addChecked([checked('b1')]);
    await settle();
    expect(ended.run.snapshot()).toMatchObject({ phase: 'ended', stoppedBy: 'UNAUTHENTICATED' });
    expect(ended.run.snapshot().failed.map((problem) => problem.reason)).toEqual(['UNAUTHENTICATED']);
  });

  it('stops the files not yet sent after a quota refusal, lets those on their way finish, and tries the failed ones again', async () => {
    const h = harness();
    h.run.addChecked([checked('f1'), checked('f2'), checked('f3'), checked('f4')]);
    await settle();
    expect(h.sendingPaths()).toEqual(['f1', 'f2']);
    const first = h.transfers[0]!;
    first.calls.push('done');
    first.handlers.onFailed({ code: 'UPLOAD_QUOTA_EXCEEDED' });
    expect(h.sendingPaths()).toEqual(['f2']); // nothing new starts
    h.run.addChecked([checked('f5')]);
    h.finish('f2');
    await settle();
    let snapshot = h.run.snapshot();
    expect(snapshot.phase).toBe('finished');
    expect(snapshot.stoppedBy).toBe('UPLOAD_QUOTA_EXCEEDED');
    expect(snapshot.stored).toBe(1);
    expect(snapshot.failed.map((problem) => [problem.path, problem.reason])).toEqual([
      ['f1', 'UPLOAD_QUOTA_EXCEEDED'],
      ['f3', 'UPLOAD_QUOTA_EXCEEDED'],
      ['f4', 'UPLOAD_QUOTA_EXCEEDED'],
      ['f5', 'UPLOAD_QUOTA_EXCEEDED'],
    ]);
    expect(h.settled).toHaveLength(1);

    h.run.retryFailed();
    expect(h.sendingPaths()).toEqual(['f1', 'f3']);
    snapshot = h.run.snapshot();
    expect(snapshot).toMatchObject({ phase: 'running', stoppedBy: null, failed: [] });
  });

  it('holds the transfers while paused or offline and goes on afterwards', async () => {
    const h = harness();
    h.run.addChecked([checked('p1'), checked('p2'), checked('p3')]);
    await settle();
    h.run.pause();
    expect(h.run.snapshot().phase).toBe('paused');
    expect(h.transfers.map((transfer) => transfer.calls)).toEqual([['stop'], ['stop']]);
    h.run.resume();
    expect(h.transfers.map((transfer) => transfer.calls)).toEqual([
      ['stop', 'restart'],
      ['stop', 'restart'],
    ]);

    // The connection drops: the failing transfer and the other one wait; nothing new starts.
    h.transfers[0]!.handlers.onFailed({ code: 'NETWORK', offline: true });
    expect(h.run.snapshot().phase).toBe('offline');
    expect(h.transfers[1]!.calls).toEqual(['stop', 'restart', 'stop']);
    h.run.setOnline(true);
    expect(h.run.snapshot().phase).toBe('running');
    expect(h.transfers.map((transfer) => transfer.calls.at(-1))).toEqual(['restart', 'restart']);
    expect(h.transfers).toHaveLength(2);
    expect(h.run.snapshot().failed).toEqual([]);
  });

  it('cancels: DELETE for those on their way, and for parts of queued files sent before a reload', async () => {
    const h = harness();
    h.run.addChecked([checked('c1'), checked('c2'), checked('c3')]);
    await settle();
    h.finish('c1');
    await h.run.cancel();
    expect(h.transfers.map((transfer) => transfer.calls.at(-1))).toEqual(['done', 'cancel', 'cancel']);
    h.run.addChecked([checked('c4')]);
    const snapshot = h.run.snapshot();
    expect(snapshot.phase).toBe('cancelled');
    expect(snapshot.stored).toBe(1);
    expect(snapshot.files.total).toBe(1);
    expect(h.run.isOver()).toBe(true);

    const queued = harness({ concurrency: 1 });
    queued.run.addChecked([checked('q1'), checked('q2')]);
    await settle();
    await queued.run.cancel();
    expect(queued.discarded).toEqual(['q2']);
  });

  it('ends the run when the session expires mid-transfer, keeping what the server has', async () => {
    const h = harness();
    h.run.addChecked([checked('s1'), checked('s2'), checked('s3')]);
    await settle();
    h.transfers[0]!.handlers.onFailed({ code: 'UNAUTHENTICATED' });
    const snapshot = h.run.snapshot();
    expect(snapshot).toMatchObject({ phase: 'ended', stoppedBy: 'UNAUTHENTICATED' });
    expect(snapshot.failed).toHaveLength(3);
    expect(h.transfers[1]!.calls).toEqual(['stop']);
    h.run.retryFailed();
    expect(h.run.snapshot().phase).toBe('ended');
  });

  it('publishes progress at most every SNAPSHOT_EVERY_MS, and phase changes at once', async () => {
    const h = harness();
    const heard: RunSnapshot[] = [];
    h.run.subscribe(() => heard.push(h.run.snapshot()));
    h.run.addChecked([checked('t1', 1_000)]);
    await settle();
    heard.length = 0;
    for (let sent = 1; sent <= 100; sent++) h.transfers[0]!.handlers.onProgress(sent * 5);
    expect(heard).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(SNAPSHOT_EVERY_MS);
    expect(heard.map((snapshot) => snapshot.bytes)).toEqual([{ total: 1_000, sent: 500 }]);
    expect(heard[0]!.active).toEqual([{ id: expect.any(Number), path: 't1', size: 1_000, sent: 500 }]);
    h.run.pause();
    expect(heard.at(-1)!.phase).toBe('paused');
  });
});

describe('the "known" questions', () => {
  it('follow the transfers instead of racing the scan, and stay under the API body limit with the longest UIDs', async () => {
    const longUid = (n: number) => `1.2.${'3'.repeat(49)}.${1e9 + n}`; // 64 characters
    const asked: string[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = harness(
      {
        concurrency: 1,
        askKnown: async (uids) => {
          asked.push(uids);
          await gate;
          return new Set();
        },
      },
      { uidOf: (file) => ({ sopInstanceUid: longUid(Number(file.path)), dicomdir: false }) },
    );
    h.run.addChecked(Array.from({ length: 1_500 }, (_, index) => checked(String(index))));
    for (let round = 0; round < 1_000; round++) await settle();
    // Nothing is sent while the first question waits: no more than 64 files are read ahead.
    expect(asked.flat().length).toBeGreaterThan(0);
    expect(asked.flat().length).toBeLessThanOrEqual(64);
    release();
    for (let round = 0; round < 1_000; round++) await settle();
    const sizes = asked.map((uids) => JSON.stringify({ sopInstanceUids: uids }).length);
    expect(Math.max(...asked.map((uids) => uids.length))).toBeLessThanOrEqual(64);
    expect(Math.max(...sizes)).toBeLessThan(60_000);
  });
});
