import type { Db } from '../../db/knex';
import type { User } from './rows';

/** Emails are unique case-insensitively (index on lower(email)); we store them lower-cased too. */
export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return await db('users').whereRaw('lower(email) = ?', [email.trim().toLowerCase()]).first();
}
