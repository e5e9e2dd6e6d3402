import { StudioScopedModel } from '../../db/base.model';

/**
 * The studio's record of one of its clients (table `clients`, one row per client membership, same
 * id). The user id is what routes call `{user}`. Generated search keys (first_key, last_key,
 * phone_digits, phone_key, birth_md, search_text) are the database's to write: never set them here.
 */
export class Client extends StudioScopedModel {
  static override tableName = 'clients';
  userId!: string;
  firstName!: string;
  lastName!: string;
  /** Lower case; null when the studio has no address for the person. */
  email!: string | null;
  phone!: string | null;
  /** `YYYY-MM-DD` when written; the driver reads a date column back as a local-midnight Date. */
  birthDate!: string | Date | null;
  sex!: number | null;
  archivedAt!: Date | null;
}
