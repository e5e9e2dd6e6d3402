import type {
  EntryStudio,
  KioskAuthResult,
  PreflightStudioResult,
  PreflightUsernameResult,
  SignupStudio,
} from '../../../../shared/contracts/api/entry';
import { frontOfficePath } from '../../../../shared/contracts/routes';
import { rootSearchAddress } from '../identity/index';
import type { Studio } from '../identity/index';
import type { StudioKiosksRow } from '../../db/generated/tables';

/**
 * An absolute http(s) URL for a stored logo address: root-relative paths (uploads served by us) get
 * the public base URL; anything else (javascript:, data:, relative) is not shown.
 */
export function absoluteUrl(url: string | null | undefined, baseUrl: string): string | null {
  if (!url) return null;
  if (/^https?:\/\//i.test(url)) return url;
  if (url.startsWith('/') && !url.startsWith('//')) return `${baseUrl}${url}`;
  return null;
}

/** The studio's logo: the appearance's default logo, else the plain logo URL. */
function logoOf(studio: Studio, baseUrl: string): string | null {
  return (
    absoluteUrl(studio.appearance?.defaultLogo?.absoluteUrl, baseUrl) ?? absoluteUrl(studio.logoUrl, baseUrl)
  );
}

export function presentEntryStudio(studio: Studio, baseUrl: string): EntryStudio {
  return {
    uuid: studio.id,
    name: studio.name,
    logoUrl: logoOf(studio, baseUrl),
    rootSearchAddress: rootSearchAddress(studio),
  };
}

export function presentSignupStudio(studio: Studio, baseUrl: string): SignupStudio {
  const logo = logoOf(studio, baseUrl);
  const defaultLogo = logo ? { absoluteUrl: logo } : null;
  return {
    ...presentEntryStudio(studio, baseUrl),
    appearance: { defaultLogo },
    settings: { defaultLogo },
    frontOfficeLink: `${baseUrl}${frontOfficePath(studio.id)}`,
  };
}

export function presentLoginPreflight(studios: Studio[], baseUrl: string): PreflightUsernameResult {
  return { isValid: studios.length > 0, studios: studios.map((s) => presentEntryStudio(s, baseUrl)) };
}

export function presentSignupPreflight(studios: Studio[], baseUrl: string): PreflightStudioResult {
  return { isValid: studios.length > 0, studios: studios.map((s) => presentSignupStudio(s, baseUrl)) };
}

export function presentKioskAuth(kiosk: Pick<StudioKiosksRow, 'id'>): KioskAuthResult {
  return { studioKiosk: { guid: kiosk.id } };
}
