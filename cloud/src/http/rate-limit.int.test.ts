import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStudioScenario } from '../../../tests/support/factories';
import { HttpClient } from '../../../tests/support/http-client';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';

/**
 * Several instances, one budget (issue 27): two apps on one PostgreSQL are two cloud instances
 * behind a load balancer. A guesser who spreads sign-ins over both gets the budget once, not twice.
 * On the embedded PGlite there is one process by construction and the limits live in memory (the
 * other rate-limit tests cover them there).
 */
const realPg = !inject('embeddedDatabase');

describe.skipIf(!realPg)('rate limits across instances (PostgreSQL store)', () => {
  let a: TestApp;
  let b: TestApp;
  const namespace = `${randomUUID()}:`;
  beforeAll(async () => {
    const rateLimits = { loginPerEmail: { points: 3, durationSeconds: 60 } };
    a = await startTestApp({ rateLimits, rateLimitNamespace: namespace });
    b = await startTestApp({ rateLimits, rateLimitNamespace: namespace });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('spends one budget for sign-ins spread over two instances, and a failed sign-in still counts', async () => {
    const { manager } = await createStudioScenario(a.knex);
    const onA = await HttpClient.anonymous(a.url);
    const onB = await HttpClient.anonymous(b.url);
    const statuses = [
      (await onA.signIn(manager.email, 'guess-1')).status,
      (await onB.signIn(manager.email, 'guess-2')).status,
      (await onA.signIn(manager.email, 'guess-3')).status,
      (await onB.signIn(manager.email, 'guess-4')).status,
    ];
    // In memory each instance allowed three: [401, 401, 401, 401] and two more on B.
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await onA.signIn(manager.email, 'guess-5');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ key: 'rateLimit.exceeded' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    // The spent points are rows outside the request's (rolled back) transaction.
    const row = await a
      .knex('rate_limits')
      .where({ key: `${namespace}loginPerEmail:${manager.email}` })
      .first();
    expect(row).toMatchObject({ points: 5 });
  });

  it('keeps apps with their own namespaces apart (test files side by side)', async () => {
    const c = await startTestApp({ rateLimits: { loginPerEmail: { points: 1, durationSeconds: 60 } } });
    const d = await startTestApp({ rateLimits: { loginPerEmail: { points: 1, durationSeconds: 60 } } });
    try {
      const { manager } = await createStudioScenario(c.knex);
      expect((await (await HttpClient.anonymous(c.url)).signIn(manager.email, 'x')).status).toBe(401);
      expect((await (await HttpClient.anonymous(d.url)).signIn(manager.email, 'x')).status).toBe(401);
    } finally {
      await c.close();
      await d.close();
    }
  });
});
