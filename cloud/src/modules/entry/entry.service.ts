import { createHash, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import {
  APP_SEARCH_MAX_RESULTS,
  KIOSK_INVALID_MESSAGE,
  type ClientLogInput,
} from '../../../../shared/contracts/api/entry';
import { backOfficePath, resetPasswordPath } from '../../../../shared/contracts/routes';
import { StudioType } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Locale } from '../../../../shared/i18n/locales';
import type { Clock } from '../../clock';
import type { Db } from '../../db/knex';
import { tFor } from '../../i18n';
import type { MailMessage } from '../../mail/mailer';
import { issueResetToken, WELCOME_TOKEN_TTL_HOURS } from '../identity/index';
import type { StudioKiosksRow } from '../../db/generated/tables';
import { asStudio, findStudio, type Studio, type User } from '../identity/index';
import { newSecret } from '../identity/index';
import { findUserByEmail } from '../identity/index';
import { firstFreeSlug, studioSlugBase } from './studio-slug';
import { claimUnverifiedAccount } from '../identity/index';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Safety bound for one person's studio list; nobody belongs to this many studios. */
const MAX_STUDIOS_PER_EMAIL = 100;

// ---------------------------------------------------------------------------------------------------
// Preflight

/** The studios where this email address has a live (not archived) membership, by name. */
export async function studiosOfEmail(db: Db, emailAddress: string): Promise<Studio[]> {
  const rows = await db('studios')
    .select('studios.*')
    .join('memberships', 'memberships.studioId', 'studios.id')
    .join('users', 'users.id', 'memberships.userId')
    .whereRaw('lower(users.email) = ?', [emailAddress.trim().toLowerCase()])
    .whereNull('memberships.archivedAt')
    .orderBy([{ column: 'studios.name' }, { column: 'studios.id' }])
    .limit(MAX_STUDIOS_PER_EMAIL);
  return rows.map(asStudio);
}

// ---------------------------------------------------------------------------------------------------
// Sign-up

/** What a new studio starts with, by the language of the sign-up page (changed later in settings). */
export const SIGNUP_DEFAULTS: Readonly<
  Record<Locale, { currency: string; timeZone: string; country: string }>
> = {
  pl: { currency: 'PLN', timeZone: 'Europe/Warsaw', country: 'PL' },
  // An English page says nothing about where the studio is: the euro, UTC and no country until the
  // owner sets them in the studio's settings.
  en: { currency: 'EUR', timeZone: 'UTC', country: '' },
};

export const DEFAULT_KIOSK_NAME = 'Kiosk';
const SLUG_ATTEMPTS = 5;

export interface SignupInput {
  emailAddress: string;
  studioName: string;
  firstName: string;
  lastName: string;
  locale: Locale;
}

export interface CreatedStudio {
  studio: Studio;
  owner: User;
  /** Whether the owner's account was made now (false: an existing user now also owns this studio). */
  newUser: boolean;
  /** The set-password token for the welcome email. */
  welcomeToken: string;
}

/**
 * Creates a studio, its owner (or reuses the user with that email, leaving their password and
 * profile alone), the owner's staff membership, the default kiosk and the welcome token. Call it in
 * one transaction: a failure at any step leaves nothing behind.
 */
export async function createStudioFromSignup(
  trx: Db,
  clock: Clock,
  input: SignupInput,
): Promise<CreatedStudio> {
  const defaults = SIGNUP_DEFAULTS[input.locale];
  const studioId = await insertStudioWithFreeSlug(trx, {
    id: uuidv7(),
    name: input.studioName,
    currency: defaults.currency,
    defaultLocale: input.locale,
    timeZone: defaults.timeZone,
    studioType: StudioType.other,
    country: defaults.country,
    kioskKey: newSecret(12),
  });
  const studio = await findStudio(trx, studioId);
  if (!studio) throw new Error('the studio just inserted is missing');

  let owner = await findUserByEmail(trx, input.emailAddress);
  const newUser = !owner;
  // Whoever made an account for this address without proving it does not become the owner with its
  // password: the welcome link (to the mailbox) sets the password.
  if (owner) await claimUnverifiedAccount(trx, clock.now(), owner);
  if (!owner) {
    [owner] = await trx('users')
      .insert({
        id: uuidv7(),
        email: input.emailAddress.trim().toLowerCase(),
        passwordHash: null,
        firstName: input.firstName,
        lastName: input.lastName,
        phone: null,
        locale: input.locale,
      })
      .returning('*');
    if (!owner) throw new Error('the user just inserted is missing');
  }

  await trx('memberships').insert({
    id: uuidv7(),
    studioId: studio.id,
    userId: owner.id,
    isClient: false,
    isMember: true,
    role: 'owner',
  });
  await trx('studio_kiosks').insert({
    id: uuidv7(),
    studioId: studio.id,
    name: DEFAULT_KIOSK_NAME,
    isDefault: true,
  });
  const welcomeToken = await issueResetToken(trx, clock, owner.id, studio.id, WELCOME_TOKEN_TTL_HOURS);
  return { studio, owner, newUser, welcomeToken };
}

/** The columns a sign-up sets; the address, logo, appearance and settings keep their defaults. */
type NewStudioRow = Pick<
  Studio,
  'id' | 'name' | 'currency' | 'defaultLocale' | 'timeZone' | 'studioType' | 'country' | 'kioskKey'
>;

/**
 * Inserts the studio under the first free slug derived from its name. `on conflict do nothing` makes
 * a clash with a concurrent sign-up a retry (with a random suffix), not an aborted transaction.
 */
async function insertStudioWithFreeSlug(trx: Db, row: NewStudioRow): Promise<string> {
  const base = studioSlugBase(row.name);
  // The base holds only [a-z0-9-], so it needs no LIKE escaping.
  const taken = await trx('studios').where('slug', base).orWhere('slug', 'like', `${base}-%`).pluck('slug');
  let slug = firstFreeSlug(base, new Set(taken));
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
    const inserted = await trx('studios')
      .insert({ ...row, slug })
      .onConflict('slug')
      .ignore()
      .returning('id');
    if (inserted.length > 0) return row.id;
    slug = `${base}-${newSecret(3)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '0')}`;
  }
  throw new AppError('studio.slugTaken', {
    message: 'could not find a free address for the studio, try again',
  });
}

export function welcomeEmail(
  owner: User,
  studio: Studio,
  baseUrl: string,
  token: string,
  locale: Locale,
  fallbackName: string,
): MailMessage {
  const t = tFor(locale);
  const vars = {
    name: owner.firstName || fallbackName || owner.email,
    studio: studio.name,
    hours: WELCOME_TOKEN_TTL_HOURS,
    link: `${baseUrl}${resetPasswordPath(studio.id, token)}`,
    backoffice: `${baseUrl}${backOfficePath(studio.id)}`,
  };
  return { to: owner.email, subject: t('mail:welcome.subject', vars), text: t('mail:welcome.body', vars) };
}

// ---------------------------------------------------------------------------------------------------
// Studio search

/** `%`, `_` and the escape character itself match literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Studios whose name contains the text, any case, by name; at most 20. */
export async function searchStudios(db: Db, queryString: string): Promise<Studio[]> {
  const rows = await db('studios')
    .whereRaw(`lower(name) like lower(?) escape '\\'`, [`%${escapeLike(queryString)}%`])
    .orderByRaw('lower(name), id')
    .limit(APP_SEARCH_MAX_RESULTS);
  return rows.map(asStudio);
}

// ---------------------------------------------------------------------------------------------------
// Kiosk sign-in

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Compares digests, so the time taken says nothing about the key's length or its first characters. */
export function kioskKeyMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Compared against when the studio does not exist, so that case takes the same time as a wrong key. */
const ABSENT_STUDIO_KEY = newSecret(12);

const kioskInvalid = () =>
  new AppError('auth.kioskInvalid', {
    message: KIOSK_INVALID_MESSAGE,
    fields: { kioskKey: [KIOSK_INVALID_MESSAGE] },
  });

/**
 * The studio's default kiosk for a uuid and kiosk key; made on first sign-in for studios created
 * before kiosks existed. A wrong key, an unknown studio and a malformed uuid fail alike.
 */
export async function authenticateKiosk(trx: Db, uuid: string, kioskKey: string): Promise<StudioKiosksRow> {
  const studio = UUID_RE.test(uuid) ? await findStudio(trx, uuid) : undefined;
  const matches = kioskKeyMatches(kioskKey, studio?.kioskKey ?? ABSENT_STUDIO_KEY);
  if (!studio || !matches) throw kioskInvalid();

  const defaultKiosk = () => trx('studio_kiosks').where({ studioId: studio.id, isDefault: true }).first();
  const existing = await defaultKiosk();
  if (existing) return existing;
  // Two first sign-ins at once: the studio row lock makes the second see the first one's kiosk.
  await trx('studios').where({ id: studio.id }).forUpdate().first('id');
  const again = await defaultKiosk();
  if (again) return again;
  const [created] = await trx('studio_kiosks')
    .insert({ id: uuidv7(), studioId: studio.id, name: DEFAULT_KIOSK_NAME, isDefault: true })
    .returning('*');
  return created!;
}

// ---------------------------------------------------------------------------------------------------
// Client error log

/** NUL cannot be stored in PostgreSQL text; a report is worth keeping without it. */
const withoutNul = (text: string) => text.replaceAll('\u0000', '');

export async function recordClientError(
  trx: Db,
  input: ClientLogInput,
  meta: { userAgent: string | undefined; ip: string | undefined; userId: string | null },
): Promise<void> {
  await trx('client_error_logs').insert({
    id: uuidv7(),
    level: input.level,
    channel: input.channel,
    message: withoutNul(input.message),
    stack: input.response?.stack ? withoutNul(input.response.stack) : null,
    version: input.response?.version ? withoutNul(input.response.version) : null,
    userAgent: meta.userAgent ? meta.userAgent.slice(0, 300) : null,
    ip: meta.ip ? meta.ip.slice(0, 64) : null,
    userId: meta.userId,
  });
}
