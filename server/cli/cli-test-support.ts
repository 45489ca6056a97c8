import type { TestApp } from '../../tests/support/app';
import { runCli } from './run';

export type CliRun = { code: number; stdout: string; stderr: string };

/** Runs one command line in-process against a test app's database and settings, as `cli:tester`. */
export async function runCliOn(app: TestApp, argv: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    db: app.db,
    config: app.config,
    clock: app.clock.now,
    actor: 'cli:tester',
    env,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}
