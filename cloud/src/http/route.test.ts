import Router from '@koa/router';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from '../db/knex';
import type { AppContext, AppCustom, AppState } from './context';
import { defineRoute } from './route';

/**
 * The pipeline's choice of connection: a GET or a POST declared `readOnly` runs on the plain
 * connection (no BEGIN/COMMIT around a search), any other POST in a transaction.
 */
function fakeKnex() {
  const calls: string[] = [];
  const knex = Object.assign(() => undefined, {
    transaction: async (work: (trx: unknown) => Promise<unknown>) => {
      calls.push('transaction');
      return work({ isTransaction: true });
    },
  });
  return { knex: knex as unknown as Db, calls };
}

async function call(router: Router<AppState, AppCustom>, method: 'GET' | 'POST', path: string, knex: Db) {
  const ctx = {
    method,
    path,
    params: {},
    query: {},
    request: { body: {} },
    state: { auth: null, log: { warn: () => undefined } },
    deps: { knex },
    status: 404,
    body: undefined as unknown,
  } as unknown as AppContext & { body: unknown };
  await router.routes()(ctx as never, async () => undefined);
  return ctx.body as { plain: boolean };
}

describe('defineRoute: which connection a route runs on', () => {
  it('runs a read-only POST on the plain connection and any other POST in a transaction', async () => {
    const { knex, calls } = fakeKnex();
    const router = new Router<AppState, AppCustom>();
    const handle = ({ db }: { db: Db }) => Promise.resolve({ plain: db === knex });
    const common = { access: 'public' as const, body: z.strictObject({}), response: z.any(), handle };
    defineRoute(router, { ...common, method: 'post', path: '/search', readOnly: true });
    defineRoute(router, { ...common, method: 'post', path: '/change' });
    defineRoute(router, { ...common, method: 'get', path: '/read' });

    expect(await call(router, 'POST', '/search', knex)).toEqual({ plain: true });
    expect(calls).toEqual([]);
    expect(await call(router, 'GET', '/read', knex)).toEqual({ plain: true });
    expect(await call(router, 'POST', '/change', knex)).toEqual({ plain: false });
    expect(calls).toEqual(['transaction']);
  });
});
