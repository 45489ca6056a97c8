import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';

/** Where a command writes: process.stdout and process.stderr, or a test's buffers. */
export type Output = { write(text: string): unknown };

/** One option of a command, as node:util parseArgs takes it, plus what the help says about it. */
export type OptionSpec = {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  required?: boolean;
  /** The placeholder in the help (`--name <name>`). */
  value?: string;
  description: string;
};

type CommandInput = {
  options: Record<string, string | boolean | string[] | undefined>;
  /** The positional arguments, as many as the command declares (checked before it runs). */
  args: string[];
};

/** What the staff audit of a command records; `apiKeyId` is null and the actor `cli:<user>`. */
type CliAuditNote = { action: string; objectType?: string; objectId?: string | number; status?: number };

export type CommandContext = {
  stdout: Output;
  stderr: Output;
  clock: Clock;
  /** `cli:<operating system user>`: who ran the command, for the staff audit and `created_by`. */
  actor: string;
  config(): Config;
  /** The environment (the API key of the commands that work through the provider API). */
  env: NodeJS.ProcessEnv;
  /** Opens the database on first use, so `--help` and usage errors never touch it. */
  db(): Promise<Db>;
  audit(note: CliAuditNote): Promise<void>;
};

/**
 * One command of the staff command line. `path` is how it is called (`['keys', 'create']`); a
 * group of commands lives in one file under commands/ and is listed once in commands/index.ts.
 */
export type Command = {
  path: string[];
  summary: string;
  /** Longer text for `--help`. */
  description?: string;
  /** Required positional arguments, in order. */
  args?: { name: string; description: string }[];
  options?: Record<string, OptionSpec>;
  examples?: string[];
  run(input: CommandInput, context: CommandContext): Promise<void>;
};

/** Wrong use of the tool (unknown option, missing or malformed value): exit code 2, with a hint to `--help`. */
export class UsageError extends Error {}

/** The command could not do its work (nothing to revoke, the database in use): exit code 1. */
export class CommandError extends Error {}
