import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioScenario, TEST_PASSWORD } from '../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { transportWarning } from './https-only';

let app: TestApp;
const trustProxy = process.env.TRUST_PROXY;

beforeAll(async () => {
  process.env.TRUST_PROXY = 'true';
  app = await startTestApp({
    web: { html: async () => '<!doctype html><html><head><!--page-context--></head></html>' },
  });
  app.deps.config.COOKIE_SECURE = true;
});
afterAll(async () => {
  process.env.TRUST_PROXY = trustProxy;
  await app?.close();
});

describe('COOKIE_SECURE=true', () => {
  it('answers a plain-HTTP request with a clear 403, never a 500', async () => {
    const { manager } = await createStudioScenario(app.knex);
    const page = await fetch(`${app.url}/login`, { redirect: 'manual' });
    expect(page.status).toBe(403);
    const body = (await page.json()) as { error: { key: string; message: string } };
    expect(body.error.key).toBe('request.httpsRequired');
    expect(body.error.message).toMatch(/HTTPS only.*X-Forwarded-Proto/);
    const login = await fetch(`${app.url}/api/v4/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ emailAddress: manager.email, password: TEST_PASSWORD }),
    });
    expect(login.status).toBe(403);
  });

  it('serves a request a TLS proxy forwarded, with Secure cookies', async () => {
    const page = await fetch(`${app.url}/login`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie().join()).toMatch(/; secure/i);
  });

  it('start-up explains TRUST_PROXY and TLS when Secure cookies cannot work', () => {
    expect(transportWarning({ COOKIE_SECURE: true }, {})).toMatch(/terminates TLS.*TRUST_PROXY=true/);
    expect(transportWarning({ COOKIE_SECURE: true }, { TRUST_PROXY: 'true' })).toBeNull();
    expect(transportWarning({ COOKIE_SECURE: false }, {})).toBeNull();
  });
});
