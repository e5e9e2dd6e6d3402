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
  DATA_DIR: z.string().default('var'),
  SMTP_URL: z.preprocess(emptyToUndefined, z.string().optional()),
  MAIL_FROM: z.string().default('Studio Platform <no-reply@studio.local>'),
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
  /** Cookies get the Secure flag (set behind HTTPS). */
  COOKIE_SECURE: z
    .preprocess(emptyToUndefined, z.enum(['true', 'false', '1', '0']).optional())
    .transform((v) => v === 'true' || v === '1'),
});

export type Config = z.infer<typeof ConfigSchema> & { dataDir: string; publicUrl: string };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
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
