import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { PROVIDER_API_PREFIX } from '../provider/openapi';
import { embeddedDatabaseHolder, openCliDatabase } from './database';
import { runCliOn } from './cli-test-support';
import { runCli } from './run';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const cli = (...argv: string[]) => runCliOn(app, argv);

const callWith = (key?: string) =>
  fetch(`${app.baseUrl}${PROVIDER_API_PREFIX}/nonexistent`, { headers: key ? { authorization: `Bearer ${key}` } : {} });

const KEY = /\bmpk_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{43}\b/;

describe('keys create, list, revoke', () => {
  let key: string;
  let id: number;
  let prefix: string;

  it('creates a key, prints it once with a warning, and the key works at the provider API', async () => {
    const result = await cli(
      'keys',
      'create',
      '--name',
      'RIS test',
      '--scope',
      'patients:write',
      '--scope',
      'orders:read',
      '--rate-limit',
      '50',
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    key = KEY.exec(result.stdout)![0];
    expect(result.stdout).toContain('only time the key is shown');
    const created = /Created API key (\d+) \((mpk_[A-Za-z0-9_-]{8})\)/.exec(result.stdout)!;
    id = Number(created[1]);
    prefix = created[2]!;
    expect(key.startsWith(prefix)).toBe(true);

    expect((await callWith()).status).toBe(401);
    const response = await callWith(key);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lists the key as a table, without its secret', async () => {
    const result = await cli('keys', 'list');
    expect(result.code).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+PREFIX\s+NAME\s+SCOPES\s+CREATED\s+EXPIRES\s+REVOKED\s+LAST USED$/);
    const row = rows.find((line) => line.includes(prefix))!;
    expect(row).toContain('RIS test');
    expect(row).toContain('patients:write,orders:read');
    expect(row).toMatch(/never/); // no expiry
    expect(result.stdout).not.toContain(key);
    expect(result.stdout).not.toMatch(KEY);

    const json = await cli('keys', 'list', '--json');
    expect(JSON.parse(json.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ id, prefix, name: 'RIS test' })]));
    expect(json.stdout).not.toContain(key);
  });

  it('revokes the key by its prefix: its calls then answer 401 API_KEY_REVOKED; a second revoke says so', async () => {
    const result = await cli('keys', 'revoke', prefix);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Revoked API key ${id}`);
    const response = await callWith(key);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 'API_KEY_REVOKED' });

    const again = await cli('keys', 'revoke', String(id));
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already revoked');
  });

  it('writes a staff audit entry for each command, by the command line user and with no key', async () => {
    const rows = await app
      .db('staff_audit')
      .where('actor', 'cli:tester')
      .orderBy('id')
      .select('api_key_id', 'action', 'object_type', 'object_id', 'status');
    expect(rows).toEqual(
      expect.arrayContaining([
        { api_key_id: null, action: 'cli.keys.create', object_type: 'api_key', object_id: String(id), status: 201 },
        { api_key_id: null, action: 'cli.keys.list', object_type: 'api_key', object_id: null, status: 200 },
        { api_key_id: null, action: 'cli.keys.revoke', object_type: 'api_key', object_id: String(id), status: 200 },
      ]),
    );
  });

  it('answers 1 for a key that does not exist', async () => {
    const result = await cli('keys', 'revoke', '999999');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no API key with id 999999');
  });

  it('sets an expiry at the end of the given day in the provider zone', async () => {
    const result = await cli('keys', 'create', '--name', 'expiring', '--scope', 'images:read', '--expires', '2099-07-15');
    expect(result.code).toBe(0);
    const created = await app.db('api_keys').where('name', 'expiring').first('expires_at');
    // Midnight after 15 July in Warsaw (summer time, UTC+2).
    expect(created.expires_at.toISOString()).toBe('2099-07-15T22:00:00.000Z');
  });
});

describe('wrong use', () => {
  it.each([
    [['keys', 'create', '--name', 'x', '--scope', 'patients:rule'], /unknown scope 'patients:rule'; scopes are: patients:write/],
    [['keys', 'create', '--name', 'x'], /--scope is required/],
    [['keys', 'create', '--name', 'x', '--scope', 'orders:read', '--expires', '2099-02-30'], /--expires must be a day written YYYY-MM-DD/],
    [['keys', 'create', '--name', 'x', '--scope', 'orders:read', '--expires', '2001-01-01'], /--expires must be today or a later day/],
    [['keys', 'create', '--name', 'x', '--scope', 'orders:read', '--rate-limit', '0'], /--rate-limit must be a whole number/],
    [['keys', 'create', '--nme', 'x'], /Unknown option '--nme'/],
    [['keys', 'revoke'], /missing <id\|prefix>/],
    [['keys', 'revoke', 'something'], /give the key's id/],
    [['keys', 'frobnicate'], /unknown command 'keys frobnicate'/],
    [['nope'], /unknown command 'nope'/],
    [[], /Usage: npm run portal -- <command>/],
  ])('%j exits 2 with a message on stderr', async (argv, message) => {
    const result = await cli(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('creates nothing on wrong use', async () => {
    expect(await app.db('api_keys').where('name', 'x').first()).toBeUndefined();
  });
});

describe('help', () => {
  it.each([[['--help']], [['help']], [['keys', '--help']], [['keys', 'create', '--help']], [['help', 'keys', 'revoke']]])(
    '%j prints usage and exits 0',
    async (argv) => {
      const result = await cli(...argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/Usage: npm run portal -- /);
      expect(result.stderr).toBe('');
    },
  );

  it('names every option of a command', async () => {
    const { stdout } = await cli('keys', 'create', '--help');
    for (const option of ['--name', '--scope', '--expires', '--rate-limit']) expect(stdout).toContain(option);
  });

  it('runs as a real process: npx tsx server/cli/main.ts --help exits 0 and prints usage', async () => {
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'server/cli/main.ts', '--help'], { cwd: process.cwd(), timeout: 60_000 });
    expect(stdout).toContain('Usage: npm run portal -- <command> [options]');
    expect(stdout).toContain('keys create');
  });
});

describe('the embedded database in use', () => {
  let folder: string;
  let holder: ChildProcess | undefined;
  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'portal-cli-'));
  });
  afterAll(() => {
    holder?.kill();
    rmSync(folder, { recursive: true, force: true });
  });

  it('is free without the running marker, and with a stale one nobody holds', () => {
    const pglite = path.join(folder, 'pglite');
    mkdirSync(pglite);
    expect(embeddedDatabaseHolder(pglite)).toEqual({ inUse: false });
    writeFileSync(path.join(pglite, 'postmaster.pid'), '-42\n');
    expect(embeddedDatabaseHolder(pglite).inUse).toBe(process.platform !== 'linux');
  });

  it.runIf(process.platform === 'linux')('is in use while another process holds its files, and the CLI says what to do', async () => {
    const pglite = path.join(folder, 'pglite');
    writeFileSync(path.join(pglite, 'PG_VERSION'), '17\n');
    holder = spawn('sh', ['-c', `exec sleep 60 < ${JSON.stringify(path.join(pglite, 'PG_VERSION'))}`], { stdio: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(embeddedDatabaseHolder(pglite)).toEqual({ inUse: true, pid: holder.pid });

    let stderr = '';
    const code = await runCli(['keys', 'list'], {
      config: { ...app.config, databaseUrl: undefined, dataDir: folder },
      openDb: async (config) => (await openCliDatabase(config)).db,
      stdout: { write: () => undefined },
      stderr: { write: (text: string) => (stderr += text) },
    });
    expect(code).toBe(1);
    expect(stderr).toContain('is in use by process');
    expect(stderr).toContain('stop the portal');
    expect(stderr).toContain('DATABASE_URL');
  });
});
