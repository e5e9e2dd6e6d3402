import {
  APPEARANCE_SIZES,
  DEFAULT_POLICIES,
  PICTURE_MAX_BYTES,
  type AppearancePicture,
  type StudioAppearanceView,
  type StudioPolicies,
  type StudioProfile,
  type StudioProfilePatch,
  type StudioSettingsPatch,
  type StudioSettingsView,
} from '../../../../shared/contracts/api/studio-admin';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { loadSharp } from '../../libraries';
import type { FileStorage } from '../../storage/index';
import { findStudio, newSecret, type Studio } from '../identity/index';

/**
 * The studio's profile, booking defaults and look (issue 25). Name, slug, address, currency, time
 * zone and language are the studios table's columns; the rest lives in its jsonb columns:
 * `settings.profile` (legal name, tax id, contact), `settings.policies` (booking defaults) and
 * `appearance` (logo and cover files, colours; `defaultLogo.absoluteUrl` and `logo_url` keep the
 * shape the entry app's lookups already read).
 */
interface ProfileExtras {
  legalName?: string;
  taxId?: string;
  email?: string;
  phone?: string;
  website?: string;
}
interface StoredAppearance {
  defaultLogo?: { absoluteUrl: string } | null;
  primaryColor?: string | null;
  accentColor?: string | null;
  logoFile?: string | null;
  coverFile?: string | null;
}

const object = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const int = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isInteger(value) ? value : fallback;

function extrasOf(studio: Studio): ProfileExtras {
  const p = object(studio.settings.profile);
  return {
    legalName: str(p.legalName),
    taxId: str(p.taxId),
    email: str(p.email),
    phone: str(p.phone),
    website: str(p.website),
  };
}

export function policiesOf(studio: Studio): StudioPolicies {
  const p = object(studio.settings.policies);
  return {
    bookingWindowDays: int(p.bookingWindowDays, DEFAULT_POLICIES.bookingWindowDays),
    cancellationCutoffMinutes: int(p.cancellationCutoffMinutes, DEFAULT_POLICIES.cancellationCutoffMinutes),
    bookingCutoffMinutes: int(p.bookingCutoffMinutes, DEFAULT_POLICIES.bookingCutoffMinutes),
  };
}

const storedAppearance = (studio: Studio): StoredAppearance => studio.appearance as StoredAppearance;

/** Where a picture is served from (relative: the web apps load it from the same origin). */
export const appearancePicturePath = (studioId: string, type: AppearancePicture, file: string) =>
  `/api/v4/${studioId}/studio-appearance/${type}/${file}`;
export const appearanceKey = (studioId: string, type: AppearancePicture, file: string) =>
  `studio-appearance/${studioId}/${type}/${file}`;

export function appearanceOf(studio: Studio): StudioAppearanceView {
  const a = storedAppearance(studio);
  return {
    uuid: studio.id,
    name: studio.name,
    logoUrl: a.logoFile ? appearancePicturePath(studio.id, 'logo', a.logoFile) : null,
    coverUrl: a.coverFile ? appearancePicturePath(studio.id, 'cover', a.coverFile) : null,
    primaryColor: a.primaryColor ?? null,
    accentColor: a.accentColor ?? null,
  };
}

function profileOf(studio: Studio): StudioProfile {
  const extras = extrasOf(studio);
  return {
    uuid: studio.id,
    name: studio.name,
    legalName: extras.legalName ?? '',
    taxId: extras.taxId ?? '',
    addressLine: studio.addressLine,
    postalCode: studio.postalCode,
    city: studio.city,
    country: studio.country,
    email: extras.email ?? '',
    phone: extras.phone ?? '',
    website: extras.website ?? '',
    timeZone: studio.timeZone,
    currency: studio.currency,
    defaultLocale: studio.defaultLocale,
    slug: studio.slug,
  };
}

export function settingsView(studio: Studio): StudioSettingsView {
  return { profile: profileOf(studio), policies: policiesOf(studio), appearance: appearanceOf(studio) };
}

async function reload(db: Db, studioId: string): Promise<Studio> {
  const studio = await findStudio(db, studioId);
  if (!studio) throw AppError.notFound('studio');
  return studio;
}

export async function patchStudioProfile(
  trx: Db,
  studio: Studio,
  patch: StudioProfilePatch,
  now: Date,
): Promise<StudioSettingsView> {
  const { legalName, taxId, email, phone, website, ...columns } = patch;
  if (columns.slug !== undefined && columns.slug !== studio.slug) {
    const taken = await trx('studios')
      .whereRaw('lower(slug) = lower(?)', [columns.slug])
      .whereNot({ id: studio.id })
      .first('id');
    if (taken)
      throw new AppError('studio.slugTaken', {
        message: 'another studio uses this address',
        fields: { slug: ['another studio uses this address'] },
      });
  }
  const extras = { ...extrasOf(studio) };
  for (const [key, value] of Object.entries({ legalName, taxId, email, phone, website })) {
    if (value !== undefined) extras[key as keyof ProfileExtras] = value;
  }
  await trx('studios')
    .where({ id: studio.id })
    .update({
      ...columns,
      settings: JSON.stringify({ ...studio.settings, profile: extras }),
      updatedAt: now,
    });
  return settingsView(await reload(trx, studio.id));
}

export async function patchStudioSettings(
  trx: Db,
  studio: Studio,
  patch: StudioSettingsPatch,
  now: Date,
): Promise<StudioSettingsView> {
  const { primaryColor, accentColor, ...policyPatch } = patch;
  const policies = { ...policiesOf(studio), ...policyPatch };
  const appearance = { ...storedAppearance(studio) };
  if (primaryColor !== undefined) appearance.primaryColor = primaryColor?.toLowerCase() ?? null;
  if (accentColor !== undefined) appearance.accentColor = accentColor?.toLowerCase() ?? null;
  await trx('studios')
    .where({ id: studio.id })
    .update({
      settings: JSON.stringify({ ...studio.settings, policies }),
      appearance: JSON.stringify(appearance),
      updatedAt: now,
    });
  return settingsView(await reload(trx, studio.id));
}

/**
 * Decodes an uploaded picture (PNG, JPEG or WebP by its bytes, not its label), resizes it to the
 * size the screens use and re-encodes it as WebP: the stored file is always small, never the
 * uploaded bytes (which could carry anything a decoder tolerates).
 */
export async function resizePicture(type: AppearancePicture, dataUrl: string): Promise<Buffer> {
  return (await resizeImage(dataUrl, APPEARANCE_SIZES[type])).bytes;
}

/** Decodes, checks and resizes an uploaded image (see resizePicture); WebP bytes and their size. */
export async function resizeImage(
  dataUrl: string,
  size: { width: number; height: number; fit: 'inside' | 'cover' },
): Promise<{ bytes: Buffer; width: number; height: number }> {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length > PICTURE_MAX_BYTES)
    throw AppError.invalid({ dataUrl: ['the image is too large (at most 4 MB)'] });
  const sharp = await loadSharp();
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: 40_000_000 });
    const meta = await image.metadata();
    if (!meta.format || !['png', 'jpeg', 'webp'].includes(meta.format))
      throw AppError.invalid({ dataUrl: ['send a PNG, JPEG or WebP image'] });
    const { data, info } = await image
      .rotate()
      .resize({ width: size.width, height: size.height, fit: size.fit, withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw AppError.invalid({ dataUrl: ['the file is not a readable PNG, JPEG or WebP image'] });
  }
}

/**
 * Stores a new logo or cover (a fresh file name each time, so caches never show the old one) and
 * points the studio at it; returns the view and the file the caller deletes after commit.
 */
export async function setAppearancePicture(
  trx: Db,
  storage: FileStorage,
  studio: Studio,
  type: AppearancePicture,
  picture: Buffer,
  publicUrl: string,
  now: Date,
): Promise<{ view: StudioSettingsView; previousFile: string | null }> {
  const file = `${type}-${newSecret(12).replace(/[^A-Za-z0-9]/g, 'x')}.webp`;
  await storage.put(appearanceKey(studio.id, type, file), picture, 'image/webp');
  const appearance = { ...storedAppearance(studio) };
  const previousFile = (type === 'logo' ? appearance.logoFile : appearance.coverFile) ?? null;
  if (type === 'logo') {
    appearance.logoFile = file;
    appearance.defaultLogo = { absoluteUrl: `${publicUrl}${appearancePicturePath(studio.id, 'logo', file)}` };
  } else appearance.coverFile = file;
  await trx('studios')
    .where({ id: studio.id })
    .update({
      appearance: JSON.stringify(appearance),
      ...(type === 'logo' ? { logoUrl: appearance.defaultLogo!.absoluteUrl } : {}),
      updatedAt: now,
    });
  return { view: settingsView(await reload(trx, studio.id)), previousFile };
}

export async function removeAppearancePicture(
  trx: Db,
  studio: Studio,
  type: AppearancePicture,
  now: Date,
): Promise<{ view: StudioSettingsView; previousFile: string | null }> {
  const appearance = { ...storedAppearance(studio) };
  const previousFile = (type === 'logo' ? appearance.logoFile : appearance.coverFile) ?? null;
  if (type === 'logo') {
    appearance.logoFile = null;
    appearance.defaultLogo = null;
  } else appearance.coverFile = null;
  await trx('studios')
    .where({ id: studio.id })
    .update({
      appearance: JSON.stringify(appearance),
      ...(type === 'logo' ? { logoUrl: null } : {}),
      updatedAt: now,
    });
  return { view: settingsView(await reload(trx, studio.id)), previousFile };
}

/** The stored picture's bytes, or null (unknown file, or not this studio's current one). */
export async function readAppearancePicture(
  storage: FileStorage,
  studio: Studio,
  type: AppearancePicture,
  file: string,
): Promise<Buffer | null> {
  const a = storedAppearance(studio);
  if ((type === 'logo' ? a.logoFile : a.coverFile) !== file) return null;
  return storage.read(appearanceKey(studio.id, type, file)).catch(() => null);
}
