import { loadConfig } from '../config';
import { openCliDatabase, type CliDatabase } from './database';
import { runCli } from './run';

/**
 * `npm run portal -- <command>`: reads the settings and opens the database only when a command
 * needs them (never for --help), runs the command, closes the database, exits with its code.
 */
async function main(): Promise<void> {
  let database: CliDatabase | undefined;
  const code = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    config: () => loadConfig(),
    openDb: async (config) => {
      database = await openCliDatabase(config);
      return database.db;
    },
  });
  await database?.close();
  process.exitCode = code;
}

main().catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
