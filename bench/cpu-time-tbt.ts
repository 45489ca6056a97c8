/** One event of a Chromium trace, as far as this module reads it (times in microseconds). */
export type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number };

const BLOCKING_MS = 50;
/** Lighthouse's mobile simulation multiplies each task's duration by this. */
const CPU_SLOWDOWN = 4;

/**
 * Total Blocking Time worked out from the renderer's CPU time instead of its wall time: each
 * top-level task of the page's main thread after the first contentful paint, its thread time
 * (`tdur`) multiplied by 4 as Lighthouse's simulation does, counted beyond 50 ms.
 *
 * Why beside Lighthouse's own figure: Lighthouse times the tasks by the wall clock. On a machine
 * of 2 cores, Chromium's other processes (the browser's, the compositor's) and the portal's
 * server run during the same tasks, and the page's thread waits for a core: a task of 10 ms of
 * its own CPU measures 20-40 ms, and TBT counts each 4 times. The two figures side by side tell
 * the page's own work from the host's contention (issue 16). Undefined when the trace has no
 * first contentful paint or no thread times.
 */
export function cpuTimeTbtMs(events: TraceEvent[]): number | undefined {
  // The renderer's main thread paints: its first contentful paint names it.
  const fcp = events.find((event) => event.name === 'firstContentfulPaint');
  if (!fcp) return undefined;
  const tasks = events.filter(
    (event) => event.name === 'RunTask' && event.ph === 'X' && event.pid === fcp.pid && event.tid === fcp.tid && event.ts >= fcp.ts,
  );
  if (tasks.length === 0 || tasks.every((task) => task.tdur === undefined)) return undefined;
  return tasks.reduce((sum, task) => sum + Math.max(0, ((task.tdur ?? 0) / 1000) * CPU_SLOWDOWN - BLOCKING_MS), 0);
}
