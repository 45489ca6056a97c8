import { formatDateTime } from '../../lib/dates';
import { ApiKeyInputError, createApiKeyService } from '../../provider/keys/api-key-service';
import type { ApiKeyRow } from '../../provider/keys/api-keys-repo';
import { isProviderScope, PROVIDER_SCOPES } from '../../provider/scopes';
import { CommandError, UsageError, type Command, type CommandContext } from '../command';

/** The provider's zone: an expiry day ends at midnight there, whatever zone the server runs in. */
const PROVIDER_TIME_ZONE = 'Europe/Warsaw';
const MAX_RATE_LIMIT = 100_000;

async function keyService(context: CommandContext) {
  return createApiKeyService({ db: await context.db(), clock: context.clock, config: context.config() });
}

const create: Command = {
  path: ['keys', 'create'],
  summary: 'Create a provider API key (the key is printed once)',
  description: [
    "The whole key is printed once and only its hash is kept: copy it into the provider's system",
    'at once. A lost key cannot be shown again; revoke it and create a new one.',
    `Scopes: ${PROVIDER_SCOPES.join(', ')}.`,
  ].join('\n'),
  options: {
    name: { type: 'string', required: true, description: 'what the key is for, 1 to 100 characters (e.g. "RIS production")' },
    scope: { type: 'string', multiple: true, required: true, description: 'a scope the key may use' },
    expires: {
      type: 'string',
      value: 'YYYY-MM-DD',
      description: `last day the key works (until midnight, ${PROVIDER_TIME_ZONE}); default: never`,
    },
    'rate-limit': { type: 'string', value: 'calls', description: 'calls per minute; default: PROVIDER_RATE_LIMIT_PER_MINUTE' },
  },
  examples: ['keys create --name "RIS production" --scope patients:write --scope screenings:write --expires 2027-06-30'],
  async run({ options }, context) {
    const name = String(options.name).trim();
    if (name.length < 1 || name.length > 100) throw new UsageError('--name must be 1 to 100 characters');
    const scopes = options.scope as string[];
    const unknown = scopes.filter((scope) => !isProviderScope(scope));
    if (unknown.length > 0) {
      throw new UsageError(`unknown scope ${unknown.map((scope) => `'${scope}'`).join(', ')}; scopes are: ${PROVIDER_SCOPES.join(', ')}`);
    }
    const expiresAt = options.expires === undefined ? undefined : endOfProviderDay(String(options.expires));
    if (expiresAt && expiresAt.getTime() <= context.clock()) throw new UsageError('--expires must be today or a later day');
    const rateLimitPerMinute = options['rate-limit'] === undefined ? undefined : rateLimit(String(options['rate-limit']));

    let created: Awaited<ReturnType<Awaited<ReturnType<typeof keyService>>['create']>>;
    try {
      created = await (await keyService(context)).create({ name, scopes, expiresAt, rateLimitPerMinute, createdBy: context.actor });
    } catch (error) {
      if (error instanceof ApiKeyInputError) throw new UsageError(error.message);
      throw error;
    }
    const { key, apiKey } = created;
    await context.audit({ action: 'cli.keys.create', objectType: 'api_key', objectId: apiKey.id, status: 201 });
    context.stdout.write(
      [
        `Created API key ${apiKey.id} (${apiKey.prefix}) "${apiKey.name}"`,
        `  scopes:     ${apiKey.scopes.join(', ')}`,
        `  expires:    ${apiKey.expiresAt ? `${when(apiKey.expiresAt)} (${PROVIDER_TIME_ZONE})` : 'never'}`,
        `  rate limit: ${apiKey.rateLimitPerMinute} calls per minute`,
        '',
        key,
        '',
        'WARNING: this is the only time the key is shown; the portal keeps only its hash.',
        "Copy it into the provider's system now. If it is lost, revoke it and create a new one.",
        '',
      ].join('\n'),
    );
  },
};

const list: Command = {
  path: ['keys', 'list'],
  summary: 'List the provider API keys (never their secrets)',
  description: `Times are ${PROVIDER_TIME_ZONE}.`,
  options: { json: { type: 'boolean', description: 'print JSON instead of a table' } },
  async run({ options }, context) {
    const keys = await (await keyService(context)).list();
    await context.audit({ action: 'cli.keys.list', objectType: 'api_key' });
    if (options.json) {
      context.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
      return;
    }
    if (keys.length === 0) {
      context.stdout.write('No API keys yet. Create one with: npm run portal -- keys create --help\n');
      return;
    }
    const header = ['ID', 'PREFIX', 'NAME', 'SCOPES', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'];
    const rows = keys.map((key) => [
      String(key.id),
      key.prefix,
      key.name,
      key.scopes.join(','),
      when(key.createdAt),
      key.expiresAt ? when(key.expiresAt) : 'never',
      key.revokedAt ? when(key.revokedAt) : '-',
      key.lastUsedAt ? when(key.lastUsedAt) : 'never',
    ]);
    context.stdout.write(formatTable([header, ...rows]));
  },
};

const revoke: Command = {
  path: ['keys', 'revoke'],
  summary: 'Revoke a provider API key at once (its calls then answer 401 API_KEY_REVOKED)',
  args: [{ name: 'id|prefix', description: "the key's id or prefix (mpk_ and 8 characters), as `keys list` shows them" }],
  examples: ['keys revoke 3', 'keys revoke mpk_AbCd1234'],
  async run({ args }, context) {
    const target = keyReference(args[0]!);
    const service = await keyService(context);
    const before = (await service.list()).find((key) => (typeof target === 'number' ? key.id === target : key.prefix === target));
    if (!before) {
      await context.audit({ action: 'cli.keys.revoke', objectType: 'api_key', status: 404 });
      throw new CommandError(`no API key with ${typeof target === 'number' ? 'id' : 'prefix'} ${target}`);
    }
    const revoked: ApiKeyRow | undefined = before.revokedAt ? before : await service.revoke(before.id);
    await context.audit({ action: 'cli.keys.revoke', objectType: 'api_key', objectId: before.id });
    const at = revoked?.revokedAt ? when(revoked.revokedAt) : 'now';
    context.stdout.write(
      before.revokedAt
        ? `API key ${before.id} (${before.prefix}) "${before.name}" was already revoked at ${at}.\n`
        : `Revoked API key ${before.id} (${before.prefix}) "${before.name}" at ${at}.\n`,
    );
  },
};

export const keysCommands: Command[] = [create, list, revoke];

/** An id (digits), a prefix, or a whole key pasted by mistake (its prefix is taken; the secret is never echoed). */
function keyReference(value: string): number | string {
  if (/^\d+$/.test(value)) return Number(value);
  const prefix = /^(mpk_[A-Za-z0-9_-]{8})(_[A-Za-z0-9_-]{43})?$/.exec(value)?.[1];
  if (!prefix) throw new UsageError("give the key's id (a number) or its prefix (mpk_ and 8 characters), as `keys list` shows them");
  return prefix;
}

function rateLimit(value: string): number {
  const calls = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(calls) || calls < 1 || calls > MAX_RATE_LIMIT) {
    throw new UsageError(`--rate-limit must be a whole number of calls per minute from 1 to ${MAX_RATE_LIMIT}`);
  }
  return calls;
}

/** The first instant after the given day in the provider's zone (its midnight), so the key works all that day. */
function endOfProviderDay(day: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const [year, month, date] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [NaN, NaN, NaN];
  const utcMidnight = Date.UTC(year, month - 1, date + 1);
  const valid = match && new Date(Date.UTC(year, month - 1, date)).toISOString().startsWith(day);
  if (!valid || Number.isNaN(utcMidnight)) throw new UsageError(`--expires must be a day written YYYY-MM-DD, not '${day}'`);
  // The zone's offset at that moment (an hour or two in Warsaw), found by reading the UTC midnight there.
  const offsetMs = zoneOffsetMs(new Date(utcMidnight));
  const guess = utcMidnight - offsetMs;
  // Across a daylight-saving change the offset at the result may differ from the first reading.
  return new Date(utcMidnight - zoneOffsetMs(new Date(guess)));
}

const zoneFormatter = new Intl.DateTimeFormat('en-GB', {
  timeZone: PROVIDER_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function zoneOffsetMs(instant: Date): number {
  const parts = Object.fromEntries(zoneFormatter.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

function when(instant: Date): string {
  return formatDateTime(instant, 'en');
}

function formatTable(rows: string[][]): string {
  const widths = rows[0]!.map((_cell, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, column) => cell.padEnd(widths[column]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
