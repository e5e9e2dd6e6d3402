import { z } from 'zod';

/**
 * Path parameters. The studio's `:uuid` is checked by the pipeline itself (a malformed one is 404,
 * like an unknown studio), so its schema only names it; other ids are uuids (404 when malformed).
 */
export const StudioParams = z.object({ uuid: z.string() });

/** The studio's `:uuid` and the named id parameters (each a uuid). */
export function studioParams<const K extends string>(...ids: K[]) {
  const shape = Object.fromEntries(ids.map((id) => [id, z.uuid()])) as { [P in K]: z.ZodUUID };
  return z.object({ uuid: z.string(), ...shape });
}

/** `{ items, next: null }`: the spec's list envelope, every list route answers it. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next: z.null() });
