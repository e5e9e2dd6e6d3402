import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageContextSchema, type WebApp } from '../../../shared/contracts/page-context';
import { createStudioScenario, TEST_PASSWORD } from '../../../tests/support/factories';
import type { HttpClient } from '../../../tests/support/http-client';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';

let app: TestApp;
const shell = (name: WebApp) =>
  `<!doctype html><html lang="en"><head><!--page-context--><title>${name}</title></head><body data-app="${name}"></body></html>`;

beforeAll(async () => {
  app = await startTestApp({ web: { html: async (name) => shell(name) } });
});
afterAll(async () => app?.close());

function contextOf(html: string) {
  const json = /<script id="page-context" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1];
  expect(json, 'page context script').toBeTruthy();
  return PageContextSchema.parse(JSON.parse(json!));
}

async function page(client: HttpClient, path: string, headers: Record<string, string> = {}) {
  const res = await client.request('GET', path, undefined, { headers });
  return {
    ...res,
    app: /data-app="(\w+)"/.exec(res.text)?.[1],
    lang: /<html lang="(\w+)"/.exec(res.text)?.[1],
  };
}

describe('page routes', () => {
  it('serves each app for its routes of spec §2', async () => {
    const { studio } = await createStudioScenario(app.knex);
    const client = await app.anonymous();
    const cases: Array<[string, WebApp]> = [
      ['/', 'entry'],
      ['/login', 'entry'],
      ['/signup', 'entry'],
      ['/delete', 'entry'],
      ['/search', 'entry'],
      ['/kiosk', 'entry'],
      ['/some-studio_slug.1', 'entry'],
      ['/app/switch-account', 'entry'],
      [`/${studio.id}/frontoffice`, 'frontoffice'],
      [`/${studio.id}/frontoffice/login`, 'frontoffice'],
      [`/${studio.id}/frontoffice/profile/delete`, 'frontoffice'],
      [`/${studio.id}/splashscreen`, 'frontoffice'],
      [`/${studio.id}/backoffice`, 'backoffice'],
      [`/${studio.id}/backoffice/inbox`, 'backoffice'],
      [`/${studio.id}/kiosk/lobby`, 'kiosk'],
      [`/${studio.id}/donation`, 'donation'],
      [`/${studio.id}/donation/payment-status`, 'donation'],
      [`/${studio.id}/widget/me`, 'widget'],
    ];
    for (const [path, expected] of cases) {
      const res = await page(client, path);
      expect(res.status, path).toBe(200);
      expect(res.app, path).toBe(expected);
      const context = contextOf(res.text);
      expect(context.app).toBe(expected);
      expect(context.studioUuid).toBe(path.startsWith(`/${studio.id}`) ? studio.id : null);
    }
    // Any HTTP method, as the spec says for page routes.
    expect((await client.request('POST', `/${studio.id}/backoffice`)).status).toBe(200);
  });

  it('an unknown studio is a 404 page in the visitor language, not an app shell', async () => {
    const client = await app.anonymous();
    const res = await page(client, '/01900000-0000-7000-8000-000000000000/backoffice', {
      'accept-language': 'pl-PL,pl;q=0.9',
    });
    expect(res.status).toBe(404);
    expect(res.text).toContain('Nie znaleziono studia');
    expect(res.app).toBeUndefined();
  });

  it('the page context carries the session of a signed-in browser and the CSRF token that works', async () => {
    const { studio, manager } = await createStudioScenario(app.knex);
    const client = await app.signedIn(manager.email, TEST_PASSWORD);
    client.forgetHeaders(); // a fresh page load: only the cookie
    const context = contextOf((await page(client, `/${studio.id}/backoffice`)).text);
    expect(context.userId).toBe(manager.id);
    expect(context.sessionId).toBeTruthy();
    expect(context.environment).toBe('test');
    expect(context.version).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    // The page's values are exactly what the apps send back.
    const res = await client.post(`/api/v4/${studio.id}/backoffice/init`, undefined, {
      headers: { 'x-auth-token': `${context.userId}:${context.sessionId}`, 'x-csrf-token': context.token },
    });
    expect(res.status).toBe(200);
  });

  it('an anonymous page hands out a token that works for anonymous calls', async () => {
    const { manager } = await createStudioScenario(app.knex);
    const client = await app.anonymous();
    client.clearCookies();
    const context = contextOf((await page(client, '/login')).text);
    expect(context.userId).toBeNull();
    client.token = context.token;
    expect((await client.signIn(manager.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('language: the saved choice, then Accept-Language, then the studio default', async () => {
    const { studio } = await createStudioScenario(app.knex, { defaultLocale: 'pl' });
    const client = await app.anonymous();
    expect((await page(client, '/login', { 'accept-language': 'pl-PL,pl;q=0.9,en;q=0.5' })).lang).toBe('pl');
    expect((await page(client, '/login', { 'accept-language': 'en-GB' })).lang).toBe('en');
    expect((await page(client, '/login', { 'accept-language': 'de-DE' })).lang).toBe('en');
    expect((await page(client, `/${studio.id}/frontoffice`, { 'accept-language': 'de-DE' })).lang).toBe('pl');
    expect(
      contextOf((await page(client, '/login', { 'accept-language': 'en', cookie: 'locale=pl' })).text).locale,
    ).toBe('pl');
  });

  it('page context JSON cannot break out of its script tag', async () => {
    const { studio, manager } = await createStudioScenario(app.knex);
    await app
      .knex('users')
      .update({ firstName: '</script><script>alert(1)</script>' })
      .where({ id: manager.id });
    const client = await app.signedIn(manager.email, TEST_PASSWORD);
    const res = await page(client, `/${studio.id}/backoffice`);
    expect(res.text.match(/<script/g)).toHaveLength(1);
  });

  it('/app/auth/check reports whether the browser is signed in', async () => {
    const { manager } = await createStudioScenario(app.knex);
    expect((await (await app.anonymous()).get('/app/auth/check')).body).toEqual({
      authenticated: false,
      userId: null,
    });
    expect((await (await app.signedIn(manager.email, TEST_PASSWORD)).get('/app/auth/check')).body).toEqual({
      authenticated: true,
      userId: manager.id,
    });
  });

  it('/auth/set-cookie redirects to same-origin paths only (no open redirect)', async () => {
    const client = await app.anonymous();
    const locationOf = async (redirect: string) => {
      const res = await client.get(`/auth/set-cookie?redirect=${redirect}`);
      expect(res.status).toBe(302);
      return res.headers.get('location');
    };
    // The page a native shell asks for is kept, with its query.
    expect(await locationOf(encodeURIComponent('/login?x=1'))).toBe('/login?x=1');
    for (const evil of [
      '/%5C127.0.0.1:9999/phish', // `/\host`: a browser reads the backslash as a slash
      '/%5C%5C127.0.0.1/phish',
      '%2F%2F127.0.0.1/phish', // encoded protocol-relative
      '//127.0.0.1/phish',
      '/%09/127.0.0.1/phish', // a tab a browser drops: `//host`
      '/%0A/127.0.0.1/phish',
      'https://127.0.0.1/phish',
      'javascript:alert(1)',
      '%2F%5C127.0.0.1',
    ]) {
      const location = await locationOf(evil);
      expect(location, evil).toBe('/');
    }
  });

  it('sends security headers', async () => {
    const res = await (await app.anonymous()).get('/login');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('says where a request spent its time (Server-Timing: total, database)', async () => {
    const { studio } = await createStudioScenario(app.knex);
    const res = await (await app.anonymous()).get(`/${studio.id}/frontoffice/timetable`);
    expect(res.status).toBe(200);
    // The studio lookup is at least one query of this request.
    expect(res.headers.get('server-timing')).toMatch(
      /^total;dur=\d+\.\d, db;dur=\d+\.\d;desc="[1-9]\d* queries"$/,
    );
  });
});

describe('GET /translations/{domain}.{format}', () => {
  it('defaults to messages.js; json gives one namespace; unknown domains are 404', async () => {
    const client = await app.anonymous();
    const js = await client.get('/translations?locale=pl');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(js.text).toContain('"messages"');
    expect(js.text).toContain('Zmiana hasła');
    const json = await client.get('/translations/mail.json?locale=en');
    expect(json.body).toMatchObject({
      locale: 'en',
      domain: 'mail',
      messages: { recovery: { subject: expect.stringContaining('Reset') } },
    });
    const fromHeader = await client.get('/translations/mail.json', { headers: { 'accept-language': 'pl' } });
    expect(fromHeader.body.locale).toBe('pl');
    expect((await client.get('/translations/nope.json')).status).toBe(404);
    expect((await client.get('/translations/mail.xml')).status).toBe(404);
  });
});
