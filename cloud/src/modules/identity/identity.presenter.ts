import type { Db } from '../../db/knex';
import type { Me, MembershipView } from '../../../../shared/contracts/api/auth';
import type { StudioView } from '../../../../shared/contracts/api/studio';
import { frontOfficePath } from '../../../../shared/contracts/routes';
import { isLocale } from '../../../../shared/i18n/locales';
import type { Membership, Studio, User } from './rows';

export function presentStudio(studio: Studio, baseUrl: string): StudioView {
  return {
    uuid: studio.id,
    name: studio.name,
    slug: studio.slug,
    currency: studio.currency,
    defaultLocale: studio.defaultLocale,
    timeZone: studio.timeZone,
    logoUrl: studio.logoUrl,
    rootSearchAddress: rootSearchAddress(studio),
    frontOfficeLink: `${baseUrl}${frontOfficePath(studio.id)}`,
  };
}

/** The one-line address shown next to a studio in lists: street, postal code and city. */
export function rootSearchAddress(studio: Pick<Studio, 'addressLine' | 'postalCode' | 'city'>): string {
  const cityLine = [studio.postalCode, studio.city].filter(Boolean).join(' ');
  return [studio.addressLine, cityLine].filter(Boolean).join(', ');
}

export async function presentMe(db: Db, user: User): Promise<Me> {
  const rows: Array<Membership & { studioName: string }> = await db('memberships')
    .select('memberships.*', 'studios.name as studioName')
    .join('studios', 'studios.id', 'memberships.studioId')
    .where('memberships.userId', user.id)
    .whereNull('memberships.archivedAt')
    .orderBy('studios.name');
  const memberships: MembershipView[] = rows.map((m) => ({
    studioUuid: m.studioId,
    studioName: m.studioName,
    isClient: m.isClient,
    isMember: m.isMember,
    role: m.role,
  }));
  return {
    id: user.id,
    emailAddress: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    locale: isLocale(user.locale) ? user.locale : null,
    emailVerified: user.emailVerifiedAt !== null,
    memberships,
  };
}
