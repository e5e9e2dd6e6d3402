/**
 * The front office's menu: one entry per screen a client should be able to reach. Each feature adds
 * its own line here (path relative to `/{uuid}/frontoffice`, label key in the `frontoffice`
 * namespace under `nav.*`). `signedIn: true` entries show only to a signed-in client; `false` only
 * to a visitor; absent for everybody. The header row and the start page tiles both read this list.
 */
export interface FrontofficeNavItem {
  path: string;
  labelKey: string;
  signedIn?: boolean;
}

export const FRONTOFFICE_NAV: readonly FrontofficeNavItem[] = [
  { path: 'timetable', labelKey: 'nav.timetable' },
  { path: 'profile', labelKey: 'nav.account', signedIn: true },
  { path: 'signup', labelKey: 'nav.signup', signedIn: false },
];

export function visibleNav(items: readonly FrontofficeNavItem[], signedIn: boolean): FrontofficeNavItem[] {
  return items.filter((item) => item.signedIn === undefined || item.signedIn === signedIn);
}
