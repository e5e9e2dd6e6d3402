import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeApiRoutes } from '../../cloud/src/app';
import { createStudioScenario } from '../support/factories';
import type { HttpClient } from '../support/http-client';
import { isolatedDatabase } from '../support/isolated-db';
import { ManualClock, startTestApp, type TestApp } from '../support/test-app';

/**
 * Sends malformed bodies, wrong types, huge strings, unknown fields and hostile shapes to EVERY API
 * route (walked from the route catalog, so new modules are covered without editing this file), as an
 * anonymous visitor and as a signed-in manager. Nothing may answer 500, every refusal uses the error
 * envelope, and no table changes by a single row.
 */
const routes = describeApiRoutes();
let app: TestApp;
let db: Awaited<ReturnType<typeof isolatedDatabase>>;
let manager: HttpClient;
let anonymous: HttpClient;
let studioId: string;

beforeAll(async () => {
  db = await isolatedDatabase();
  app = await startTestApp({
    databaseUrl: db.url,
    clock: new ManualClock(new Date('2026-11-22T12:00:00Z')),
    // The page shells stand in for the Vite build, which a clean clone has not made yet.
    web: {
      html: async (name) =>
        `<!doctype html><html lang="en"><head><!--page-context--></head><body>${name}</body></html>`,
    },
  });
  const scenario = await createStudioScenario(app.knex);
  studioId = scenario.studio.id;
  manager = await app.signedIn(scenario.manager.email, scenario.manager.password);
  anonymous = await app.anonymous();
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

async function snapshot(): Promise<Record<string, string>> {
  const tables = (await app.knex('pg_tables').select('tablename').where({ schemaname: 'public' })) as {
    tablename: string;
  }[];
  const out: Record<string, string> = {};
  for (const { tablename } of tables) {
    if (tablename.startsWith('knex_migrations')) continue;
    const row = await app.knex.raw(
      `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from "${tablename}" t`,
    );
    out[tablename] = `${row.rows[0].n}:${row.rows[0].h}`;
  }
  return out;
}

function pathFor(template: string): string {
  return template.replace(/:([A-Za-z]+)/g, (_, name: string) => (name === 'uuid' ? studioId : uuidv7()));
}

const HUGE = 'ż'.repeat(100_000);

/** Values of the wrong JSON type for each field of the body schema, and huge strings for each. */
function fieldPayloads(schema: z.ZodType | undefined): Record<string, unknown>[] {
  if (!schema) return [];
  let json: { properties?: Record<string, { type?: string | string[] }> };
  try {
    json = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as typeof json;
  } catch {
    return [];
  }
  const props = json.properties ?? {};
  const wrong: Record<string, unknown> = {};
  const huge: Record<string, unknown> = {};
  const nested: Record<string, unknown> = {};
  const nul: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(props)) {
    const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
    wrong[name] =
      type === 'string'
        ? 12345
        : type === 'number' || type === 'integer'
          ? 'not a number'
          : type === 'boolean'
            ? 'perhaps'
            : 'x';
    huge[name] = HUGE;
    nested[name] = { $gt: '', __proto__: { admin: true } };
    nul[name] = type === 'string' ? 'a\u0000b' : wrong[name];
  }
  return Object.keys(props).length ? [wrong, huge, nested, nul] : [];
}

const GENERIC_BODIES: Array<{ name: string; raw: string; contentType?: string }> = [
  { name: 'malformed JSON', raw: '{"emailAddress": ' },
  { name: 'JSON array', raw: '[]' },
  { name: 'JSON string', raw: '"text"' },
  { name: 'JSON number', raw: '42' },
  { name: 'JSON null', raw: 'null' },
  { name: 'unknown field', raw: JSON.stringify({ definitelyNotAField: true }) },
  { name: 'prototype pollution', raw: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}' },
  { name: 'deep nesting', raw: '{"a":' + '['.repeat(3000) + ']'.repeat(3000) + '}' },
  { name: 'invalid UTF-8 escape', raw: '{"a":"\\ud800"}' },
  { name: 'over the size limit', raw: JSON.stringify({ blob: 'x'.repeat(1_100_000) }) },
  { name: 'not JSON', raw: 'emailAddress=a@b.c', contentType: 'application/x-www-form-urlencoded' },
];

describe('bad input to every API route', () => {
  it('the catalog lists the routes', () => {
    expect(routes.length).toBeGreaterThanOrEqual(8);
  });

  it('never answers 500 and never writes a row', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const route of routes) {
      const path = pathFor(route.fullPath);
      const method = route.method.toUpperCase();
      for (const [who, client] of [
        ['anonymous', anonymous],
        ['manager', manager],
      ] as const) {
        const attempts: Array<{
          name: string;
          raw?: string;
          body?: unknown;
          contentType?: string;
          query?: string;
        }> =
          method === 'GET'
            ? [
                {
                  name: 'garbage query',
                  query: '?limit=-1&limit=abc&a[b][c]=1&%FF=%FE&' + 'q='.concat(HUGE.slice(0, 2000)),
                },
                { name: 'hostile query', query: '?__proto__[x]=1&constructor[prototype][y]=2' },
              ]
            : [
                ...GENERIC_BODIES,
                ...fieldPayloads(route.body as z.ZodType | undefined).map((body, i) => ({
                  name: `fields #${i}`,
                  body,
                })),
              ];
        for (const attempt of attempts) {
          const res = await client.request(method, path + (attempt.query ?? ''), attempt.body, {
            ...(attempt.raw !== undefined ? { raw: attempt.raw } : {}),
            ...(attempt.contentType ? { contentType: attempt.contentType } : {}),
          });
          const label = `${method} ${route.fullPath} as ${who}: ${attempt.name} → ${res.status}`;
          if (res.status >= 500) failures.push(`${label} ${res.text.slice(0, 200)}`);
          else if (res.status >= 400 && typeof res.body?.error?.key !== 'string')
            failures.push(`${label}: no error envelope`);
          else if (res.status < 400 && method !== 'GET') failures.push(`${label}: accepted bad input`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  }, 240_000); // hundreds of routes × several bad bodies each, on a loaded CI machine

  it('odd page and asset paths do not answer 500', async () => {
    for (const path of [
      '/%E0%A4%A',
      '/' + 'a'.repeat(5000),
      `/${studioId}/frontoffice/%00`,
      '/assets/../../package.json',
      '/translations/%2e%2e%2fpackage.json',
      '/app/file?x=%FF',
    ]) {
      const res = await anonymous.get(path);
      expect(res.status, path).toBeLessThan(500);
      expect(res.text).not.toContain('"dependencies"');
    }
  });
});
