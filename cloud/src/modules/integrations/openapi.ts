import { z } from 'zod';
import type { Access, RouteMethod } from '../../../../shared/contracts/http/define';
import { ERRORS } from '../../../../shared/errors';
import { VERSION } from '../../version';
import { API_KEY_HEADER } from './api-keys';
import { exampleOf, type JsonSchema } from './openapi-examples';
import { PUBLIC_API_INTRO } from './openapi-intro';

/** One route of the catalog (`describeApiRoutes`): its contract's method, path, access and schemas. */
export interface CatalogRoute {
  name?: string;
  method: RouteMethod;
  path: string;
  access: Access;
  ability?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  responseKind?: 'empty' | 'file' | 'redirect';
  contentType?: string;
  status?: number;
}

export type ApiDocument = 'public' | 'private';

const PUBLIC_PATH = '/v2/public/';
export const isPublicRoute = (r: { path: string }) => r.path.startsWith(PUBLIC_PATH);

/** JSON Schema (2020-12, OpenAPI 3.1's dialect) of a zod schema, as sent (`input`) or answered (`output`). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  return out;
}

const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.number().int().describe('Stable numeric code (the `status-code` shown to people).'),
      key: z.string().describe('Stable machine-readable key, e.g. `apiKey.invalid`.'),
      message: z.string().describe('English description for developers.'),
      fields: z
        .record(z.string(), z.array(z.string()))
        .optional()
        .describe('On 400: messages per input field (`query.from`, `params.user`, a body path).'),
    }),
  })
  .describe('Every error answers this envelope.');

const ERROR_RESPONSES: Record<string, { description: string; key: keyof typeof ERRORS; message: string }> = {
  '400': {
    description: 'Invalid input: `fields` names each invalid field.',
    key: 'request.invalid',
    message: 'invalid input',
  },
  '401': {
    description: 'Missing, wrong or revoked credentials.',
    key: 'apiKey.invalid',
    message: 'missing or invalid API key',
  },
  '403': {
    description: 'The credentials may not do this (a read-only key writing, a missing right).',
    key: 'apiKey.readOnly',
    message: 'this API key may only read',
  },
  '404': {
    description: "Unknown id, or another studio's.",
    key: 'resource.notFound',
    message: 'resource not found',
  },
  '409': {
    description: 'The request conflicts with the current state (the `key` says which rule).',
    key: 'request.contended',
    message: 'conflict',
  },
  '429': {
    description: 'Over the rate limit: wait `Retry-After` seconds.',
    key: 'rateLimit.exceeded',
    message: 'too many requests for this API key, try again later',
  },
};

const RATE_HEADERS = {
  'RateLimit-Limit': { description: 'Requests per window of this key.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  'RateLimit-Policy': {
    description: "The key's quota and window, e.g. `120;w=60`.",
    schema: { type: 'string' },
  },
};

const koaToOpenApi = (path: string) => `/api${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;

function objectProperties(schema: z.ZodType | undefined, io: 'input' | 'output') {
  if (!schema) return [] as [string, JsonSchema, boolean][];
  const json = jsonSchema(schema, io);
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(
    ([name, s]) => [name, s, required.has(name)] as [string, JsonSchema, boolean],
  );
}

function operation(route: CatalogRoute, document: ApiDocument) {
  const area = (route.name ?? route.path).split('.')[0]!;
  const isPublic = document === 'public';
  const pathParams = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const paramSchemas = new Map(objectProperties(route.params, 'input').map(([n, s]) => [n, s]));
  const parameters: object[] = pathParams.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: paramSchemas.get(name) ?? { type: 'string' },
  }));
  for (const [name, schema, required] of objectProperties(route.query, 'input'))
    parameters.push({ name, in: 'query', required, schema });

  const status = String(route.status ?? 200);
  const responses: Record<string, object> = {};
  if (route.response) {
    const schema = jsonSchema(route.response, 'output');
    responses[status] = {
      description: 'Success.',
      headers: isPublic ? RATE_HEADERS : undefined,
      content: { 'application/json': { schema, example: exampleOf(schema) } },
    };
  } else if (route.responseKind === 'file') {
    responses[status] = {
      description: 'The file.',
      content: {
        [route.contentType ?? 'application/octet-stream']: { schema: { type: 'string', format: 'binary' } },
      },
    };
  } else if (route.responseKind === 'redirect') {
    responses[status === '200' ? '302' : status] = { description: 'A redirect.' };
  } else {
    responses[status] = { description: 'Done, nothing to answer.' };
  }
  const errorCodes = ['400', isPublic || route.access !== 'public' ? '401' : null, '403', '404', '409'];
  if (isPublic) errorCodes.push('429');
  for (const code of errorCodes.filter((c): c is string => c !== null))
    responses[code] = { $ref: `#/components/responses/E${code}` };

  let requestBody: object | undefined;
  if (route.body && route.method !== 'get') {
    const schema = jsonSchema(route.body, 'input');
    requestBody = {
      required: Boolean((schema.required as string[] | undefined)?.length),
      content: { 'application/json': { schema, example: exampleOf(schema) } },
    };
  }
  const who =
    route.access === 'staff'
      ? `Staff of the studio${route.ability ? ` with the \`${route.ability}\` right` : ''}.`
      : route.access === 'client'
        ? 'A signed-in client of the studio.'
        : route.access === 'studio'
          ? 'Any signed-in member of the studio.'
          : route.access === 'user'
            ? 'Any signed-in user.'
            : isPublic
              ? 'A studio API key (`x-api-key`); a read-only key may only read.'
              : 'Anyone.';
  return {
    operationId: route.name ?? `${route.method}${route.path}`,
    tags: [area],
    summary: (route.name ?? route.path)
      .replace(/^[^.]+\./, '')
      .replace(/([A-Z])/g, ' $1')
      .toLowerCase(),
    description: who,
    ...(isPublic ? { security: [{ ApiKey: [] }] } : route.access === 'public' ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of the catalog's routes, generated from their zod schemas (z.toJSONSchema):
 * `public` holds the public API (API key), `private` every other route (the apps' own API, for staff).
 */
export function openApiDocument(routes: readonly CatalogRoute[], document: ApiDocument, serverUrl: string) {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    if (isPublicRoute(route) !== (document === 'public')) continue;
    const path = koaToOpenApi(route.path);
    (paths[path] ??= {})[route.method] = operation(route, document);
  }
  const envelope = jsonSchema(ErrorEnvelopeSchema, 'output');
  const responses = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([code, e]) => [
      `E${code}`,
      {
        description: e.description,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/ErrorEnvelope' },
            example: {
              error: {
                code: ERRORS[e.key].code,
                key: e.key,
                message: e.message,
                ...(code === '400' ? { fields: { name: ['required'] } } : {}),
              },
            },
          },
        },
        ...(code === '429'
          ? { headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } }
          : {}),
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: document === 'public' ? 'Studio Platform public API' : 'Studio Platform apps API (private)',
      version: VERSION,
      description:
        document === 'public'
          ? PUBLIC_API_INTRO
          : "The API the platform's own apps use (back office, front office, kiosk). Not a stable interface: integrate through the public API.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { ErrorEnvelope: envelope },
      responses,
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY_HEADER,
          description: 'A studio API key (Settings → Integrations).',
        },
        Session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'sp_session',
          description: 'A signed-in session of the apps.',
        },
      },
    },
    security: document === 'public' ? [{ ApiKey: [] }] : [{ Session: [] }],
  };
}
