import type { z } from 'zod';
import { pathMatcher, type AnyContract } from '../../../shared/contracts/http/define';
import type { ApiResponse } from '../../../shared/contracts/ipc';
import { AppError, zodIssuesToFields } from '../../../shared/errors';

/** A call the offline router answers: its query, JSON body and who makes it. */
export interface ParsedRequest {
  method: string;
  query: URLSearchParams;
  body: unknown;
  userId: string;
}

/** The path parameters of the entry that matched (`user`, `scheduleEvent` …), by name. */
export type PathParams = Record<string, string>;
export type OfflineHandler = (params: PathParams, req: ParsedRequest) => unknown;

/** A handler's answer with another status than 200 (a create answers 201, like the cloud). */
export class Answer {
  constructor(
    readonly status: number,
    readonly value: unknown,
  ) {}
}

export function json(status: number, body: string): ApiResponse {
  return {
    status,
    contentType: 'application/json; charset=utf-8',
    contentDisposition: null,
    encoding: 'utf8',
    body,
  };
}

/** The input of a write, parsed with the cloud's own schema: 400 with every field, like the cloud. */
export function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw AppError.invalid(zodIssuesToFields(parsed.error.issues));
  return parsed.data;
}

interface Registered {
  entry: AnyContract;
  method: string;
  match: (path: string) => PathParams | null;
  handler: OfflineHandler;
}

/**
 * The offline routes, registered by contract entry of `shared/contracts/http` (the same entries the
 * cloud implements and the web calls): method and path come from the entry, so a path the cloud
 * changes changes here too. A call matches an entry of the station's own studio only.
 */
export class OfflineRoutes {
  private readonly routes: Registered[] = [];

  on(entry: AnyContract, handler: OfflineHandler): this {
    this.routes.push({ entry, method: entry.method.toUpperCase(), match: pathMatcher(entry.path), handler });
    return this;
  }

  /** The route and its path parameters for `METHOD v4/<studio>/...` (the path after /api/), or null. */
  find(
    method: string,
    pathOnly: string,
    studioUuid: string,
  ): { entry: AnyContract; params: PathParams; handler: OfflineHandler } | null {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const params = route.match(`/${pathOnly}`);
      // Ids that are not ids (the entry's params schema says uuid) name nothing here, as in the cloud.
      if (!params || params.uuid !== studioUuid) continue;
      if (route.entry.params && !route.entry.params.safeParse(params).success) continue;
      return { entry: route.entry, params, handler: route.handler };
    }
    return null;
  }
}

/** Whether `METHOD v4/<studio>/...` is a call of this entry in this studio. */
export function isCallOf(entry: AnyContract, method: string, pathOnly: string, studioUuid: string): boolean {
  if (entry.method.toUpperCase() !== method) return false;
  const params = pathMatcher(entry.path)(`/${pathOnly}`);
  return params !== null && params.uuid === studioUuid;
}
