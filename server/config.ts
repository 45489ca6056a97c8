import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readPayuConfig, type PayuConfig } from './payments/payu/config';

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
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z.string().url().refine(isHttpUrl, 'must be an http(s) URL').optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  SESSION_SECRET: z.string().min(32).optional(),
  ACCESS_CODE_SECRET: z.string().min(32).optional(),
  TRUST_PROXY: z.string().default('loopback'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(25),
  METRICS_TOKEN: z.string().min(32).optional(),
  DEMO_DATA: z.enum(['true', 'false']).optional(),
  PROVIDER_LEGAL_NAME: z.string().min(1).default('Przykładowe Centrum Mammografii sp. z o.o. (dane fikcyjne)'),
  PROVIDER_ADDRESS: z.string().min(1).default('ul. Przykładowa 1, 00-001 Warszawa'),
  PROVIDER_PHONE: z.string().min(1).default('+48 22 000 00 00'),
  PROVIDER_EMAIL: z.string().email().default('kontakt@example.com'),
  PROVIDER_BANK_ACCOUNT: z.string().min(1).default('PL00 0000 0000 0000 0000 0000 0000'),
  APP_VERSION: z.string().optional(),
  PUBLIC_URL: z.string().url().refine(isHttpUrl, 'must be an http(s) URL').optional(),
  SMTP_URL: z
    .string()
    .url()
    .refine((url) => /^smtps?:\/\//.test(url), 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().email().optional(),
  SMS_PROVIDER: z.enum(['outbox', 'smsapi']).default('outbox'),
  SMSAPI_TOKEN: z.string().min(1).optional(),
  SMS_SENDER: z.string().min(1).max(11).optional(),
  ISO_QUEUE_LIMIT: z.coerce.number().int().min(1).max(1000).default(3),
  UPLOAD_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(200 * 1024 * 1024),
  UPLOAD_MAX_FILES: z.coerce.number().int().min(1).max(10_000).default(200),
  UPLOAD_MAX_REQUEST_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(512 * 1024 * 1024),
  UPLOAD_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(5 * 1024 * 1024 * 1024),
  UPLOAD_RESUMABLE_EXPIRY_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24)
    .default(24),
  ISO_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  PAYMENT_PROVIDER: z.enum(['sandbox', 'payu']).default('sandbox'),
  PAYMENT_SANDBOX_SECOND_KEY: z.string().min(16).optional(),
  ORDER_PAYMENT_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .default(60),
  CONSULTATION_HOLD_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  ORDER_EXPIRY_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  PROVIDER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(600),
  PROVIDER_IDEMPOTENCY_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  /** Absent means: start the embedded PGlite under `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /**
   * Where stored files (DICOM images, disc images) live: a folder under `dataDir` (a local disk or a
   * shared volume), or an S3 bucket (issue 16). Uploads in progress stay under `dataDir` either way.
   */
  storage: { backend: 'local' } | { backend: 's3'; bucket: string; region: string; endpoint?: string; forcePathStyle: boolean };
  sessionSecret: string;
  accessCodeSecret: string;
  trustProxy: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** On SIGTERM, how long requests in flight may run on before their connections are cut. */
  shutdownGraceMs: number;
  /** The bearer token of `GET /metrics`; without it there is no such page. */
  metricsToken?: string;
  loadDemoData: boolean;
  provider: { legalName: string; address: string; phone: string; email: string; bankAccount: string };
  /** Shown in the footer outside production only. */
  version: string;
  session: { idleTimeoutMs: number; absoluteTimeoutMs: number };
  /** The portal's address as patients reach it, without a trailing slash: links in mail and SMS. */
  publicUrl: string;
  /** Without `smtpUrl` every mail stays in the outbox (DECISIONS.md 13). */
  mail: { smtpUrl?: string; from: string };
  sms: { provider: 'outbox' | 'smsapi'; smsapiToken?: string; sender?: string };
  /**
   * `queueLimit`: ISO disc images waiting or being built at most; one more request is "generator
   * busy". `retentionDays`: a built image is deleted this long after it was built (the patient
   * may build it again).
   */
  iso: { queueLimit: number; retentionDays: number };
  /**
   * DICOM uploads (docs/api.md "DICOM upload"): per file, per request, and per patient in all;
   * `resumableExpiryHours`: an unfinished resumable upload is removed this long after it began.
   */
  upload: {
    maxFileBytes: number;
    maxFilesPerRequest: number;
    maxRequestBytes: number;
    quotaBytes: number;
    resumableExpiryHours: number;
  };
  /**
   * Payments (README "Payments"): the provider adapter; the sandbox's key for signing its
   * notifications; how long an unpaid order waits before it is cancelled, and how long a
   * consultation's slot is held while she pays (DECISIONS.md 17).
   */
  payments: {
    provider: 'sandbox' | 'payu';
    sandboxSecondKey: string;
    payu?: PayuConfig;
    unpaidOrderMinutes: number;
    consultationHoldMinutes: number;
    /** How often unpaid orders past their time are looked for. */
    expirySweepSeconds: number;
  };
  /**
   * The provider API (README "For providers"): calls per key and minute unless a key sets its own,
   * and how long a creating call's answer is kept for replay under its `Idempotency-Key`.
   */
  providerApi: { rateLimitPerMinute: number; idempotencyHours: number };
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
    throw new ConfigError(
      'Invalid configuration:\n  SESSION_SECRET and ACCESS_CODE_SECRET are required in production (32+ characters each).',
    );
  }
  if (isProduction && e.DEMO_DATA === 'true') {
    throw new ConfigError('Invalid configuration:\n  DEMO_DATA=true is refused in production: demo accounts must never exist there.');
  }
  if (e.SMS_PROVIDER === 'smsapi' && !e.SMSAPI_TOKEN) {
    throw new ConfigError('Invalid configuration:\n  SMS_PROVIDER=smsapi needs SMSAPI_TOKEN.');
  }
  // A link to localhost in a real patient's mail would be a dead end.
  if (isProduction && !e.PUBLIC_URL && (e.SMTP_URL || e.SMS_PROVIDER !== 'outbox')) {
    throw new ConfigError('Invalid configuration:\n  PUBLIC_URL is required in production when mail or SMS leave the portal.');
  }
  // The browser sends a file of the largest allowed size alone in a request; it must fit.
  if (e.UPLOAD_MAX_REQUEST_BYTES < e.UPLOAD_MAX_FILE_BYTES + 64 * 1024) {
    throw new ConfigError(
      'Invalid configuration:\n  UPLOAD_MAX_REQUEST_BYTES must exceed UPLOAD_MAX_FILE_BYTES by 64 KB at least (room for the multipart headers).',
    );
  }
  if (e.STORAGE === 's3' && !e.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  STORAGE=s3 needs S3_BUCKET (the bucket the files are kept in).');
  }
  const secretsGiven = Boolean(e.SESSION_SECRET && e.ACCESS_CODE_SECRET);
  const secrets = isProduction || secretsGiven ? undefined : localSecrets(dataDir);
  const sessionSecret = e.SESSION_SECRET ?? secrets!.sessionSecret;
  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    storage:
      e.STORAGE === 's3'
        ? {
            backend: 's3',
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
          }
        : { backend: 'local' },
    sessionSecret,
    accessCodeSecret: e.ACCESS_CODE_SECRET ?? secrets!.accessCodeSecret,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    metricsToken: e.METRICS_TOKEN,
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
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? e.PROVIDER_EMAIL },
    sms: { provider: e.SMS_PROVIDER, smsapiToken: e.SMSAPI_TOKEN, sender: e.SMS_SENDER },
    iso: { queueLimit: e.ISO_QUEUE_LIMIT, retentionDays: e.ISO_RETENTION_DAYS },
    upload: {
      maxFileBytes: e.UPLOAD_MAX_FILE_BYTES,
      maxFilesPerRequest: e.UPLOAD_MAX_FILES,
      maxRequestBytes: e.UPLOAD_MAX_REQUEST_BYTES,
      quotaBytes: e.UPLOAD_QUOTA_BYTES,
      resumableExpiryHours: e.UPLOAD_RESUMABLE_EXPIRY_HOURS,
    },
    payments: {
      provider: e.PAYMENT_PROVIDER,
      // Derived from the session secret when not given: stable across restarts, never a constant.
      sandboxSecondKey: e.PAYMENT_SANDBOX_SECOND_KEY ?? derivedKey(sessionSecret, 'payment-sandbox-second-key'),
      payu: e.PAYMENT_PROVIDER === 'payu' ? payuConfigOrExit(env) : undefined,
      unpaidOrderMinutes: e.ORDER_PAYMENT_MINUTES,
      consultationHoldMinutes: Math.min(e.CONSULTATION_HOLD_MINUTES, e.ORDER_PAYMENT_MINUTES),
      expirySweepSeconds: e.ORDER_EXPIRY_SWEEP_SECONDS,
    },
    providerApi: { rateLimitPerMinute: e.PROVIDER_RATE_LIMIT_PER_MINUTE, idempotencyHours: e.PROVIDER_IDEMPOTENCY_HOURS },
    ...overrides,
  };
}

function derivedKey(secret: string, purpose: string): string {
  return createHmac('sha256', secret).update(purpose).digest('hex');
}

/** PAYMENT_PROVIDER=payu needs every PAYU_* setting; a missing one stops the start with its name. */
function payuConfigOrExit(env: NodeJS.ProcessEnv): PayuConfig {
  try {
    return readPayuConfig(env);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${error instanceof Error ? error.message : String(error)}`);
  }
}

function isHttpUrl(url: string): boolean {
  return /^https?:\/\//.test(url);
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
