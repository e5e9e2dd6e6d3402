/**
 * The front office's menu: one entry per screen a client should be able to reach. Each feature adds
 * its own line here (path relative to `/{uuid}/frontoffice`, label key in the `frontoffice`
 * namespace under `nav.*`, or `namespace:key` for a module's own namespace). `signedIn: true` entries show only to a signed-in client; `false` only
 * to a visitor; absent for everybody. The header row and the start page tiles both read this list.
 */
export interface FrontofficeNavItem {
  path: string;
  labelKey: string;
  signedIn?: boolean;
}

export const FRONTOFFICE_NAV: readonly FrontofficeNavItem[] = [
  { path: 'timetable', labelKey: 'nav.timetable' },
  { path: 'courses', labelKey: 'bookings-ui:courses.nav' },
  { path: 'video-courses', labelKey: 'videos:front.nav', signedIn: true },
  { path: 'pricing/pricing-options', labelKey: 'nav.pricing' },
  { path: 'pricing/contracts', labelKey: 'contracts:front.nav' },
  { path: 'passes', labelKey: 'nav.passes', signedIn: true },
  { path: 'visits', labelKey: 'nav.visits', signedIn: true },
  { path: 'appointments', labelKey: 'appointments:front.nav', signedIn: true },
  { path: 'cart', labelKey: 'sales:nav.cart', signedIn: true },
  { path: 'purchases', labelKey: 'sales:nav.purchases', signedIn: true },
  { path: 'wallet', labelKey: 'sales:nav.wallet', signedIn: true },
  { path: 'documents', labelKey: 'studio-admin:front.nav', signedIn: true },
  { path: 'profile', labelKey: 'nav.account', signedIn: true },
  { path: 'signup', labelKey: 'nav.signup', signedIn: false },
];

export function visibleNav(items: readonly FrontofficeNavItem[], signedIn: boolean): FrontofficeNavItem[] {
  return items.filter((item) => item.signedIn === undefined || item.signedIn === signedIn);
}

/** An entry is the current one on its own path and on the screens below it (`passes/123`), not on a sibling. */
export function isActiveNav(pathname: string, itemPath: string): boolean {
  const current = pathname.replace(/\/+$/, '');
  return current === `/${itemPath}` || current.startsWith(`/${itemPath}/`);
}
