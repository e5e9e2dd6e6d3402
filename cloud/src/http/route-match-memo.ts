/** A uuid anywhere in a path: the ids of studios, clients, classes… */
const UUID_IN_PATH = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Shapes remembered; past it, matching goes on uncached (a crawler of random paths cannot grow it). */
const MAX_SHAPES = 5_000;

/** The path with every uuid in it replaced by one placeholder: the path's shape. */
export const pathShape = (path: string) => path.replace(UUID_IN_PATH, ':uuid');

/**
 * Remembers which of a router's layers match a path's shape. @koa/router tests a request's path
 * against every layer's regexp in turn: with the API's 600 routes, 0.13 ms of every request (a
 * sixth of a cached booking's Node time on the bench machine went to routing and its debug calls).
 * Paths that differ only in their uuids match the same layers: no route has a uuid-shaped literal
 * segment, and a parameter that takes one uuid takes any (`route-match-memo.test.ts` holds every
 * route of the catalogue to it). The layers' parameters are still read from each request's own path
 * by the router. The cached result's `path` list is copied per call, since the router appends to the
 * context's list when routers nest.
 */
interface Matching {
  match(path: string, method: string): { path: unknown[]; pathAndMethod: unknown[]; route: boolean };
}

export function memoizeRouteMatching<R extends Matching>(router: R): R {
  const match = router.match.bind(router);
  const shapes = new Map<string, ReturnType<R['match']>>();
  router.match = ((path: string, method: string) => {
    const key = `${method} ${pathShape(path)}`;
    let result = shapes.get(key);
    if (!result) {
      result = match(path, method) as ReturnType<R['match']>;
      if (shapes.size < MAX_SHAPES) shapes.set(key, result);
    }
    return { ...result, path: [...result.path] };
  }) as R['match'];
  return router;
}
