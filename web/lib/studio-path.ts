/**
 * The studio uuid of studio-scoped pages (`/{uuid}/backoffice`, `/{uuid}/frontoffice/...`): taken
 * from the page context when the server put it there, else from the first path segment.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function studioUuidFromPath(pathname: string): string | null {
  const first = pathname.split('/').find((segment) => segment.length > 0);
  return first && UUID.test(first) ? first.toLowerCase() : null;
}

export function resolveStudioUuid(contextUuid: string | null, pathname: string): string | null {
  return contextUuid ?? studioUuidFromPath(pathname);
}
