import { BaseModel } from '../../db/base.model';

/** A server-side session: expiring and revocable. Only a hash of the secret session id is stored. */
export class Session extends BaseModel {
  static override tableName = 'sessions';
  userId!: string;
  tokenHash!: string;
  csrfToken!: string;
  userAgent!: string | null;
  ip!: string | null;
  expiresAt!: Date;
  revokedAt!: Date | null;
  lastSeenAt!: Date;
}

export class PasswordResetToken extends BaseModel {
  static override tableName = 'password_reset_tokens';
  userId!: string;
  studioId!: string | null;
  tokenHash!: string;
  expiresAt!: Date;
  usedAt!: Date | null;
}

export class EmailVerificationToken extends BaseModel {
  static override tableName = 'email_verification_tokens';
  userId!: string;
  studioId!: string | null;
  email!: string;
  tokenHash!: string;
  expiresAt!: Date;
  usedAt!: Date | null;
}
