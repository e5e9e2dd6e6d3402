import {
  isValidElement,
  lazy,
  type ComponentType,
  type FocusEvent,
  type LazyExoticComponent,
  type PointerEvent,
} from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint
type AnyComponent = ComponentType<any>;

export type LazyScreen<T extends AnyComponent> = LazyExoticComponent<T> & {
  /** Starts loading the screen's chunk (link hover/focus), so the navigation itself does not wait. */
  preload: () => Promise<unknown>;
};

/**
 * A screen in its own chunk, loaded on first render (React.lazy) or earlier through `preload()`:
 * `const ClientListScreen = lazyScreen(() => import('./ClientListScreen'), 'ClientListScreen');`
 * Named exports stay named (no default exports needed). Navigations run in a transition, so the
 * previous screen stays on screen until the next one has loaded; only a first visit by URL shows
 * the layout's Suspense fallback.
 */
export function lazyScreen<M extends Record<K, AnyComponent>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): LazyScreen<M[K]> {
  let loading: Promise<M> | undefined;
  const preload = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined; // a later attempt may succeed (network back)
      reloadOnStaleChunk(error);
      throw error;
    }));
  const Screen = lazy<M[K]>(() => preload().then((module) => ({ default: module[name] })));
  return Object.assign(Screen, { preload });
}

const RELOADED_AT = 'lazy-screen-reloaded-at';

/**
 * After a deploy the open page asks for chunk names the server no longer has: reload once to get
 * the new build (not again within a minute, so a real outage shows the error instead of looping).
 */
function reloadOnStaleChunk(error: unknown): void {
  if (typeof window === 'undefined' || window.location.protocol === 'file:') return;
  if (!(error instanceof TypeError) || !/dynamically imported module|module script/i.test(error.message))
    return;
  try {
    const last = Number(window.sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < 60_000) return;
    window.sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  } catch {
    return; // no storage: no guard against loops, so no reload
  }
  window.location.reload();
}

/** Preloads the lazy screens of the routes `path` matches (no-op for eager screens). */
export function preloadRoute(routes: RouteObject[], path: string): void {
  for (const { route } of matchRoutes(routes, path) ?? []) {
    const type: unknown = isValidElement(route.element) ? route.element.type : undefined;
    if (
      typeof type === 'object' &&
      type !== null &&
      'preload' in type &&
      typeof type.preload === 'function'
    ) {
      (type.preload as () => Promise<unknown>)().catch(() => undefined);
    }
  }
}

/**
 * For a layout element created before its router: `attach(router)` (in an effect) hands the
 * router's route tree to `preload`.
 */
export function createRoutePreloader() {
  let routes: RouteObject[] = [];
  return {
    preload: (path: string) => preloadRoute(routes, path),
    attach(router: { routes: RouteObject[] }): void {
      routes = router.routes;
    },
  };
}

/** The router path a link's href points to, or null for links leaving the app. */
export function linkPath(href: string, currentUrl: string, basename = ''): string | null {
  if (href.startsWith('#')) return href.slice(1) || '/'; // hash router
  const url = new URL(href, currentUrl);
  if (url.origin !== new URL(currentUrl).origin) return null;
  if (!basename) return url.pathname;
  if (url.pathname !== basename && !url.pathname.startsWith(`${basename}/`)) return null;
  return url.pathname.slice(basename.length) || '/';
}

/**
 * Event props for a container: pointing at, focusing or touching any link inside it preloads the
 * screen behind the link (delegated, so menus and screens need no changes).
 */
export function preloadLinksProps(preload: (path: string) => void, basename = '') {
  let lastHref: string | null = null; // pointerover fires for every child of a link
  const onIntent = (event: PointerEvent<HTMLElement> | FocusEvent<HTMLElement>) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    const href = link?.getAttribute('href');
    if (!href || href === lastHref) return;
    lastHref = href;
    const path = linkPath(href, window.location.href, basename);
    if (path) preload(path);
  };
  return { onPointerOver: onIntent, onPointerDown: onIntent, onFocus: onIntent };
}
