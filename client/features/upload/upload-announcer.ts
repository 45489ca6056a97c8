import type { MessageKey, MessageValues } from '../../lib/intl';
import type { RunPhase, RunSnapshot } from './run-types';

/**
 * What a screen reader hears of an upload: a sentence when it starts, pauses, waits for the
 * connection, resumes and ends, and between those at most one progress sentence every
 * PROGRESS_EVERY_MS. Every tick of the bars would drown everything else she wants to hear.
 */
export const PROGRESS_EVERY_MS = 10_000;

export type Announcement = { key: MessageKey; values?: MessageValues };
export type AnnouncerState = { run: number | null; phase: RunPhase | null; at: number };
export const SILENT: AnnouncerState = { run: null, phase: null, at: -Infinity };

function phaseSentence(phase: RunPhase, previous: RunPhase | null, snapshot: RunSnapshot): Announcement {
  switch (phase) {
    case 'running':
      return previous === null ? { key: 'upload.announce.started' } : { key: 'upload.announce.resumed' };
    case 'paused':
      return { key: 'upload.announce.paused' };
    case 'offline':
      return { key: 'upload.announce.offline' };
    case 'cancelled':
      return { key: 'upload.announce.cancelled', values: { stored: snapshot.stored } };
    case 'ended':
      return { key: 'upload.error.sessionEnded' };
    case 'finished': {
      const skipped = Object.values(snapshot.skipped).reduce((sum, count) => sum + count, 0);
      return {
        key: 'upload.announce.finished',
        values: { stored: snapshot.stored, skipped, refused: snapshot.refused.length, failed: snapshot.failed.length },
      };
    }
  }
}

/** The sentence to say now, if any, and the state to remember for the next snapshot. */
export function nextAnnouncement(
  state: AnnouncerState,
  snapshot: RunSnapshot,
  now: number,
): { announcement: Announcement | null; state: AnnouncerState } {
  // A new pick after a summary is a new upload: it starts, it does not resume.
  const previous = snapshot.run === state.run ? state.phase : null;
  if (snapshot.phase !== previous) {
    return {
      announcement: phaseSentence(snapshot.phase, previous, snapshot),
      state: { run: snapshot.run, phase: snapshot.phase, at: now },
    };
  }
  if (snapshot.phase !== 'running' || now - state.at < PROGRESS_EVERY_MS || snapshot.files.total === 0) {
    return { announcement: null, state };
  }
  const minutesLeft = snapshot.secondsLeft === null ? null : Math.ceil(snapshot.secondsLeft / 60);
  return {
    announcement: {
      key: minutesLeft === null ? 'upload.announce.progress' : 'upload.announce.progressWithTime',
      values: { done: snapshot.files.finished, total: snapshot.files.total, ...(minutesLeft === null ? {} : { minutes: minutesLeft }) },
    },
    state: { run: snapshot.run, phase: snapshot.phase, at: now },
  };
}
