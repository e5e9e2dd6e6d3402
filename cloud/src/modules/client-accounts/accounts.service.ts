import { v7 as uuidv7 } from 'uuid';
import type {
  AccountSettings,
  AccountSettingsInput,
  ClientProfile,
  ClientSignupInput,
} from '../../../../shared/contracts/api/client-accounts';
import { AVATAR_MAX_BYTES } from '../../../../shared/contracts/api/client-accounts';
import { missingAgreementErrors } from '../../../../shared/domain/accounts';
import { localDate } from '../../../../shared/domain/clients';
import { AppError } from '../../../../shared/errors';
import { isLocale, type Locale } from '../../../../shared/i18n/locales';
import type { Clock } from '../../clock';
import type { Db } from '../../db/knex';
import { tFor } from '../../i18n';
import type { MailMessage } from '../../mail/mailer';
import { frontOfficePath } from '../../../../shared/contracts/routes';
import { invalidateResetTokens } from '../identity/index';
import type { UserProfilesRow, UsersUpdate } from '../../db/generated/tables';
import { findUser, type Studio, type User } from '../identity/index';
import { hashPassword, verifyPassword } from '../identity/index';
import { newSecret } from '../identity/index';
import { publishedAgreements, recordAcceptances } from './agreements.service';
import { ensureQrIdentity } from './identities.service';
import type { FileStorage } from '../../storage';

const NAME_MAX = 100;

/** What a client sign-up made: the user (new or existing) now a client of the studio. */
export interface SignedUpClient {
  user: User;
  createdUser: boolean;
}

const alreadyClient = () =>
  new AppError('resource.conflict', {
    message: 'you already have an account in this studio: sign in',
    fields: { emailAddress: ['you already have an account in this studio: sign in'] },
  });

/**
 * A client signs up at a studio: the studio's required agreements must be accepted (400 per
 * agreement otherwise); a new address gets a user; an address that already has an account (another
 * studio, or staff here) is attached after its password is checked, and nothing of that account
 * changes. Then a client membership (the clients module's trigger makes the studio's record), the
 * answers to every published agreement with version and time, and the client's QR identity.
 */
export async function signUpClient(
  trx: Db,
  studio: Studio,
  input: ClientSignupInput,
  locale: Locale,
  now: Date,
): Promise<SignedUpClient> {
  const agreements = await publishedAgreements(trx, studio.id);
  const missing = missingAgreementErrors(agreements, input.agreements);
  if (Object.keys(missing).length > 0) throw AppError.invalid(missing, 'accept the required agreements');

  let user = await trx('users')
    .whereRaw('lower(email) = ?', [input.emailAddress.toLowerCase()])
    .forUpdate()
    .first();
  const createdUser = !user;
  if (user) {
    if (!user.passwordHash) {
      // Made by a studio (no password yet): its owner sets one through "forgot password".
      throw new AppError('resource.conflict', {
        message: 'this email address already has an account: use "forgot password" to set its password',
        fields: {
          emailAddress: [
            'this email address already has an account: use "forgot password" to set its password',
          ],
        },
      });
    }
    if (!(await verifyPassword(input.password, user.passwordHash))) {
      throw AppError.invalid(
        { password: ['this email address already has an account: enter its password'] },
        'wrong password for an existing account',
      );
    }
    const membership = await trx('memberships')
      .where({ studioId: studio.id, userId: user.id })
      .forUpdate()
      .first();
    if (membership?.isClient && !membership.archivedAt) throw alreadyClient();
    if (membership) {
      await trx('memberships')
        .update({ isClient: true, archivedAt: null, updatedAt: new Date() })
        .where({ id: membership.id });
    } else {
      await trx('memberships').insert({
        id: uuidv7(),
        studioId: studio.id,
        userId: user.id,
        isClient: true,
        isMember: false,
        role: null,
      });
    }
  } else {
    [user] = await trx('users')
      .insert({
        id: uuidv7(),
        email: input.emailAddress.toLowerCase(),
        passwordHash: await hashPassword(input.password),
        firstName: input.firstName,
        lastName: input.lastName,
        phone: input.phone ?? null,
        locale,
      })
      .returning('*');
    if (!user) throw new Error('the user just inserted is missing');
    await trx('memberships').insert({
      id: uuidv7(),
      studioId: studio.id,
      userId: user.id,
      isClient: true,
      isMember: false,
      role: null,
    });
  }
  await recordAcceptances(trx, studio.id, user.id, agreements, input.agreements, now);
  await ensureQrIdentity(trx, studio.id, user.id);
  return { user, createdUser };
}

export function clientWelcomeEmail(user: User, studio: Studio, baseUrl: string, locale: Locale): MailMessage {
  const t = tFor(locale);
  const vars = {
    name: user.firstName || user.email,
    studio: studio.name,
    link: `${baseUrl}${frontOfficePath(studio.id)}`,
  };
  return {
    to: user.email,
    subject: t('account:mail.welcome.subject', vars),
    text: t('account:mail.welcome.body', vars),
  };
}

export function mailLocale(user: Pick<User, 'locale'>, studio: Studio): Locale {
  if (isLocale(user.locale)) return user.locale;
  return isLocale(studio.defaultLocale) ? studio.defaultLocale : 'en';
}

// ------------------------------------------------------------------------------------------ profile

/** The profile row with its birth date as the text `YYYY-MM-DD` (read as `birth_date::text`). */
type ProfileRow = Omit<UserProfilesRow, 'birthDate'> & { birthDate: string | null };

export async function profileRow(db: Db, userId: string): Promise<ProfileRow | undefined> {
  const row: ProfileRow | undefined = await db('user_profiles')
    .where({ userId })
    .first('*', db.raw('birth_date::text as birth_date'));
  return row;
}

/** Creates the person's profile row when missing (defaults: email and push notifications on). */
async function lockProfile(trx: Db, userId: string): Promise<ProfileRow> {
  await trx('user_profiles').insert({ userId }).onConflict('user_id').ignore();
  const row: ProfileRow | undefined = await trx('user_profiles')
    .where({ userId })
    .forUpdate()
    .first('*', trx.raw('birth_date::text as birth_date'));
  return row!;
}

export const avatarUrl = (studioId: string, userId: string, file: string | null) =>
  file
    ? `/api/v4/${studioId}/user/${userId}/avatar?v=${encodeURIComponent(file.split('.')[0]!.slice(-8))}`
    : null;

/** Whether the user is a live client of the studio. */
export async function isLiveClient(db: Db, studioId: string, userId: string): Promise<boolean> {
  const m = await db('memberships')
    .where({ studioId, userId, isClient: true })
    .whereNull('archivedAt')
    .first('id');
  return Boolean(m);
}

export async function getProfile(
  db: Db,
  studio: Studio,
  userId: string,
  editable: boolean,
): Promise<ClientProfile> {
  const user = await findUser(db, userId);
  if (!user) throw AppError.notFound('client');
  const p = await profileRow(db, userId);
  return {
    userId: user.id,
    emailAddress: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    birthDate: p?.birthDate ?? null,
    sex: p?.sex ?? null,
    avatarUrl: avatarUrl(studio.id, user.id, p?.avatarFile ?? null),
    editable,
  };
}

/**
 * The person changes their own profile. Name and phone live on the user row (the clients module's
 * trigger carries them to every studio record that still held the old value); birth date and sex on
 * the profile, carried the same way here: a value a studio changed itself is kept.
 */
export async function updateProfile(
  trx: Db,
  studio: Studio,
  userId: string,
  input: {
    firstName: string;
    lastName: string;
    phone?: string | null | undefined;
    birthDate?: string | null | undefined;
    sex?: number | null | undefined;
  },
  now: Date,
): Promise<ClientProfile> {
  if (input.birthDate && input.birthDate > localDate(now, studio.timeZone))
    throw AppError.invalid({ birthDate: ['cannot be in the future'] });
  const userPatch: UsersUpdate = {
    updatedAt: new Date(),
    firstName: input.firstName.slice(0, NAME_MAX),
    lastName: input.lastName.slice(0, NAME_MAX),
  };
  if (input.phone !== undefined) userPatch.phone = input.phone;
  await trx('users').update(userPatch).where({ id: userId });
  const old = await lockProfile(trx, userId);
  const patch: Record<string, unknown> = { updatedAt: now };
  if (input.birthDate !== undefined) patch.birthDate = input.birthDate;
  if (input.sex !== undefined) patch.sex = input.sex;
  await trx('user_profiles').where('user_id', userId).update(patch);
  if (input.birthDate !== undefined && input.birthDate !== old.birthDate) {
    await trx('clients')
      .where('user_id', userId)
      .whereRaw('birth_date is not distinct from ?::date', [old.birthDate])
      .update({ birthDate: input.birthDate, updatedAt: now });
  }
  if (input.sex !== undefined && input.sex !== old.sex) {
    await trx('clients')
      .where('user_id', userId)
      .whereRaw('sex is not distinct from ?::smallint', [old.sex])
      .update({ sex: input.sex, updatedAt: now });
  }
  return getProfile(trx, studio, userId, true);
}

// ------------------------------------------------------------------------------------------- avatar

const SIGNATURES: Array<{ type: string; ext: string; test: (b: Buffer) => boolean }> = [
  {
    type: 'image/png',
    ext: 'png',
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: 'image/webp',
    ext: 'webp',
    test: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** Where an avatar lives in the file storage (storage/: DATA_DIR or S3). */
export const avatarKey = (file: string) => `avatars/${file}`;

/**
 * Stores a new avatar in the file storage under avatars/ (a fresh file name each time, so caches
 * never show the old one) and returns the file to delete after commit. The bytes decide the type, not the label:
 * a PNG label on anything that is not PNG, JPEG or WebP is refused.
 */
export async function saveAvatar(
  trx: Db,
  storage: FileStorage,
  userId: string,
  dataUrl: string,
  now: Date,
): Promise<{ previousFile: string | null }> {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length > AVATAR_MAX_BYTES)
    throw AppError.invalid({ dataUrl: ['the image is too large (at most 512 KB)'] });
  const kind = SIGNATURES.find((s) => s.test(bytes));
  if (!kind || bytes.length < 16) throw AppError.invalid({ dataUrl: ['send a PNG, JPEG or WebP image'] });
  const old = await lockProfile(trx, userId);
  const file = `${userId}-${newSecret(9).replace(/[^A-Za-z0-9]/g, 'x')}.${kind.ext}`;
  await storage.put(avatarKey(file), bytes, kind.type);
  await trx('user_profiles')
    .where('user_id', userId)
    .update({ avatarFile: file, avatarType: kind.type, updatedAt: now });
  return { previousFile: old.avatarFile };
}

export async function removeAvatar(
  trx: Db,
  userId: string,
  now: Date,
): Promise<{ previousFile: string | null }> {
  const old = await lockProfile(trx, userId);
  await trx('user_profiles')
    .where('user_id', userId)
    .update({ avatarFile: null, avatarType: null, updatedAt: now });
  return { previousFile: old.avatarFile };
}

export async function deleteAvatarFile(storage: FileStorage, file: string | null): Promise<void> {
  if (!file || file.includes('/') || file.includes('\\')) return;
  await storage.delete(avatarKey(file));
}

export async function readAvatar(
  db: Db,
  storage: FileStorage,
  userId: string,
): Promise<{ bytes: Buffer; type: string } | null> {
  const p = await profileRow(db, userId);
  if (!p?.avatarFile || !p.avatarType) return null;
  const bytes = await storage.read(avatarKey(p.avatarFile)).catch(() => null);
  return bytes ? { bytes, type: p.avatarType } : null;
}

// ----------------------------------------------------------------------------------------- security

/**
 * Changes the password: the current one must be given (a stolen open session alone cannot lock the
 * owner out), every other session of the person ends (the asking session stays), and every
 * outstanding reset link stops working.
 */
export async function changePassword(
  trx: Db,
  clock: Clock,
  user: User,
  keepSessionId: string,
  currentPassword: string,
  newPassword: string,
): Promise<void> {
  const fresh = await trx('users').where({ id: user.id }).forUpdate().first();
  if (!fresh || !(await verifyPassword(currentPassword, fresh.passwordHash)))
    throw AppError.invalid({ currentPassword: ['wrong password'] }, 'wrong password');
  if (currentPassword === newPassword)
    throw AppError.invalid({ newPassword: ['choose a password different from the current one'] });
  await trx('users')
    .update({ passwordHash: await hashPassword(newPassword), updatedAt: new Date() })
    .where({ id: user.id });
  await invalidateResetTokens(trx, user.id, clock.now());
  await trx('sessions')
    .update({ revokedAt: clock.now(), updatedAt: new Date() })
    .where({ userId: user.id })
    .whereNot({ id: keepSessionId })
    .whereNull('revokedAt');
}

// ----------------------------------------------------------------------------------------- settings

export async function getSettings(db: Db, user: User): Promise<AccountSettings> {
  const p = await profileRow(db, user.id);
  return {
    locale: isLocale(user.locale) ? user.locale : null,
    notifications: { email: p?.notifyEmail ?? true, sms: p?.notifySms ?? false, push: p?.notifyPush ?? true },
  };
}

export async function saveSettings(
  trx: Db,
  user: User,
  input: AccountSettingsInput,
  now: Date,
): Promise<AccountSettings> {
  await trx('users').update({ locale: input.locale, updatedAt: new Date() }).where({ id: user.id });
  await lockProfile(trx, user.id);
  await trx('user_profiles').where('user_id', user.id).update({
    notifyEmail: input.notifications.email,
    notifySms: input.notifications.sms,
    notifyPush: input.notifications.push,
    updatedAt: now,
  });
  return { locale: input.locale, notifications: input.notifications };
}
