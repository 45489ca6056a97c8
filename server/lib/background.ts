import { errorForLog, type Logger } from './logger';

export type BackgroundTasks = {
  /** Starts `task` without waiting for it; a failure is logged under `name`, never thrown. */
  run(name: string, task: () => Promise<void>): void;
  /** Resolves once every task started so far has finished (shutdown, tests). */
  settle(): Promise<void>;
};

/** Work a request starts but must not wait for, e.g. because waiting would reveal something. */
export function createBackgroundTasks(logger: Logger): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(name, task) {
      const promise = task()
        .catch((error: unknown) => logger.error({ task: name, err: errorForLog(error) }, 'background task failed'))
        .finally(() => running.delete(promise));
      running.add(promise);
    },
    async settle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
