import type { Db } from '../../db/knex';
import type { Clock } from '../../clock';
import { v7 as uuidv7 } from 'uuid';
import { findUser, type Session, type User } from './rows';
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

/** The live session for (userId, secret), or null when unknown, revoked, expired or someone else's. */
export async function findLiveSession(
  knex: Db,
  clock: Clock,
  userId: string,
  sessionId: string,
  ttlHours: number,
): Promise<{ user: User; session: Session } | null> {
  const session = await knex('sessions')
    .where({ tokenHash: sha256(sessionId) })
    .first();
  const now = clock.now();
  if (!session || session.userId !== userId || session.revokedAt || session.expiresAt <= now) return null;
  const user = await findUser(knex, userId);
  if (!user) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > EXTEND_AFTER_MS) {
    const expiresAt = new Date(now.getTime() + ttlHours * 3600_000);
    await knex('sessions')
      .update({ lastSeenAt: now, expiresAt, updatedAt: new Date() })
      .where({ id: session.id });
    session.lastSeenAt = now;
    session.expiresAt = expiresAt;
  }
  return { user, session };
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
