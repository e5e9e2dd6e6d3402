import { frontOfficePath } from '../../shared/contracts/routes';

/**
 * Routing of the entry application (spec §2, history mode). The server serves the entry HTML for
 * `/`, the screens below, `/app/*` and any single-segment path `/{slug}`; this decides, from the
 * path alone, what the app does with it. Kept free of React and the DOM so it is unit-tested.
 */
export const ENTRY_SCREENS = ['login', 'signup', 'delete', 'search', 'kiosk'] as const;
export type EntryScreen = (typeof ENTRY_SCREENS)[number];

export const ENTRY_PATHS: Record<EntryScreen, `/${EntryScreen}`> = {
  login: '/login',
  signup: '/signup',
  delete: '/delete',
  search: '/search',
  kiosk: '/kiosk',
};

/**
 * The first segments that are the server's own pages rather than studios: `/app/return`,
 * `/app/switch-account`, … (spec §2 "Server page routes", behaviour not shown). They open the login
 * entry instead of being sent to a front office that cannot exist.
 */
const RESERVED_SEGMENTS = new Set(['app']);

/** What the server accepts as an app index slug (spec §2: letters, digits, underscore, dot, hyphen). */
const SLUG = /^[A-Za-z0-9_.-]+$/;

export type EntryRouteDecision =
  /** One of the entry screens. */
  | { kind: 'screen'; screen: EntryScreen }
  /** Another entry path, inside the app (history replace). */
  | { kind: 'navigate'; to: string }
  /** A studio's front office: a full page load, because the server serves that app. */
  | { kind: 'studio'; href: string };

function isScreen(segment: string): segment is EntryScreen {
  return (ENTRY_SCREENS as readonly string[]).includes(segment);
}

export function decideEntryRoute(pathname: string): EntryRouteDecision {
  const segments = pathname.split('/').filter((segment) => segment.length > 0);
  const first = segments[0];
  if (!first) return { kind: 'navigate', to: ENTRY_PATHS.login };
  const lower = first.toLowerCase();
  if (isScreen(lower)) {
    return segments.length === 1
      ? { kind: 'screen', screen: lower }
      : { kind: 'navigate', to: ENTRY_PATHS[lower] };
  }
  if (RESERVED_SEGMENTS.has(lower) || !SLUG.test(first)) return { kind: 'navigate', to: ENTRY_PATHS.login };
  // Any other first segment is a studio uuid (spec §2). The server answers an unknown one with its
  // "studio not found" page, so nothing is checked here.
  return { kind: 'studio', href: frontOfficePath(first) };
}
