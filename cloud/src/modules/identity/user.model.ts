import { BaseModel } from '../../db/base.model';

export class User extends BaseModel {
  static override tableName = 'users';
  email!: string;
  passwordHash!: string | null;
  firstName!: string;
  lastName!: string;
  phone!: string | null;
  locale!: string | null;
  /** When the person proved they own `email` (a verification or reset link); null: not yet. */
  emailVerifiedAt!: Date | null;

  override $formatJson(json: Record<string, unknown>) {
    const out = super.$formatJson(json);
    delete out.passwordHash;
    return out;
  }
}
