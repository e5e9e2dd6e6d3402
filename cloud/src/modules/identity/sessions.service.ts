import { compiled } from '../../db/compiled';
import type { Db, Knex } from '../../db/knex';
import type { Clock } from '../../clock';
import { v7 as uuidv7 } from 'uuid';
import {
  STUDIO_SCOPE_KEYS,
  studioScopeJoin,
  studioScopeOf,
  type Session,
  type StudioWithMembership,
  type User,
} from './rows';
import { newSecret, sha256 } from './tokens';

/** Sessions older than this since last use are extended on activity (sliding expiry). */
const EXTEND_AFTER_MS = 60 * 60 * 1000;

export interface OpenedSession {
  session: Session;
  /** The secret the client presents; only its hash is stored. */
  sessionId: string;
}

export async function openSession(
  trx: Db,
  clock: Clock,
  userId: string,
  ttlHours: number,
  meta: { userAgent?: string | undefined; ip?: string | undefined },
): Promise<OpenedSession> {
  const sessionId = newSecret();
  const now = clock.now();
  const [session] = await trx('sessions')
    .insert({
      id: uuidv7(),
      userId,
      tokenHash: sha256(sessionId),
      csrfToken: newSecret(24),
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
      ip: meta.ip?.slice(0, 64) ?? null,
      expiresAt: new Date(now.getTime() + ttlHours * 3600_000),
      lastSeenAt: now,
    })
    .returning('*');
  return { session: session!, sessionId };
}

/** Every column of a session, read joined to its user under prefixed names. */
const SESSION_COLUMNS = [
  'id',
  'userId',
  'tokenHash',
  'csrfToken',
  'userAgent',
  'ip',
  'expiresAt',
  'revokedAt',
  'lastSeenAt',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof Session>;
// A column added to sessions must be added above (the compiler says so here).
const sessionColumnsComplete: Exclude<keyof Session, (typeof SESSION_COLUMNS)[number]> extends never
  ? true
  : false = true;
void sessionColumnsComplete;

/** Each session column with the key the session's read answers it under (`session_<column>`, camelCased). */
const SESSION_KEYS = SESSION_COLUMNS.map((c) => [c, `session${c[0]!.toUpperCase()}${c.slice(1)}`] as const);
const SESSION_KEY_SET: ReadonlySet<string> = new Set(SESSION_KEYS.map(([, k]) => k));

/** The session with this token hash joined to its user. */
const sessionQuery = (db: Knex, tokenHash: string) =>
  db('sessions as s')
    .join('users as u', 'u.id', 's.userId')
    .where('s.tokenHash', tokenHash)
    .first('u.*', ...SESSION_COLUMNS.map((c) => `s.${c} as session_${c}`));
const SESSION = compiled<{ tokenHash: string }>((db, p) => sessionQuery(db, p.tokenHash));
/** …with the studio the path names and the user's live membership there. */
const SESSION_IN_STUDIO = compiled<{ tokenHash: string; studioId: string }>((db, p) =>
  studioScopeJoin(sessionQuery(db, p.tokenHash), p.studioId, 'u.id'),
);

/**
 * The live session for (userId, secret), or null when unknown, revoked, expired or someone else's.
 * With `studioId` (a request to a studio's route), the studio and the user's live membership in it
 * are read in the same statement (`studioScope`, as `findStudioWithMembership` answers), so the route
 * does not read them again: one round trip fewer on every studio request.
 */
export async function findLiveSession(
  knex: Db,
  clock: Clock,
  userId: string,
  sessionId: string,
  ttlHours: number,
  studioId?: string,
): Promise<{
  user: User;
  session: Session;
  studioScope?: { studioId: string; found: StudioWithMembership };
} | null> {
  // The session and its user in one statement (every signed-in request reads both), compiled once.
  const tokenHash = sha256(sessionId);
  const row = (
    studioId
      ? await SESSION_IN_STUDIO.first(knex, { tokenHash, studioId })
      : await SESSION.first(knex, { tokenHash })
  ) as (User & Record<string, unknown>) | undefined;
  if (!row) return null;
  const studioScope = studioId ? { studioId, found: studioScopeOf(row) } : undefined;
  // The row holds the user's columns, the session's (prefixed) and the studio scope's: taken apart
  // in one pass, by keys known in advance.
  const found: Record<string, unknown> = {};
  for (const [c, k] of SESSION_KEYS) found[c] = row[k];
  const user: Record<string, unknown> = {};
  for (const key in row) if (!SESSION_KEY_SET.has(key) && !STUDIO_SCOPE_KEYS.has(key)) user[key] = row[key];
  const session = found as unknown as Session;
  const now = clock.now();
  if (session.userId !== userId || session.revokedAt || session.expiresAt <= now) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > EXTEND_AFTER_MS) {
    const expiresAt = new Date(now.getTime() + ttlHours * 3600_000);
    await knex('sessions')
      .update({ lastSeenAt: now, expiresAt, updatedAt: new Date() })
      .where({ id: session.id });
    session.lastSeenAt = now;
    session.expiresAt = expiresAt;
  }
  return { user: user as unknown as User, session, ...(studioScope ? { studioScope } : {}) };
}

export async function revokeSession(trx: Db, clock: Clock, sessionDbId: string): Promise<void> {
  await trx('sessions')
    .update({ revokedAt: clock.now(), updatedAt: new Date() })
    .where({ id: sessionDbId })
    .whereNull('revokedAt');
}

export async function revokeAllSessions(trx: Db, clock: Clock, userId: string): Promise<void> {
  await trx('sessions')
    .update({ revokedAt: clock.now(), updatedAt: new Date() })
    .where({ userId })
    .whereNull('revokedAt');
}
