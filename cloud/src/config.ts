import path from 'node:path';
import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** Every environment variable the cloud reads, validated once at start (README lists them). */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Public base URL used in emails and the page context; defaults to http://localhost:PORT. */
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.string().startsWith('postgres').optional()),
  /**
   * A direct connection to the same database (not through a transaction-mode pooler such as
   * PgBouncer): LISTEN for station pokes, migrations and the start-up lock use it. Unset: DATABASE_URL.
   */
  DATABASE_DIRECT_URL: z.preprocess(emptyToUndefined, z.string().startsWith('postgres').optional()),
  /** Connections in each process's query pool (PostgreSQL; the embedded database has one). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(500).default(10),
  /**
   * Hot statements (the booking's, each request's session and studio) run as prepared statements, so
   * PostgreSQL plans them once per connection. `false` behind a transaction-mode pooler that does not
   * keep prepared statements (PgBouncer before 1.21, or without `max_prepared_statements`).
   */
  DATABASE_PREPARED_STATEMENTS: z
    .preprocess(emptyToUndefined, z.enum(['true', 'false', '1', '0']).optional())
    .transform((v) => v === undefined || v === 'true' || v === '1'),
  /**
   * Cloud processes `npm start` runs on PostgreSQL (node:cluster): a number, or `auto` for one per
   * core. The embedded database is always one process.
   */
  WEB_CONCURRENCY: z.preprocess(
    emptyToUndefined,
    z.union([z.literal('auto'), z.coerce.number().int().min(1).max(64)]).default(1),
  ),
  DATA_DIR: z.string().default('var'),
  SMTP_URL: z.preprocess(emptyToUndefined, z.string().optional()),
  MAIL_FROM: z.string().default('Studio Platform <no-reply@studio.local>'),
  /**
   * Where the platform's operator reads studios' requests (the premium apps bundle). Unset: the
   * address of MAIL_FROM.
   */
  PLATFORM_OPERATOR_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 14),
  /** Seed the demo studio into an empty database on start. */
  DEMO_SEED: z
    .preprocess(emptyToUndefined, z.enum(['true', 'false', '1', '0']).optional())
    .transform((v) => v === undefined || v === 'true' || v === '1'),
  /**
   * AES-256-GCM key of encrypted client custom fields: 32 bytes, base64. Unset: a key generated once
   * and kept in DATA_DIR/secrets/field-encryption.key (set it in production, and back it up).
   */
  FIELD_ENCRYPTION_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, '32 bytes, base64-encoded')
      .optional(),
  ),
  /** How often an idle job worker looks for side-effect jobs (mail, receipts), in seconds (≥ 0.5). */
  JOBS_POLL_SECONDS: z.coerce.number().min(0.5).default(2),
  /** How often pg-boss retries the jobs of workers that died (and tidies its tables), in seconds. */
  JOBS_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).default(120),
  /**
   * Earlier field-encryption keys, comma-separated (32 bytes base64 each): values they encrypted still
   * decrypt; FIELD_ENCRYPTION_KEY encrypts. `npm run fields:reencrypt` moves every value to the
   * current key, after which the old ones can go.
   */
  FIELD_ENCRYPTION_KEYS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .refine(
        (keys) => keys.every((k) => Buffer.from(k, 'base64').length === 32),
        'each 32 bytes, base64-encoded',
      )
      .optional(),
  ),
  /**
   * KSeF API base URL for every studio (tests point it at the local fake). Unset: each studio's
   * environment decides (test https://api-test.ksef.mf.gov.pl/v2, production https://api.ksef.mf.gov.pl/v2).
   */
  KSEF_API_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /** Where stored files live: `local` (DATA_DIR/files) or `s3` (any S3-compatible service). */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().optional()),
  /** An S3-compatible endpoint (MinIO, Ceph, R2, ...); unset: AWS for S3_REGION. */
  S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url().optional()),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Path-style URLs (bucket in the path): most self-hosted S3-compatible servers want it. */
  S3_FORCE_PATH_STYLE: z
    .preprocess(emptyToUndefined, z.enum(['true', 'false', '1', '0']).optional())
    .transform((v) => v === 'true' || v === '1'),
  /** Cookies get the Secure flag (set behind HTTPS). */
  COOKIE_SECURE: z
    .preprocess(emptyToUndefined, z.enum(['true', 'false', '1', '0']).optional())
    .transform((v) => v === 'true' || v === '1'),
  /** Webhooks may call loopback addresses (tests' receivers on 127.0.0.1); refused in production. */
  WEBHOOKS_ALLOW_LOOPBACK: z
    .preprocess(emptyToUndefined, z.enum(['true', 'false', '1', '0']).optional())
    .transform((v) => v === 'true' || v === '1'),
  /**
   * Google Calendar (appointments pushed to members' calendars): the OAuth client of a Google Cloud
   * project (a web application whose redirect URI is PUBLIC_URL + /api/v4/google-calendar/oauth/callback).
   * Unset: the connect button says the server has no calendar service.
   */
  GOOGLE_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  GOOGLE_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Other base URLs of Google's endpoints (a local fake in tests); default Google's own. */
  GOOGLE_AUTH_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  GOOGLE_TOKEN_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  GOOGLE_API_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /**
   * The machine translator that suggests translations in the back office (DeepL's API v2). Unset:
   * no suggestions (the Translations screen hides its button). A free-plan key ends in `:fx`.
   */
  DEEPL_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Another base URL of DeepL's API (a local fake in tests); default api-free.deepl.com for a `:fx` key, else api.deepl.com. */
  DEEPL_API_URL: z.preprocess(emptyToUndefined, z.url().optional()),
});

/**
 * What production cannot do without. Several instances behind a load balancer must agree on the
 * links they mail (each one's own port is no address for a client) and on the key that encrypts
 * stored secrets (a key generated per instance makes one's values unreadable to another).
 */
const RefinedConfigSchema = ConfigSchema.superRefine((c, ctx) => {
  if (c.NODE_ENV === 'production') {
    if (!c.PUBLIC_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'required in production: the public https address clients reach (links in e-mails)',
      });
    if (!c.FIELD_ENCRYPTION_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['FIELD_ENCRYPTION_KEY'],
        message:
          'required in production: 32 bytes, base64 (openssl rand -base64 32), the same on every instance; back it up',
      });
    if (c.WEBHOOKS_ALLOW_LOOPBACK)
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOKS_ALLOW_LOOPBACK'],
        message: 'tests only: webhooks never call loopback addresses in production',
      });
  }
  if (c.STORAGE_DRIVER === 's3' && !c.S3_BUCKET)
    ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'required when STORAGE_DRIVER=s3' });
});

export type Config = z.infer<typeof ConfigSchema> & { dataDir: string; publicUrl: string };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = RefinedConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const c = parsed.data;
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ''),
  };
}
