import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { describeApiRoutes } from '../../cloud/src/app';
import { bookingStudio } from '../../cloud/src/modules/bookings/bookings-fixtures';
import type { HttpClient } from '../support/http-client';
import { isolatedDatabase } from '../support/isolated-db';
import { ManualClock, startTestApp, type TestApp } from '../support/test-app';
import { arbitraryOf } from '../support/zod-arbitrary';

/**
 * Property-based bad input: for EVERY API route in the catalog, bodies, queries and path params
 * generated from the route's own zod schemas (tests/support/zod-arbitrary.ts) — shaped like what the
 * route accepts so they reach the handler, with dates at and past the accepted range, huge numbers,
 * unicode, NUL, empty, missing and null fields and the wrong types mixed in — sent as the caller the
 * route is for (manager, client, anonymous). Any 500 fails, with the route, the request and the seed.
 *
 * GENERATIVE_RUNS cases per route (default 6: the whole catalog stays well under two minutes on
 * PostgreSQL); a larger run on demand: `GENERATIVE_RUNS=200 npx vitest run tests/int/generative-input`.
 * GENERATIVE_SEED replays a reported run; GENERATIVE_SHRINK=1 shrinks a failure to its smallest form.
 */
const RUNS = Number(process.env.GENERATIVE_RUNS ?? 6);
const SEED = process.env.GENERATIVE_SEED ? Number(process.env.GENERATIVE_SEED) : Date.now() % 2 ** 31;
/** Routes that end the caller's own session: generated input would sign the suite out. */
const SKIP = new Set(['post /api/v4/auth/logout']);

const routes = describeApiRoutes();
let app: TestApp;
let db: Awaited<ReturnType<typeof isolatedDatabase>>;
let callers: Record<'manager' | 'client' | 'anonymous', HttpClient>;
let studioId: string;
let ids: string[];

beforeAll(async () => {
  db = await isolatedDatabase();
  app = await startTestApp({
    databaseUrl: db.url,
    clock: new ManualClock(new Date('2026-11-22T12:00:00Z')),
    web: {
      html: async (name) =>
        `<!doctype html><html><head><!--page-context--></head><body>${name}</body></html>`,
    },
  });
  // A studio with a location, a class service, a timetable, a class, a pass, a client and an API key:
  // generated ids are drawn from its rows, so many requests name things that exist.
  const t = await bookingStudio(app, new Date('2026-11-25T17:00:00Z'));
  await t.addApiKey();
  studioId = t.studio.id;
  callers = {
    manager: await app.signedIn(t.manager.email, t.manager.password),
    client: await app.signedIn(t.client.email, t.client.password),
    anonymous: await app.anonymous(),
  };
  ids = await studioRowIds(app, studioId);
  ids.push(t.manager.id, t.client.id);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

/** Ids of the studio's rows, a few per table that has a studio_id. */
async function studioRowIds(app: TestApp, studio: string): Promise<string[]> {
  const { rows } = (await app.knex.raw(
    `select c.table_name from information_schema.columns c
       join information_schema.columns i on i.table_name = c.table_name and i.column_name = 'id' and i.data_type = 'uuid'
      where c.column_name = 'studio_id' and c.table_schema = 'public' and i.table_schema = 'public'`,
  )) as { rows: Array<{ tableName?: string; table_name?: string }> };
  const out: string[] = [];
  for (const row of rows) {
    const table = row.tableName ?? row.table_name!;
    const found = (await app.knex(table).where({ studio_id: studio }).limit(3).select('id')) as Array<{
      id: string;
    }>;
    out.push(...found.map((r) => r.id));
  }
  return out;
}

function queryString(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v])
      params.append(k, typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

describe('generated input to every API route', () => {
  it(
    `never answers 500 (${RUNS} generated requests per route, seed ${SEED})`,
    async () => {
      const failures: string[] = [];
      let sent = 0;
      const reached: Record<string, number> = {};
      for (const route of routes) {
        const method = route.method.toUpperCase();
        if (SKIP.has(`${route.method} ${route.fullPath}`)) continue;
        const caller =
          route.access === 'client'
            ? callers.client
            : route.access === 'public'
              ? callers.anonymous
              : callers.manager;
        const paramNames = [...route.fullPath.matchAll(/:([A-Za-z]+)/g)]
          .map((m) => m[1]!)
          .filter((n) => n !== 'uuid');
        const paramArb = fc.record(
          Object.fromEntries(
            paramNames.map((n) => [
              n,
              fc.oneof(
                { weight: 4, arbitrary: fc.constantFrom(...ids) },
                { weight: 1, arbitrary: fc.uuid() },
                {
                  weight: 1,
                  arbitrary: fc.constantFrom('not-an-id', '0', '%00', 'ż'.repeat(20), '9'.repeat(40)),
                },
              ),
            ]),
          ),
        );
        const bodyArb =
          method === 'GET'
            ? fc.constant(undefined)
            : arbitraryOf(route.body as z.ZodType | undefined, { ids });
        const queryArb = arbitraryOf(route.query as z.ZodType | undefined, { ids, strings: true });
        const property = fc.asyncProperty(paramArb, bodyArb, queryArb, async (params, body, query) => {
          const path =
            route.fullPath.replace(/:([A-Za-z]+)/g, (_, n: string) =>
              n === 'uuid' ? studioId : encodeURIComponent((params as Record<string, string>)[n]!),
            ) + queryString(query);
          sent += 1;
          const res = await caller.request(method, path, body, {
            headers: { 'idempotency-key': `gen-${uuidv7()}` },
          });
          if (res.status < 400) reached[route.fullPath] = (reached[route.fullPath] ?? 0) + 1;
          if (res.status >= 500)
            throw new Error(`${method} ${path} → ${res.status} ${res.text.slice(0, 200)}`);
          return true;
        });
        const result = await fc.check(property, {
          numRuns: RUNS,
          seed: SEED,
          endOnFailure: process.env.GENERATIVE_SHRINK !== '1',
        });
        if (result.failed)
          failures.push(
            `${method} ${route.fullPath}: ${String(result.errorInstance).slice(0, 400)}\n  counterexample ${JSON.stringify(result.counterexample).slice(0, 600)}`,
          );
      }
      console.info(
        `generative input: ${sent} requests to ${routes.length} routes, ${Object.keys(reached).length} routes accepted at least one, seed ${SEED}`,
      );
      expect(failures, `seed ${SEED}\n${failures.join('\n')}`).toEqual([]);
    },
    Math.max(600_000, RUNS * routes.length * 150),
  ); // ~30 ms a request on a loaded machine, with room
});
