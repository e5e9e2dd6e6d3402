import { v7 as uuidv7 } from 'uuid';
import type {
  UserMessageList,
  UserMessageView,
  UserNotificationList,
  UserNotificationView,
} from '../../../../shared/contracts/api/client-accounts';
import { AppError } from '../../../../shared/errors';
import type { UserMessagesRow, UserNotificationsRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';

const presentMessage = (r: UserMessagesRow): UserMessageView => ({
  id: r.id,
  from: r.sender === 'client' ? 'client' : 'studio',
  subject: r.subject,
  content: r.content,
  // The client's own messages count as read for them.
  read: r.sender === 'client' || r.readAt !== null,
  createdAt: new Date(r.createdAt).toISOString(),
});

/** The jsonb values a notification's text is filled with (written by `notify`: strings by name). */
const textValues = (values: unknown): Record<string, string> =>
  values && typeof values === 'object' && !Array.isArray(values)
    ? Object.fromEntries(
        Object.entries(values).filter((e): e is [string, string] => typeof e[1] === 'string'),
      )
    : {};

const presentNotification = (r: UserNotificationsRow): UserNotificationView => ({
  id: r.id,
  type: r.type,
  titleKey: r.titleKey,
  values: textValues(r.values),
  read: r.readAt !== null,
  createdAt: new Date(r.createdAt).toISOString(),
});

/** A notification for a client of the studio (other modules call this too). */
export async function notify(
  trx: Db,
  studioId: string,
  userId: string,
  type: string,
  titleKey: string,
  values: Record<string, string> = {},
): Promise<void> {
  await trx('user_notifications').insert({
    id: uuidv7(),
    studioId,
    userId,
    type,
    titleKey,
    values: JSON.stringify(values),
  });
}

// Ids are UUIDv7 (time-ordered): newest first is id order, and the cursor is the last id.
export async function listMessages(
  db: Db,
  studioId: string,
  userId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<UserMessageList> {
  const rows = await db('user_messages')
    .where({ studioId, userId })
    .modify((q) => {
      if (page.cursor) q.where('id', '<', page.cursor);
    })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  if (more) rows.length = page.limit;
  const unread = await db('user_messages')
    .where({ studioId, userId, sender: 'studio' })
    .whereNull('readAt')
    .count({ n: '*' })
    .first();
  return {
    items: rows.map(presentMessage),
    next: more ? rows[rows.length - 1]!.id : null,
    unreadCount: Number(unread?.n ?? 0),
  };
}

/** Marks a message the studio sent to this client as read (404 for anything else). */
export async function markMessageRead(
  trx: Db,
  studioId: string,
  userId: string,
  messageId: string,
  now: Date,
): Promise<UserMessageView> {
  const row = await trx('user_messages')
    .where({ id: messageId, studioId, userId, sender: 'studio' })
    .forUpdate()
    .first();
  if (!row) throw AppError.notFound('message');
  if (!row.readAt) {
    await trx('user_messages').where('id', row.id).update({ readAt: now, updatedAt: now });
    row.readAt = now;
  }
  return presentMessage(row);
}

export async function createMessage(
  trx: Db,
  studioId: string,
  userId: string,
  sender: 'studio' | 'client',
  authorId: string,
  subject: string,
  content: string,
): Promise<UserMessageView> {
  const [row] = await trx('user_messages')
    .insert({ id: uuidv7(), studioId, userId, sender, authorId, subject, content })
    .returning('*');
  if (sender === 'studio')
    await notify(trx, studioId, userId, 'message', 'notifications.message', { subject });
  return presentMessage(row!);
}

export async function listNotifications(
  db: Db,
  studioId: string,
  userId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<UserNotificationList> {
  const rows = await db('user_notifications')
    .where({ studioId, userId })
    .modify((q) => {
      if (page.cursor) q.where('id', '<', page.cursor);
    })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  if (more) rows.length = page.limit;
  const unread = await db('user_notifications')
    .where({ studioId, userId })
    .whereNull('readAt')
    .count({ n: '*' })
    .first();
  return {
    items: rows.map(presentNotification),
    next: more ? rows[rows.length - 1]!.id : null,
    unreadCount: Number(unread?.n ?? 0),
  };
}

export async function markNotificationRead(
  trx: Db,
  studioId: string,
  userId: string,
  id: string,
  now: Date,
): Promise<UserNotificationView> {
  const row = await trx('user_notifications').where({ id, studioId, userId }).forUpdate().first();
  if (!row) throw AppError.notFound('notification');
  if (!row.readAt) {
    await trx('user_notifications').where('id', row.id).update({ readAt: now, updatedAt: now });
    row.readAt = now;
  }
  return presentNotification(row);
}

export async function markAllNotificationsRead(
  trx: Db,
  studioId: string,
  userId: string,
  now: Date,
): Promise<number> {
  return trx('user_notifications')
    .where({ studioId, userId })
    .whereNull('read_at')
    .update({ readAt: now, updatedAt: now });
}
