import { createHash, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { KIOSK_SESSION_HEADER } from '../../../../shared/contracts/api/kiosk';
import { KIOSK_INVALID_MESSAGE } from '../../../../shared/contracts/api/entry';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { AppContext } from '../../http/context';
import { findStudio, type Studio } from '../identity/index';
import { newSecret, sha256 } from '../identity/index';
import { kioskRow, type KioskRow } from './kiosk-admin.service';

/** A kiosk stays signed in for 30 days from its last call (it runs all day, every day). */
export const KIOSK_SESSION_DAYS = 30;
const DAY = 86_400_000;
/** Calls of a kiosk path: `/api/v4/{uuid}/kiosk/...`. Everything else refuses a kiosk session. */
const KIOSK_API_PATH = /^\/api\/v4\/[^/]+\/kiosk(\/|$)/;

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
const keysMatch = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));
/** Compared against when the kiosk does not exist, so that case takes as long as a wrong key. */
const ABSENT_KEY = newSecret(12);

const kioskInvalid = () =>
  new AppError('auth.kioskInvalid', {
    message: KIOSK_INVALID_MESSAGE,
    fields: { kioskKey: [KIOSK_INVALID_MESSAGE] },
  });

/**
 * A request that carries a kiosk session may call kiosk paths only: anywhere else it is 403, even
 * when the same browser also holds a staff session cookie (a kiosk tablet must never reach the
 * back office through it).
 */
export async function kioskScopeMiddleware(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  if (ctx.get(KIOSK_SESSION_HEADER) && ctx.path.startsWith('/api/') && !KIOSK_API_PATH.test(ctx.path))
    throw new AppError('kiosk.sessionOnly', { message: 'a kiosk may only make kiosk calls' });
  await next();
}

/** The key a kiosk signs in with: its own, or for the default kiosk the studio's kiosk key. */
export function expectedKey(studio: Studio, kiosk: KioskRow): string {
  return kiosk.kioskKey ?? studio.kioskKey;
}

/** Kiosk sign-in: the studio uuid (path), the kiosk id and its key → a session token. */
export async function openKioskSession(
  trx: Db,
  uuid: string,
  kioskId: string,
  kioskKey: string,
  now: Date,
  userAgent: string | undefined,
): Promise<{ token: string; studio: Studio; kiosk: KioskRow }> {
  const studio = await findStudio(trx, uuid);
  const kiosk = studio ? await kioskRow(trx, studio.id, kioskId) : undefined;
  const matches = keysMatch(kioskKey, studio && kiosk ? expectedKey(studio, kiosk) : ABSENT_KEY);
  if (!studio || !kiosk || !matches) throw kioskInvalid();
  const token = newSecret(32);
  await trx('kiosk_sessions').insert({
    id: uuidv7(),
    studioId: studio.id,
    kioskId: kiosk.id,
    tokenHash: sha256(token),
    userAgent: userAgent ? userAgent.slice(0, 300) : null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + KIOSK_SESSION_DAYS * DAY),
  });
  return { token, studio, kiosk };
}

/**
 * The kiosk of the request's session, for the `{uuid}` studio. No token: 401; an unknown, revoked
 * or expired one: 401 `auth.sessionExpired` (the app signs in again with its stored key); another
 * studio's session: 404, like every other tenancy miss.
 */
export async function requireKiosk(
  ctx: AppContext,
  db: Db,
  uuid: string,
): Promise<{ studio: Studio; kiosk: KioskRow; sessionId: string }> {
  const token = ctx.get(KIOSK_SESSION_HEADER);
  if (!token) throw new AppError('auth.required', { message: 'kiosk sign-in required' });
  const now = ctx.deps.clock.now();
  const session = (await db('kiosk_sessions')
    .where({ tokenHash: sha256(token) })
    .whereNull('revoked_at')
    .where('expires_at', '>', now)
    .first('id', 'studio_id', 'kiosk_id', 'last_seen_at')) as
    { id: string; studioId: string; kioskId: string; lastSeenAt: Date } | undefined;
  if (!session)
    throw new AppError('auth.sessionExpired', { message: 'kiosk session expired, sign in again' });
  if (session.studioId !== uuid) throw AppError.notFound('studio');
  const studio = await findStudio(db, session.studioId);
  const kiosk = studio ? await kioskRow(db, studio.id, session.kioskId) : undefined;
  if (!studio || !kiosk) throw new AppError('auth.sessionExpired', { message: 'kiosk removed' });
  // Sliding expiry, written at most hourly so a busy kiosk does not write on every read.
  if (now.getTime() - new Date(session.lastSeenAt).getTime() > 3_600_000)
    await db('kiosk_sessions')
      .where({ id: session.id })
      .update({ lastSeenAt: now, expiresAt: new Date(now.getTime() + KIOSK_SESSION_DAYS * DAY) });
  return { studio, kiosk, sessionId: session.id };
}

export async function revokeKioskSessions(trx: Db, kioskId: string, now: Date): Promise<void> {
  await trx('kiosk_sessions').where({ kioskId }).whereNull('revoked_at').update({ revokedAt: now });
}
