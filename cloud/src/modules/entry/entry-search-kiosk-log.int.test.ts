import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudio, createStudioScenario, TEST_PASSWORD } from '../../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { tag, HUGE, withLimits, expectFieldErrors } from './entry-fixtures';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

// -------------------------------------------------------------------------------------------------

describe('POST /api/v4/app/search', () => {
  const path = '/api/v4/app/search';
  const names = (res: { body: any }) => res.body.studios.map((s: { name: string }) => s.name);

  it('finds studios by part of the name in any case, by name, as list items', async () => {
    const t = tag();
    const b = await createStudio(app.knex, {
      name: `Żółw ${t} Fitness`,
      logoUrl: 'https://cdn.example.com/z.png',
    });
    const a = await createStudio(app.knex, { name: `Aqua ŻÓŁW ${t}` });
    await createStudio(app.knex, { name: `Other ${t}` });
    const anon = await app.anonymous();
    const res = await anon.post(path, { queryString: `  żółw ${t}  ` });
    expect(res.status).toBe(200);
    expect(res.body.studios).toEqual([
      { uuid: a.id, name: a.name, logoUrl: null, rootSearchAddress: 'ul. Testowa 1, 00-001 Warszawa' },
      {
        uuid: b.id,
        name: b.name,
        logoUrl: 'https://cdn.example.com/z.png',
        rootSearchAddress: 'ul. Testowa 1, 00-001 Warszawa',
      },
    ]);
    expect(names(await anon.post(path, { queryString: t.toUpperCase() }))).toEqual([
      a.name,
      `Other ${t}`,
      b.name,
    ]);
    expect((await anon.post(path, { queryString: `nothing-like-${tag()}` })).body).toEqual({ studios: [] });
  });

  it('matches %, _ and \\ literally', async () => {
    const t = tag();
    for (const name of [
      `${t} 100% Fit`,
      `${t} 1000 Fit`,
      `${t} a_b`,
      `${t} axb`,
      `${t} back\\slash`,
      `${t} backslash`,
    ]) {
      await createStudio(app.knex, { name });
    }
    const anon = await app.anonymous();
    expect(names(await anon.post(path, { queryString: `${t} 100%` }))).toEqual([`${t} 100% Fit`]);
    expect(names(await anon.post(path, { queryString: `${t} a_b` }))).toEqual([`${t} a_b`]);
    expect(names(await anon.post(path, { queryString: `${t} back\\` }))).toEqual([`${t} back\\slash`]);
    expect(names(await anon.post(path, { queryString: '%%%' }))).not.toContain(`${t} axb`);
    expect(names(await anon.post(path, { queryString: '___' }))).not.toContain(`${t} axb`);
  });

  it('answers at most 20 studios', async () => {
    const t = tag();
    for (let i = 0; i < 22; i++)
      await createStudio(app.knex, { name: `Many ${t} ${String(i).padStart(2, '0')}` });
    const res = await (await app.anonymous()).post(path, { queryString: `Many ${t}` });
    expect(names(res)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Many ${t} ${String(i).padStart(2, '0')}`),
    );
  });

  it('answers 400 with field errors for bad input', async () => {
    const anon = await app.anonymous();
    expectFieldErrors(await anon.post(path, {}), ['queryString']);
    expectFieldErrors(await anon.post(path, { queryString: '  ab  ' }), ['queryString']);
    expectFieldErrors(await anon.post(path, { queryString: 123 }), ['queryString']);
    expectFieldErrors(await anon.post(path, { queryString: HUGE }), ['queryString']);
    expectFieldErrors(await anon.post(path, { queryString: 'yo\u0000ga' }), ['queryString']);
    expectFieldErrors(await anon.post(path, { queryString: 'yoga', limit: 1000 }), ['limit']);
    expect((await anon.post(path, { queryString: '  abc  ' })).status).toBe(200);
  });

  it('is rate-limited per IP address', async () => {
    await withLimits(app, { searchPerIp: { points: 2, durationSeconds: 60 } }, async (client) => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await client.post(path, { queryString: 'yoga' })).status);
      expect(statuses).toEqual([200, 200, 429]);
    });
  });
});

// -------------------------------------------------------------------------------------------------

describe('POST /api/v4/auth/kiosk', () => {
  const path = '/api/v4/auth/kiosk';

  it('answers the studio kiosk guid, the same one every time, and the kiosk page exists', async () => {
    const studio = await createStudio(app.knex);
    const anon = await app.anonymous();
    const first = await anon.post(path, { uuid: studio.id, kioskKey: studio.kioskKey });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ studioKiosk: { guid: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    const second = await anon.post(path, {
      uuid: ` ${studio.id.toUpperCase()} `,
      kioskKey: ` ${studio.kioskKey} `,
    });
    expect(second.body).toEqual(first.body);
    const kiosks = await app.knex('studio_kiosks').where({ studioId: studio.id });
    expect(kiosks.map((k) => [k.id, k.isDefault])).toEqual([[first.body.studioKiosk.guid, true]]);
    expect((await anon.get(`/${studio.id}/kiosk/${first.body.studioKiosk.guid}`)).status).not.toBe(404);
  });

  it('a studio made by sign-up has its kiosk from the start', async () => {
    const anon = await app.anonymous();
    const res = await anon.post('/api/v4/studio/create', {
      emailAddress: `kiosk-${tag()}@example.com`,
      name: `Kiosk Studio ${tag()}`,
      firstName: 'K',
      lastName: 'O',
      termsOfUseAndPrivacyPolicyAgreement: 'on',
    });
    const studio = (await app.knex('studios').where({ id: res.body.studio.uuid }).first())!;
    const kiosk = await app.knex('studio_kiosks').where({ studioId: studio.id }).first();
    const auth = await anon.post(path, { uuid: studio.id, kioskKey: studio.kioskKey });
    expect(auth.body).toEqual({ studioKiosk: { guid: kiosk!.id } });
  });

  it('answers the same 403 for a wrong key, an unknown uuid and a malformed uuid', async () => {
    const studio = await createStudio(app.knex);
    const other = await createStudio(app.knex);
    const anon = await app.anonymous();
    const attempts = [
      { uuid: studio.id, kioskKey: 'wrong-key' },
      { uuid: studio.id, kioskKey: other.kioskKey },
      { uuid: studio.id, kioskKey: studio.kioskKey.slice(0, -1) },
      { uuid: studio.id, kioskKey: `${studio.kioskKey}x` },
      { uuid: '01900000-0000-7000-8000-000000000000', kioskKey: studio.kioskKey },
      { uuid: 'not-a-uuid', kioskKey: studio.kioskKey },
      { uuid: "' or 1=1 --", kioskKey: 'x' },
    ];
    const bodies = new Set<string>();
    for (const attempt of attempts) {
      const res = await anon.post(path, attempt);
      expect(res.status, JSON.stringify(attempt)).toBe(403);
      bodies.add(res.text);
    }
    expect([...bodies]).toHaveLength(1);
    expect(JSON.parse([...bodies][0]!)).toEqual({
      error: {
        code: 1106,
        key: 'auth.kioskInvalid',
        message: 'invalid uuid or kiosk key',
        fields: { kioskKey: ['invalid uuid or kiosk key'] },
      },
    });
    expect(await app.knex('studio_kiosks').where({ studioId: studio.id })).toEqual([]);
  });

  it('answers 400 with field errors for missing fields, wrong types, unknown fields and huge strings', async () => {
    const anon = await app.anonymous();
    expectFieldErrors(await anon.post(path, {}), ['uuid', 'kioskKey']);
    expectFieldErrors(await anon.post(path, { uuid: '', kioskKey: '  ' }), ['uuid', 'kioskKey']);
    expectFieldErrors(await anon.post(path, { uuid: 1, kioskKey: { $ne: '' } }), ['uuid', 'kioskKey']);
    expectFieldErrors(await anon.post(path, { uuid: HUGE, kioskKey: HUGE }), ['uuid', 'kioskKey']);
    expectFieldErrors(await anon.post(path, { uuid: 'a', kioskKey: 'b', guid: 'c' }), ['guid']);
  });

  it('is rate-limited per IP address, right keys included once the budget is gone', async () => {
    const studio = await createStudio(app.knex);
    await withLimits(app, { kioskPerIp: { points: 3, durationSeconds: 60 } }, async (client) => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await client.post(path, { uuid: studio.id, kioskKey: `guess-${i}` })).status);
      const right = await client.post(path, { uuid: studio.id, kioskKey: studio.kioskKey });
      statuses.push(right.status);
      expect(statuses).toEqual([403, 403, 403, 429]);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
});

// -------------------------------------------------------------------------------------------------

describe('POST /api/v4/log/post', () => {
  const path = '/api/v4/log/post';
  const report = (message: string, overrides: Record<string, unknown> = {}) => ({
    level: 'error',
    channel: 10004,
    message,
    response: { stack: `TypeError: ${message}\n    at main.tsx:1:1`, version: '1.2.3.4' },
    ...overrides,
  });

  it('stores a script error with the browser, the address and the signed-in user, and answers 204', async () => {
    const anon = await app.anonymous();
    const message = `x is undefined ${tag()}`;
    const res = await anon.post(path, report(message), { headers: { 'user-agent': 'TestBrowser/1.0' } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const [row] = await app.knex('client_error_logs').where({ message });
    expect(row).toMatchObject({
      level: 'error',
      channel: 10004,
      message,
      stack: `TypeError: ${message}\n    at main.tsx:1:1`,
      version: '1.2.3.4',
      userAgent: 'TestBrowser/1.0',
      userId: null,
    });
    expect(row!.ip).toMatch(/127\.0\.0\.1/);

    const { manager } = await createStudioScenario(app.knex);
    const signed = await app.signedIn(manager.email, TEST_PASSWORD);
    const mine = `signed-in error ${tag()}`;
    expect((await signed.post(path, { level: 'warning', channel: 1, message: mine })).status).toBe(204);
    expect(await app.knex('client_error_logs').where({ message: mine })).toEqual([
      expect.objectContaining({ userId: manager.id, stack: null, version: null, level: 'warning' }),
    ]);
  });

  it('keeps a report whose text holds NUL characters', async () => {
    const t = tag();
    const res = await (
      await app.anonymous()
    ).post(path, report(`nul\u0000${t}`, { response: { stack: 'a\u0000b' } }));
    expect(res.status).toBe(204);
    expect(await app.knex('client_error_logs').where({ message: `nul${t}` })).toEqual([
      expect.objectContaining({ stack: 'ab' }),
    ]);
  });

  it('answers 400 for bad input and stores nothing', async () => {
    const anon = await app.anonymous();
    const t = tag();
    expectFieldErrors(await anon.post(path, {}), ['level', 'channel', 'message']);
    expectFieldErrors(await anon.post(path, report(t, { level: 'fatal' })), ['level']);
    expectFieldErrors(await anon.post(path, report(t, { channel: '10004' })), ['channel']);
    expectFieldErrors(await anon.post(path, report(t, { channel: 1.5 })), ['channel']);
    expectFieldErrors(await anon.post(path, report(t, { message: '' })), ['message']);
    expectFieldErrors(await anon.post(path, report(`${t}${'m'.repeat(2001)}`)), ['message']);
    expectFieldErrors(await anon.post(path, report(t, { response: { stack: 's'.repeat(10_001) } })), [
      'response.stack',
    ]);
    expectFieldErrors(await anon.post(path, report(t, { response: { version: 'v'.repeat(65) } })), [
      'response.version',
    ]);
    expectFieldErrors(await anon.post(path, report(t, { response: { stack: 5, extra: 1 } })), [
      'response.stack',
      'response.extra',
    ]);
    expectFieldErrors(await anon.post(path, report(t, { response: 'boom' })), ['response']);
    expectFieldErrors(await anon.post(path, report(t, { userId: uuidv7() })), ['userId']);
    expect(await app.knex('client_error_logs').where('message', 'like', `${t}%`)).toEqual([]);
    // At the bounds it is accepted.
    const atBounds = report(`${t}${'m'.repeat(2000 - t.length)}`, {
      response: { stack: 's'.repeat(10_000), version: 'v'.repeat(64) },
    });
    expect((await anon.post(path, atBounds)).status).toBe(204);
  });

  it('is rate-limited per IP address so a looping page cannot flood the log', async () => {
    const t = tag();
    await withLimits(app, { logPerIp: { points: 2, durationSeconds: 60 } }, async (client) => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await client.post(path, report(`loop ${t}`))).status);
      expect(statuses).toEqual([204, 204, 429, 429, 429]);
    });
    expect(await app.knex('client_error_logs').where({ message: `loop ${t}` })).toHaveLength(2);
  });
});
