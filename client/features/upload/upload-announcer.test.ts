import { describe, expect, it } from 'vitest';
import { nextAnnouncement, PROGRESS_EVERY_MS, SILENT, type AnnouncerState } from './upload-announcer';
import type { RunSnapshot } from './run-types';

function snapshot(overrides: Partial<RunSnapshot> = {}): RunSnapshot {
  return {
    run: 1,
    phase: 'running',
    scan: null,
    files: { total: 10, finished: 2 },
    bytes: { total: 1_000, sent: 200 },
    stored: 2,
    skipped: { alreadyStored: 1, notDicom: 1, unreadable: 0, dicomdir: 0, tooLarge: 0, duplicate: 0 },
    refused: [],
    failed: [],
    active: [],
    bytesPerSecond: null,
    secondsLeft: null,
    stoppedBy: null,
    ...overrides,
  };
}

/** Feeds snapshots every 250 ms like the page does and collects what is said. */
function say(snapshots: Array<[number, RunSnapshot]>) {
  let state: AnnouncerState = SILENT;
  const said: string[] = [];
  for (const [at, current] of snapshots) {
    const next = nextAnnouncement(state, current, at);
    state = next.state;
    if (next.announcement) said.push(`${at}:${next.announcement.key}`);
  }
  return said;
}

describe('nextAnnouncement', () => {
  it('speaks at the start, then at most one progress sentence every ten seconds', () => {
    const ticks = Array.from({ length: 100 }, (_, index): [number, RunSnapshot] => [index * 250, snapshot()]);
    expect(say(ticks)).toEqual([
      '0:upload.announce.started',
      `${PROGRESS_EVERY_MS}:upload.announce.progress`,
      `${2 * PROGRESS_EVERY_MS}:upload.announce.progress`,
    ]);
  });

  it('says pause, resume, a lost connection and the end at once', () => {
    expect(
      say([
        [0, snapshot()],
        [250, snapshot({ phase: 'paused' })],
        [500, snapshot()],
        [750, snapshot({ phase: 'offline' })],
        [1_000, snapshot()],
        [1_250, snapshot({ phase: 'finished', files: { total: 10, finished: 10 } })],
      ]),
    ).toEqual([
      '0:upload.announce.started',
      '250:upload.announce.paused',
      '500:upload.announce.resumed',
      '750:upload.announce.offline',
      '1000:upload.announce.resumed',
      '1250:upload.announce.finished',
    ]);
  });

  it('starts afresh for the next upload after a summary', () => {
    expect(
      say([
        [0, snapshot()],
        [250, snapshot({ phase: 'finished' })],
        [500, snapshot({ run: 2 })],
      ]),
    ).toEqual(['0:upload.announce.started', '250:upload.announce.finished', '500:upload.announce.started']);
  });

  it('adds the time left once it is known, and sums the skipped files in the final sentence', () => {
    const progress = nextAnnouncement({ run: 1, phase: 'running', at: 0 }, snapshot({ secondsLeft: 130 }), PROGRESS_EVERY_MS);
    expect(progress.announcement).toEqual({ key: 'upload.announce.progressWithTime', values: { done: 2, total: 10, minutes: 3 } });
    const end = nextAnnouncement({ run: 1, phase: 'running', at: 0 }, snapshot({ phase: 'finished' }), 1);
    expect(end.announcement).toEqual({ key: 'upload.announce.finished', values: { stored: 2, skipped: 2, refused: 0, failed: 0 } });
  });
});
