import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every setting of the portal, read from the environment once at start and checked here, so a
 * wrong value stops the process with one clear message instead of failing later mid-request.
 * The README lists the same settings; keep the two in step.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  SESSION_SECRET: z.string().min(32).optional(),
  ACCESS_CODE_SECRET: z.string().min(32).optional(),
  TRUST_PROXY: z.string().default('loopback'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_DATA: z.enum(['true', 'false']).optional(),
  PROVIDER_LEGAL_NAME: z.string().min(1).default('Przykładowe Centrum Mammografii sp. z o.o. (dane fikcyjne)'),
  PROVIDER_ADDRESS: z.string().min(1).default('ul. Przykładowa 1, 00-001 Warszawa'),
  PROVIDER_PHONE: z.string().min(1).default('+48 22 000 00 00'),
  PROVIDER_EMAIL: z.string().email().default('kontakt@example.com'),
  PROVIDER_BANK_ACCOUNT: z.string().min(1).default('PL00 0000 0000 0000 0000 0000 0000'),
  APP_VERSION: z.string().optional(),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  /** Absent means: start the embedded PGlite under `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  sessionSecret: string;
  accessCodeSecret: string;
  trustProxy: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  loadDemoData: boolean;
  provider: { legalName: string; address: string; phone: string; email: string; bankAccount: string };
  /** Shown in the footer outside production only. */
  version: string;
  session: { idleTimeoutMs: number; absoluteTimeoutMs: number };
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const dataDir = path.resolve(e.DATA_DIR);
  if (isProduction && (!e.SESSION_SECRET || !e.ACCESS_CODE_SECRET)) {
    throw new ConfigError('Invalid configuration:\n  SESSION_SECRET and ACCESS_CODE_SECRET are required in production (32+ characters each).');
  }
  if (isProduction && e.DEMO_DATA === 'true') {
    throw new ConfigError('Invalid configuration:\n  DEMO_DATA=true is refused in production: demo accounts must never exist there.');
  }
  const secretsGiven = Boolean(e.SESSION_SECRET && e.ACCESS_CODE_SECRET);
  const secrets = isProduction || secretsGiven ? undefined : localSecrets(dataDir);
  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    sessionSecret: e.SESSION_SECRET ?? secrets!.sessionSecret,
    accessCodeSecret: e.ACCESS_CODE_SECRET ?? secrets!.accessCodeSecret,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    loadDemoData: !isProduction && e.DEMO_DATA !== 'false',
    provider: {
      legalName: e.PROVIDER_LEGAL_NAME,
      address: e.PROVIDER_ADDRESS,
      phone: e.PROVIDER_PHONE,
      email: e.PROVIDER_EMAIL,
      bankAccount: e.PROVIDER_BANK_ACCOUNT,
    },
    version: e.APP_VERSION ?? process.env.npm_package_version ?? 'dev',
    session: { idleTimeoutMs: 15 * 60_000, absoluteTimeoutMs: 8 * 60 * 60_000 },
    ...overrides,
  };
}

/**
 * Outside production the secrets are generated once and kept beside the embedded database, so
 * a newcomer needs no setup and the demo access code keeps matching its stored keyed hash
 * across restarts.
 */
function localSecrets(dataDir: string): { sessionSecret: string; accessCodeSecret: string } {
  const file = path.join(dataDir, 'local-secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const secrets = {
    sessionSecret: randomBytes(32).toString('hex'),
    accessCodeSecret: randomBytes(32).toString('hex'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}
