import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../../tests/support/http-client';
import {
  addMembership,
  createStudioScenario,
  createUser,
  TEST_PASSWORD,
} from '../../../../tests/support/factories';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';

let app: TestApp;
const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));

beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(async () => app?.close());

describe('POST /api/v4/auth/login', () => {
  it('signs in with the email in any case and returns the session headers and memberships', async () => {
    const { studio, manager } = await createStudioScenario(app.knex);
    const client = await app.anonymous();
    const res = await client.signIn(manager.email.toUpperCase(), TEST_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.userId).toBe(manager.id);
    expect(res.body.sessionId).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(res.body.me.memberships).toEqual([
      { studioUuid: studio.id, studioName: studio.name, isClient: false, isMember: true, role: 'owner' },
    ]);
    expect(res.headers.getSetCookie().join()).toMatch(/sp_session=.*httponly/i);
    const me = await client.get('/api/v4/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.emailAddress).toBe(manager.email);
    // Only a hash of the session id is stored.
    const stored = await app.knex('sessions').where({ userId: manager.id });
    expect(stored.map((s) => s.tokenHash)).not.toContain(res.body.sessionId);
  });

  it('answers 401 with the same field error for a wrong password and an unknown email', async () => {
    const { manager } = await createStudioScenario(app.knex);
    const client = await app.anonymous();
    const wrong = await client.signIn(manager.email, 'not the password');
    const unknown = await client.signIn('nobody-here@example.com', 'whatever123');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({
        key: 'auth.invalidCredentials',
        fields: { password: ['wrong email address or password'] },
      });
    }
  });

  it('refuses a sign-in to a studio the user does not belong to', async () => {
    const a = await createStudioScenario(app.knex);
    const b = await createStudioScenario(app.knex);
    const client = await app.anonymous();
    expect((await client.signIn(a.manager.email, TEST_PASSWORD, b.studio.id)).status).toBe(401);
    expect((await client.signIn(a.manager.email, TEST_PASSWORD, a.studio.id)).status).toBe(200);
  });

  it('answers 400 with every invalid field at once', async () => {
    const client = await app.anonymous();
    const res = await client.post('/api/v4/auth/login', {
      emailAddress: 'not-an-email',
      password: '',
      extra: true,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['emailAddress', 'extra', 'password']);
  });

  it('refuses state-changing calls without the CSRF token or the XMLHttpRequest marker', async () => {
    const { manager } = await createStudioScenario(app.knex);
    const client = await app.anonymous();
    const body = { emailAddress: manager.email, password: TEST_PASSWORD };
    const noToken = await client.post('/api/v4/auth/login', body, { headers: { 'x-csrf-token': '' } });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error.key).toBe('auth.csrf');
    const forged = await client.post('/api/v4/auth/login', body, {
      headers: { 'x-csrf-token': 'x'.repeat(32) },
    });
    expect(forged.status).toBe(403);
    const noMarker = await client.post('/api/v4/auth/login', body, { headers: { 'x-requested-with': '' } });
    expect(noMarker.status).toBe(403);
    // Signed in, the anonymous token no longer counts: the session's own token does.
    const signed = await app.signedIn(manager.email, TEST_PASSWORD);
    const anonToken = (await app.anonymous()).token;
    const res = await signed.post('/api/v4/auth/logout', undefined, {
      headers: { 'x-csrf-token': anonToken },
    });
    expect(res.status).toBe(403);
  });
});

describe('sessions', () => {
  it('logout revokes the session: the same headers then get 401', async () => {
    const { manager } = await createStudioScenario(app.knex);
    const client = await app.signedIn(manager.email, TEST_PASSWORD);
    expect((await client.post('/api/v4/auth/logout')).status).toBe(204);
    const me = await client.get('/api/v4/auth/me');
    expect(me.status).toBe(401);
    expect(me.body.error.key).toBe('auth.sessionExpired');
  });

  it('a session expires after its time to live without activity', async () => {
    const { manager } = await createStudioScenario(app.knex);
    const client = await app.signedIn(manager.email, TEST_PASSWORD);
    expect((await client.get('/api/v4/auth/me')).status).toBe(200);
    clock.advance(app.deps.config.SESSION_TTL_HOURS * 3600_000 + 1000);
    try {
      expect((await client.get('/api/v4/auth/me')).status).toBe(401);
    } finally {
      clock.set(new Date('2026-11-22T10:00:00Z'));
    }
  });

  it('a session id presented with another user id is not accepted', async () => {
    const a = await createStudioScenario(app.knex);
    const client = await app.signedIn(a.manager.email, TEST_PASSWORD);
    const res = await client.get('/api/v4/auth/me', {
      headers: { 'x-auth-token': `${a.client.id}:${client.session!.sessionId}` },
      noDefaults: true,
    });
    expect(res.status).toBe(401);
  });

  it('GET /api/v4/auth/me without a session is 401', async () => {
    const res = await (await app.anonymous()).get('/api/v4/auth/me');
    expect(res.status).toBe(401);
    expect(res.body.error.key).toBe('auth.required');
  });
});

describe('POST /api/v4/{uuid}/backoffice/init', () => {
  it('gives staff their studio and themselves', async () => {
    const { studio, manager } = await createStudioScenario(app.knex);
    const client = await app.signedIn(manager.email, TEST_PASSWORD);
    const res = await client.post(`/api/v4/${studio.id}/backoffice/init`);
    expect(res.status).toBe(200);
    expect(res.body.studio).toMatchObject({
      uuid: studio.id,
      name: studio.name,
      currency: 'PLN',
      rootSearchAddress: 'ul. Testowa 1, 00-001 Warszawa',
    });
    expect(res.body.member).toMatchObject({ userId: manager.id, role: 'owner' });
  });

  it('is 401 without a session, 403 for a client of the studio, 404 for another studio and for an unknown one', async () => {
    const { studio, client: clientUser, manager } = await createStudioScenario(app.knex);
    expect((await (await app.anonymous()).post(`/api/v4/${studio.id}/backoffice/init`)).status).toBe(401);
    const asClient = await app.signedIn(clientUser.email, TEST_PASSWORD);
    const forbidden = await asClient.post(`/api/v4/${studio.id}/backoffice/init`);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.key).toBe('auth.forbidden');
    await expectHiddenFromOtherStudio(app, { method: 'POST', path: `/api/v4/${studio.id}/backoffice/init` }, [
      studio.name,
      manager.email,
    ]);
    const asManager = await app.signedIn(manager.email, TEST_PASSWORD);
    expect(
      (await asManager.post('/api/v4/01900000-0000-7000-8000-000000000000/backoffice/init')).status,
    ).toBe(404);
    expect((await asManager.post('/api/v4/not-a-uuid/backoffice/init')).status).toBe(404);
  });

  it('an archived membership no longer opens the studio', async () => {
    const { studio } = await createStudioScenario(app.knex);
    const user = await createUser(app.knex);
    const m = await addMembership(app.knex, studio, user, { isMember: true, role: 'manager' });
    const client = await app.signedIn(user.email, TEST_PASSWORD);
    expect((await client.post(`/api/v4/${studio.id}/backoffice/init`)).status).toBe(200);
    await app.knex('memberships').update({ archivedAt: new Date() }).where({ id: m.id });
    expect((await client.post(`/api/v4/${studio.id}/backoffice/init`)).status).toBe(404);
  });
});

describe('PATCH /api/v4/{uuid}/me', () => {
  it('saves the language; 400 for an unknown one; 404 for another studio', async () => {
    const { studio, client: clientUser } = await createStudioScenario(app.knex);
    const client = await app.signedIn(clientUser.email, TEST_PASSWORD);
    const res = await client.patch(`/api/v4/${studio.id}/me`, { locale: 'pl' });
    expect(res.status).toBe(200);
    expect(res.body.locale).toBe('pl');
    expect((await app.knex('users').where({ id: clientUser.id }).first())?.locale).toBe('pl');
    const bad = await client.patch(`/api/v4/${studio.id}/me`, { locale: 'de' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.locale).toHaveLength(1);
    await expectHiddenFromOtherStudio(app, {
      method: 'PATCH',
      path: `/api/v4/${studio.id}/me`,
      body: { locale: 'en' },
    });
  });
});

describe('account recovery and reset', () => {
  it('emails a reset link; the link sets a new password once, signs in and ends other sessions', async () => {
    const { studio, client: clientUser } = await createStudioScenario(app.knex);
    const oldSession = await app.signedIn(clientUser.email, TEST_PASSWORD);
    const anon = await app.anonymous();
    const res = await anon.post(`/api/v4/${studio.id}/account/recovery`, {
      emailAddress: ` ${clientUser.email.toUpperCase()} `,
    });
    expect(res.status).toBe(202);
    await app.drainJobs();
    const mail = app.mail.findLast((m) => m.to === clientUser.email);
    expect(mail?.subject).toContain(studio.name);
    const link = /(http\S+reset-password\?token=\S+)/.exec(mail!.text)?.[1];
    expect(link).toContain(`/${studio.id}/frontoffice/reset-password`);
    const token = decodeURIComponent(new URL(link!).searchParams.get('token')!);

    const reset = await anon.post(`/api/v4/${studio.id}/account/reset`, {
      token,
      password: 'a brand new secret',
    });
    expect(reset.status).toBe(200);
    expect(reset.body.userId).toBe(clientUser.id);
    expect((await oldSession.get('/api/v4/auth/me')).status).toBe(401);
    expect((await (await app.anonymous()).signIn(clientUser.email, TEST_PASSWORD)).status).toBe(401);
    expect((await (await app.anonymous()).signIn(clientUser.email, 'a brand new secret')).status).toBe(200);

    const again = await (
      await app.anonymous()
    ).post(`/api/v4/${studio.id}/account/reset`, { token, password: 'another secret 123' });
    expect(again.status).toBe(400);
    expect(again.body.error.fields.token).toEqual(['this link is invalid or has expired']);
  });

  it('a used reset link or a password change spends every older link of the account', async () => {
    const { studio, client: clientUser } = await createStudioScenario(app.knex);
    // A reset signs the browser in, so every call comes from a fresh anonymous browser.
    const anon = { post: async (path: string, body: unknown) => (await app.anonymous()).post(path, body) };
    const askLink = async () => {
      await anon.post(`/api/v4/${studio.id}/account/recovery`, { emailAddress: clientUser.email });
      await app.drainJobs();
      const mail = app.mail.findLast((m) => m.to === clientUser.email)!;
      return decodeURIComponent(/token=(\S+)/.exec(mail.text)![1]!);
    };
    const older = await askLink();
    const newer = await askLink();
    expect(
      (await anon.post(`/api/v4/${studio.id}/account/reset`, { token: newer, password: 'first new secret' }))
        .status,
    ).toBe(200);
    const stale = await anon.post(`/api/v4/${studio.id}/account/reset`, {
      token: older,
      password: 'attacker secret',
    });
    expect(stale.status).toBe(400);
    expect(stale.body.error.fields.token).toEqual(['this link is invalid or has expired']);
    expect((await (await app.anonymous()).signIn(clientUser.email, 'first new secret')).status).toBe(200);

    // A change of password while signed in spends an outstanding link too.
    const pending = await askLink();
    const signedIn = await app.signedIn(clientUser.email, 'first new secret');
    expect(
      (
        await signedIn.post(`/api/v4/${studio.id}/security`, {
          currentPassword: 'first new secret',
          newPassword: 'second new secret',
        })
      ).status,
    ).toBe(204);
    expect(
      (await anon.post(`/api/v4/${studio.id}/account/reset`, { token: pending, password: 'attacker secret' }))
        .status,
    ).toBe(400);
    expect((await (await app.anonymous()).signIn(clientUser.email, 'second new secret')).status).toBe(200);
  });

  it('answers the same for an unknown email, and sends nothing', async () => {
    const { studio } = await createStudioScenario(app.knex);
    const before = app.mail.length;
    const res = await (
      await app.anonymous()
    ).post(`/api/v4/${studio.id}/account/recovery`, { emailAddress: 'ghost@example.com' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ sent: true });
    await app.drainJobs();
    expect(app.mail.length).toBe(before);
  });

  it('does not send a link for a user of another studio', async () => {
    const a = await createStudioScenario(app.knex);
    const b = await createStudioScenario(app.knex);
    const before = app.mail.length;
    await (
      await app.anonymous()
    ).post(`/api/v4/${b.studio.id}/account/recovery`, { emailAddress: a.client.email });
    await app.drainJobs();
    expect(app.mail.length).toBe(before);
  });

  it('a link from one studio does not work at another; expired links do not work', async () => {
    const a = await createStudioScenario(app.knex);
    const b = await createStudioScenario(app.knex);
    const anon = await app.anonymous();
    await anon.post(`/api/v4/${a.studio.id}/account/recovery`, { emailAddress: a.client.email });
    await app.drainJobs();
    const token = decodeURIComponent(/token=(\S+)/.exec(app.mail.at(-1)!.text)![1]!);
    expect(
      (await anon.post(`/api/v4/${b.studio.id}/account/reset`, { token, password: 'long enough pw' })).status,
    ).toBe(400);
    clock.advance(25 * 3600_000);
    try {
      expect(
        (await anon.post(`/api/v4/${a.studio.id}/account/reset`, { token, password: 'long enough pw' }))
          .status,
      ).toBe(400);
    } finally {
      clock.set(new Date('2026-11-22T10:00:00Z'));
    }
  });

  it('validates the new password and the studio', async () => {
    const { studio } = await createStudioScenario(app.knex);
    const anon = await app.anonymous();
    const short = await anon.post(`/api/v4/${studio.id}/account/reset`, { token: 'x', password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error.fields.password).toEqual(['at least 8 characters']);
    expect(
      (
        await anon.post('/api/v4/01900000-0000-7000-8000-000000000000/account/recovery', {
          emailAddress: 'a@b.co',
        })
      ).status,
    ).toBe(404);
  });
});

describe('rate limits', () => {
  it('guesses from one address do not lock the owner out; many addresses meet a slower per-email limit', async () => {
    const trustProxy = process.env.TRUST_PROXY;
    process.env.TRUST_PROXY = 'true'; // X-Forwarded-For tells the addresses apart
    const limited = await startTestApp({
      rateLimits: {
        loginPerEmailAndIp: { points: 3, durationSeconds: 300 },
        loginPerEmail: { points: 7, durationSeconds: 3600 },
      },
      shareDatabaseWith: app,
    }).finally(() => {
      process.env.TRUST_PROXY = trustProxy;
    });
    try {
      const { manager } = await createStudioScenario(limited.knex);
      const from = async (ip: string, password: string) =>
        (
          await (
            await limited.anonymous()
          ).post(
            '/api/v4/auth/login',
            { emailAddress: manager.email, password },
            { headers: { 'x-forwarded-for': ip } },
          )
        ).status;
      const attempts = async (ip: string, n: number) => {
        const statuses: number[] = [];
        for (let i = 0; i < n; i++) statuses.push(await from(ip, `guess ${i}`));
        return statuses;
      };
      expect(await attempts('203.0.113.1', 4)).toEqual([401, 401, 401, 429]);
      // The owner, from home, still gets in.
      expect(await from('198.51.100.7', TEST_PASSWORD)).toBe(200);
      expect(await attempts('203.0.113.2', 4)).toEqual([401, 401, 401, 429]);
      // Seven attempts of this email in the hour: a fresh address meets the per-email limit.
      expect(await from('203.0.113.3', 'guess')).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('answers 429 with Retry-After when one email is tried too often', async () => {
    const limited = await startTestApp({
      rateLimits: { loginPerEmail: { points: 3, durationSeconds: 60 } },
      shareDatabaseWith: app,
    });
    try {
      const client = await HttpClient.anonymous(limited.url);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await client.signIn('target@example.com', 'guess-number-' + i)).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      const res = await client.signIn('target@example.com', 'x');
      expect(res.body.error.key).toBe('rateLimit.exceeded');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
