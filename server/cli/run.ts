import { userInfo } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, type Config } from '../config';
import type { Db } from '../db';
import { systemClock, type Clock } from '../lib/clock';
import { writeStaffAudit } from '../provider/staff-audit';
import { COMMANDS } from './commands';
import { CommandError, UsageError, type Command, type CommandContext, type Output } from './command';

/** How the tool is started, for usage lines and hints. */
const TOOL = 'npm run portal --';

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

export type CliDeps = {
  stdout: Output;
  stderr: Output;
  /** The settings, or how to read them (main.ts reads them only when a command needs them). */
  config: Config | (() => Config);
  /** The database (tests), or how to open it (main.ts: only when a command needs it). */
  db?: Db;
  openDb?: (config: Config) => Promise<Db>;
  clock?: Clock;
  /** Default: `cli:` and the operating system's user name. */
  actor?: string;
  /** Default: process.env. */
  env?: NodeJS.ProcessEnv;
};

/**
 * Runs one command line (`argv` without node and the script) and answers its exit code: 0 done,
 * 1 failed, 2 wrong use. Never exits the process and never writes to the console directly, so
 * tests run it in-process; server/cli/main.ts opens the database and calls it.
 */
export async function runCli(argv: string[], deps: CliDeps): Promise<number> {
  const { stdout, stderr } = deps;
  const [first] = argv;
  if (first === undefined) {
    stderr.write(overallHelp());
    return EXIT_USAGE;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = argv.slice(1).filter((word) => !word.startsWith('-'));
    const command = topic.length > 0 ? findCommand(topic) : undefined;
    if (command) stdout.write(commandHelp(command));
    else if (topic.length > 0 && commandsUnder(topic).length > 0) stdout.write(groupHelp(topic));
    else if (topic.length > 0) return usageError(stderr, `unknown command '${topic.join(' ')}'`);
    else stdout.write(overallHelp());
    return EXIT_OK;
  }

  const command = findCommand(argv);
  if (!command) {
    const words = argv.filter((word) => !word.startsWith('-'));
    const group = words.slice(0, 1);
    if (commandsUnder(group).length === 0) return usageError(stderr, `unknown command '${first}'`);
    if (argv.includes('--help') || argv.includes('-h')) {
      stdout.write(groupHelp(group));
      return EXIT_OK;
    }
    const asked = words.length > 1 ? `unknown command '${words.slice(0, 2).join(' ')}'` : `'${first}' needs a command`;
    stderr.write(`error: ${asked}\n\n${groupHelp(group)}`);
    return EXIT_USAGE;
  }

  const rest = argv.slice(command.path.length);
  if (rest.includes('--help') || rest.includes('-h')) {
    stdout.write(commandHelp(command));
    return EXIT_OK;
  }

  const context = createContext(deps);
  try {
    const input = parseInput(command, rest);
    await command.run(input, context);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) return usageError(stderr, error.message, command);
    if (error instanceof CommandError || error instanceof ConfigError) {
      stderr.write(`error: ${error.message}\n`);
      return EXIT_FAILURE;
    }
    stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILURE;
  }
}

function createContext(deps: CliDeps): CommandContext {
  let config: Config | undefined;
  let db: Promise<Db> | undefined;
  const readConfig = (): Config => (config ??= typeof deps.config === 'function' ? deps.config() : deps.config);
  const openDb = (): Promise<Db> => {
    const { db: given, openDb: open } = deps;
    db ??= given
      ? Promise.resolve(given)
      : open
        ? Promise.resolve().then(() => open(readConfig()))
        : Promise.reject(new Error('no database'));
    return db;
  };
  const actor = deps.actor ?? `cli:${operatingSystemUser()}`;
  return {
    stdout: deps.stdout,
    stderr: deps.stderr,
    clock: deps.clock ?? systemClock,
    actor,
    config: readConfig,
    env: deps.env ?? process.env,
    db: openDb,
    async audit(note) {
      await writeStaffAudit(await openDb(), {
        apiKeyId: null,
        actor,
        action: note.action,
        objectType: note.objectType,
        objectId: note.objectId,
        ip: undefined,
        status: note.status ?? 200,
      });
    },
  };
}

function operatingSystemUser(): string {
  try {
    return userInfo().username;
  } catch {
    // A container user without a passwd entry has no name.
    return process.env.USER ?? process.env.LOGNAME ?? `uid-${process.getuid?.() ?? 'unknown'}`;
  }
}

/** The command whose path is the longest start of `argv`. */
function findCommand(argv: string[]): Command | undefined {
  return COMMANDS.filter((command) => command.path.every((word, index) => argv[index] === word)).sort(
    (a, b) => b.path.length - a.path.length,
  )[0];
}

function commandsUnder(prefix: string[]): Command[] {
  return COMMANDS.filter((command) => prefix.every((word, index) => command.path[index] === word));
}

function parseInput(
  command: Command,
  rest: string[],
): { options: Record<string, string | boolean | string[] | undefined>; args: string[] } {
  const specs = command.options ?? {};
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, spec] of Object.entries(specs)) {
    options[name] = { type: spec.type, ...(spec.multiple && { multiple: true }), ...(spec.short && { short: spec.short }) };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs's own messages name the option ("Unknown option '--nme'").
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.required && parsed.values[name] === undefined) throw new UsageError(`--${name} is required`);
  }
  const expected = command.args ?? [];
  if (parsed.positionals.length < expected.length) {
    throw new UsageError(
      `missing ${expected
        .slice(parsed.positionals.length)
        .map((arg) => `<${arg.name}>`)
        .join(' ')}`,
    );
  }
  if (parsed.positionals.length > expected.length) {
    throw new UsageError(`unexpected argument '${parsed.positionals[expected.length]}'`);
  }
  return { options: parsed.values as Record<string, string | boolean | string[] | undefined>, args: parsed.positionals };
}

function usageError(stderr: Output, message: string, command?: Command): number {
  const help = command ? `${TOOL} ${command.path.join(' ')} --help` : `${TOOL} --help`;
  stderr.write(`error: ${message}\nRun '${help}' for usage.\n`);
  return EXIT_USAGE;
}

function usageLine(command: Command): string {
  const options = Object.entries(command.options ?? {}).map(([name, spec]) => {
    const word = spec.type === 'string' ? `--${name} <${spec.value ?? name}>` : `--${name}`;
    const shown = spec.multiple ? `${word} [${word}...]` : word;
    return spec.required ? shown : `[${shown}]`;
  });
  const args = (command.args ?? []).map((arg) => `<${arg.name}>`);
  return [TOOL, ...command.path, ...args, ...options].join(' ');
}

function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n');
}

function overallHelp(): string {
  return [
    "The portal's staff command line. 'keys' works on the portal's database (DATABASE_URL, or the",
    'embedded database under DATA_DIR while the portal is stopped); the other commands work through',
    "the running portal's provider API with the key in PORTAL_API_KEY, checked and audited like any",
    "provider system's calls.",
    '',
    `Usage: ${TOOL} <command> [options]`,
    '',
    'Commands:',
    table(COMMANDS.map((command) => [command.path.join(' '), command.summary])),
    '',
    `Run '${TOOL} <command> --help' for a command's options.`,
    'Exit codes: 0 done, 1 failed, 2 wrong use.',
    '',
  ].join('\n');
}

function groupHelp(group: string[]): string {
  return [
    `Usage: ${TOOL} ${group.join(' ')} <command> [options]`,
    '',
    'Commands:',
    table(commandsUnder(group).map((command) => [command.path.join(' '), command.summary])),
    '',
    `Run '${TOOL} ${group.join(' ')} <command> --help' for a command's options.`,
    '',
  ].join('\n');
}

function commandHelp(command: Command): string {
  const lines = [`Usage: ${usageLine(command)}`, '', command.summary];
  if (command.description) lines.push('', command.description);
  if (command.args?.length) lines.push('', 'Arguments:', table(command.args.map((arg) => [`<${arg.name}>`, arg.description])));
  const options = Object.entries(command.options ?? {}).map(([name, spec]): [string, string] => [
    spec.type === 'string' ? `--${name} <${spec.value ?? name}>` : `--${name}`,
    `${spec.description}${spec.required ? ' (required)' : ''}${spec.multiple ? ' (may be repeated)' : ''}`,
  ]);
  options.push(['--help', 'this help']);
  lines.push('', 'Options:', table(options));
  if (command.examples?.length) lines.push('', 'Examples:', ...command.examples.map((example) => `  ${TOOL} ${example}`));
  lines.push('');
  return lines.join('\n');
}
