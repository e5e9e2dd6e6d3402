import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';

/**
 * The back office's search box is a POST, so it runs in the request's transaction; asking whether
 * trigram search exists through another pooled connection waited on the embedded database's single
 * connection until the pool gave up (500 after 30 s). Found by tests/int/generative-input on PGlite.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(); // a fresh app: nothing about trigram search is cached yet
});
afterAll(async () => app?.close());

describe('back office search on a fresh server', () => {
  it('the first search answers at once, with unicode beyond the BMP too', async () => {
    const s = await createStudioScenario(app.knex);
    const manager = await app.signedIn(s.manager.email, s.manager.password);
    const started = Date.now();
    const res = await manager.post(`/api/v4/${s.studio.id}/backoffice/search`, { queryString: '𼏤al' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ clients: [] });
    expect(Date.now() - started).toBeLessThan(10_000);
    const kamil = await manager.post(`/api/v4/${s.studio.id}/backoffice/search`, { queryString: 'Kamil' });
    expect(kamil.body.clients.map((c: { id: string }) => c.id)).toEqual([s.client.id]);
  }, 60_000);
});
