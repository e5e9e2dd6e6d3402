import type { Db } from '../../db/knex';
import { User } from './user.model';

/** Emails are unique case-insensitively (index on lower(email)); we store them lower-cased too. */
export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return await User.query(db).whereRaw('lower(email) = ?', [email.trim().toLowerCase()]).first();
}
