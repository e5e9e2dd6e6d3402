import { createHash, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { v7 as uuidv7 } from 'uuid';
import type {
  ApiKey,
  ApiKeyPut,
  ApiKeyPutResult,
  ApiKeyScope,
} from '../../../../shared/contracts/api/integrations';
import { API_KEY_RATE_LIMIT, ApiKeyPutSchema } from '../../../../shared/contracts/api/integrations';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { StudioApisRow } from '../../db/generated/tables';
import type { AppCustom, AppState, Deps } from '../../http/context';
import type { Studio } from '../identity/index';

export const API_KEY_HEADER = 'x-api-key';
const PUBLIC_PREFIX = '/api/v2/public/';
const SECRET_PREFIX = 'sk_live_';
/** Shown in lists: the secret prefix and four characters of the random part. */
const VISIBLE_CHARS = SECRET_PREFIX.length + 4;

export const hashApiKey = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A new secret: `sk_live_` and 32 characters of base64url (192 random bits). */
export function newApiSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function apiKeyView(row: StudioApisRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope === 'read' ? 'read' : 'read_write',
    prefix: row.keyPrefix,
    rateLimitPerMinute: row.rateLimitPerMinute,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: iso(row.lastUsedAt),
    rotatedAt: iso(row.rotatedAt),
    revokedAt: iso(row.revokedAt),
  };
}

export async function listApiKeys(db: Db, studio: Studio): Promise<ApiKey[]> {
  const rows = await db('studio_apis')
    .where({ studioId: studio.id })
    .orderByRaw('revoked_at is not null, created_at desc');
  return rows.map(apiKeyView);
}

async function keyOfStudio(db: Db, studio: Studio, id: string): Promise<StudioApisRow> {
  const row = await db('studio_apis').where({ studioId: studio.id, id }).forUpdate().first();
  if (!row) throw AppError.notFound('API key');
  return row;
}

/** PUT studio-api: issues a key (no id) or changes one; a new or rotated key answers its secret once. */
export async function putApiKey(
  trx: Knex.Transaction,
  studio: Studio,
  userId: string,
  input: ApiKeyPut,
  now: Date,
): Promise<ApiKeyPutResult> {
  const body = ApiKeyPutSchema.parse(input);
  if (!body.id) {
    const secret = newApiSecret();
    const [row] = await trx('studio_apis')
      .insert({
        id: uuidv7(),
        studioId: studio.id,
        name: body.name,
        scope: body.scope,
        rateLimitPerMinute: body.rateLimitPerMinute,
        keyHash: hashApiKey(secret),
        keyPrefix: secret.slice(0, VISIBLE_CHARS),
        createdBy: userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning('*');
    return { key: apiKeyView(row!), secret };
  }
  const existing = await keyOfStudio(trx, studio, body.id);
  if (existing.revokedAt) throw new AppError('apiKey.revoked', { message: 'this key was revoked' });
  const secret = body.rotate ? newApiSecret() : null;
  const [row] = await trx('studio_apis')
    .where({ id: existing.id })
    .update({
      name: body.name,
      scope: body.scope,
      rateLimitPerMinute: body.rateLimitPerMinute,
      updatedAt: now,
      ...(secret
        ? { keyHash: hashApiKey(secret), keyPrefix: secret.slice(0, VISIBLE_CHARS), rotatedAt: now }
        : {}),
    })
    .returning('*');
  return { key: apiKeyView(row!), secret };
}

/** DELETE studio-api/{id}: the key stops working at once; the row stays for the record. */
export async function revokeApiKey(trx: Knex.Transaction, studio: Studio, id: string, now: Date) {
  const existing = await keyOfStudio(trx, studio, id);
  if (!existing.revokedAt)
    await trx('studio_apis').where({ id: existing.id }).update({ revokedAt: now, updatedAt: now });
}

// --- The public API's gate ------------------------------------------------------------------------

/** POSTs that only read (a search in the body, the liveness check, the graph query). */
const READING_POSTS = [
  /^\/api\/v2\/public\/schedule$/,
  /^\/api\/v2\/public\/ping$/,
  /^\/api\/v2\/public\/user\/login$/,
  /^\/api\/v2\/public\/[^/]+\/graph$/,
];

const limiters = new WeakMap<Deps, Map<number, RateLimiterAbstract>>();

function limiterFor(deps: Deps, perMinute: number): RateLimiterAbstract {
  let byPoints = limiters.get(deps);
  if (!byPoints) limiters.set(deps, (byPoints = new Map()));
  let limiter = byPoints.get(perMinute);
  if (!limiter) {
    limiter = deps.rateLimits.limiter(`apikey${perMinute}-`, { points: perMinute, durationSeconds: 60 });
    byPoints.set(perMinute, limiter);
  }
  return limiter;
}

const invalid = () => new AppError('apiKey.invalid', { message: 'missing or invalid API key' });

/**
 * Every call under /api/v2/public/: the `x-api-key` must be a live key (401 otherwise), a read key
 * may not change anything (403), and each key spends from its own per-minute budget, told in the
 * RateLimit headers (IETF draft: RateLimit-Limit, -Remaining, -Reset, RateLimit-Policy); over it,
 * 429 with Retry-After. The key's last use is recorded at most once a minute.
 */
export const publicApiKeyMiddleware: Koa.Middleware<AppState, AppCustom> = async (ctx, next) => {
  if (!ctx.path.startsWith(PUBLIC_PREFIX)) return next();
  const deps = ctx.deps;
  const secret = ctx.get(API_KEY_HEADER);
  if (!secret || secret.length < 16 || secret.length > 200) throw invalid();
  const row = await deps
    .knex('studio_apis')
    .where({ keyHash: hashApiKey(secret) })
    .whereNull('revokedAt')
    .first('id', 'studioId', 'scope', 'rateLimitPerMinute');
  if (!row) throw invalid();
  const scope: ApiKeyScope = row.scope === 'read' ? 'read' : 'read_write';
  const reading =
    ctx.method === 'GET' || ctx.method === 'HEAD' || READING_POSTS.some((re) => re.test(ctx.path));
  if (scope === 'read' && !reading)
    throw new AppError('apiKey.readOnly', { message: 'this API key may only read' });

  const limit = row.rateLimitPerMinute || API_KEY_RATE_LIMIT.default;
  ctx.set('RateLimit-Policy', `${limit};w=60`);
  ctx.set('RateLimit-Limit', String(limit));
  let res: RateLimiterRes;
  try {
    res = await limiterFor(deps, limit).consume(row.id);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw new AppError('rateLimit.exceeded', {
      message: 'too many requests for this API key, try again later',
      headers: {
        'Retry-After': String(retryAfter),
        'RateLimit-Policy': `${limit};w=60`,
        'RateLimit-Limit': String(limit),
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': String(retryAfter),
      },
    });
  }
  ctx.set('RateLimit-Remaining', String(Math.max(0, res.remainingPoints)));
  ctx.set('RateLimit-Reset', String(Math.max(1, Math.ceil(res.msBeforeNext / 1000))));

  const now = deps.clock.now();
  await deps
    .knex('studio_apis')
    .where({ id: row.id })
    .andWhere((q) => q.whereNull('lastUsedAt').orWhere('lastUsedAt', '<', new Date(now.getTime() - 60_000)))
    .update({ lastUsedAt: now });
  ctx.state.apiKey = { id: row.id, studioId: row.studioId, scope };
  return next();
};
