import { describe, expect, it } from 'vitest';
import {
  addMembership,
  createStudio,
  createStudioScenario,
  createUser,
} from '../../../../tests/support/factories';
import { useTestApp } from '../../../../tests/support/test-app';
import { tag, HUGE, withLimits, expectFieldErrors } from './entry-fixtures';

const app = useTestApp();

// -------------------------------------------------------------------------------------------------

describe('POST /api/v4/auth/preflight', () => {
  const path = '/api/v4/auth/preflight';

  it('username mode, one studio: the login list item, whatever the case and spaces of the email', async () => {
    const { studio, client: clientUser } = await createStudioScenario(app.knex);
    const anon = await app.anonymous();
    const res = await anon.post(path, {
      preflight: 'username',
      username: `  ${clientUser.email.toUpperCase()} `,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      isValid: true,
      studios: [
        {
          uuid: studio.id,
          name: studio.name,
          logoUrl: null,
          rootSearchAddress: 'ul. Testowa 1, 00-001 Warszawa',
        },
      ],
    });
  });

  it('username mode, several studios: every live membership, by name, with absolute logos', async () => {
    const t = tag();
    const b = await createStudio(app.knex, { name: `B studio ${t}`, logoUrl: '/uploads/b.png' });
    const a = await createStudio(app.knex, {
      name: `A studio ${t}`,
      appearance: { defaultLogo: { absoluteUrl: 'https://cdn.example.com/a.png' } },
      addressLine: '',
      postalCode: '',
      city: 'Kraków',
    });
    const c = await createStudio(app.knex, { name: `C studio ${t}`, logoUrl: 'javascript:alert(1)' });
    const user = await createUser(app.knex);
    await addMembership(app.knex, b, user, { isClient: true });
    await addMembership(app.knex, a, user, { isMember: true, role: 'instructor' });
    await addMembership(app.knex, c, user, { isClient: true });
    const res = await (await app.anonymous()).post(path, { preflight: 'username', username: user.email });
    expect(res.status).toBe(200);
    expect(res.body.isValid).toBe(true);
    expect(res.body.studios).toEqual([
      { uuid: a.id, name: a.name, logoUrl: 'https://cdn.example.com/a.png', rootSearchAddress: 'Kraków' },
      {
        uuid: b.id,
        name: b.name,
        logoUrl: `${app.url}/uploads/b.png`,
        rootSearchAddress: 'ul. Testowa 1, 00-001 Warszawa',
      },
      { uuid: c.id, name: c.name, logoUrl: null, rootSearchAddress: 'ul. Testowa 1, 00-001 Warszawa' },
    ]);
  });

  it('an unknown email is not valid and lists nothing', async () => {
    const anon = await app.anonymous();
    for (const body of [
      { preflight: 'username', username: `nobody-${tag()}@example.com` },
      { preflight: 'studio', action: 'emailAddress', emailAddress: `nobody-${tag()}@example.com` },
    ]) {
      const res = await anon.post(path, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ isValid: false, studios: [] });
    }
  });

  it('archived memberships do not count', async () => {
    const live = await createStudio(app.knex);
    const gone = await createStudio(app.knex);
    const user = await createUser(app.knex);
    await addMembership(app.knex, live, user, { isClient: true });
    const archived = await addMembership(app.knex, gone, user, { isClient: true });
    await app.knex('memberships').update({ archivedAt: new Date() }).where({ id: archived.id });
    const anon = await app.anonymous();
    const res = await anon.post(path, { preflight: 'username', username: user.email });
    expect(res.body.studios.map((s: { uuid: string }) => s.uuid)).toEqual([live.id]);

    const onlyArchived = await createUser(app.knex);
    const m = await addMembership(app.knex, gone, onlyArchived, { isMember: true, role: 'owner' });
    await app.knex('memberships').update({ archivedAt: new Date() }).where({ id: m.id });
    for (const body of [
      { preflight: 'username', username: onlyArchived.email },
      { preflight: 'studio', action: 'emailAddress', emailAddress: onlyArchived.email },
    ]) {
      expect((await anon.post(path, body)).body).toEqual({ isValid: false, studios: [] });
    }
  });

  it('studio mode lists the studios for the sign-up flow with logos and the front-office link', async () => {
    const t = tag();
    const withLogo = await createStudio(app.knex, {
      name: `A ${t}`,
      logoUrl: 'https://cdn.example.com/logo.png',
    });
    const without = await createStudio(app.knex, { name: `B ${t}` });
    const user = await createUser(app.knex);
    await addMembership(app.knex, withLogo, user, { isMember: true, role: 'owner' });
    await addMembership(app.knex, without, user, { isClient: true });
    const anon = await app.anonymous();
    const res = await anon.post(path, {
      preflight: 'studio',
      action: 'emailAddress',
      emailAddress: user.email,
    });
    expect(res.status).toBe(200);
    const logo = { absoluteUrl: 'https://cdn.example.com/logo.png' };
    expect(res.body).toEqual({
      isValid: true,
      studios: [
        {
          uuid: withLogo.id,
          name: withLogo.name,
          logoUrl: logo.absoluteUrl,
          rootSearchAddress: 'ul. Testowa 1, 00-001 Warszawa',
          appearance: { defaultLogo: logo },
          settings: { defaultLogo: logo },
          frontOfficeLink: `${app.url}/${withLogo.id}/frontoffice`,
        },
        {
          uuid: without.id,
          name: without.name,
          logoUrl: null,
          rootSearchAddress: 'ul. Testowa 1, 00-001 Warszawa',
          appearance: { defaultLogo: null },
          settings: { defaultLogo: null },
          frontOfficeLink: `${app.url}/${without.id}/frontoffice`,
        },
      ],
    });
    // The Log in link leads to a page, not a 404.
    const page = await anon.get(new URL(res.body.studios[0].frontOfficeLink).pathname);
    expect(page.status).not.toBe(404);
  });

  it('answers 400 with field errors for bad input', async () => {
    const anon = await app.anonymous();
    expectFieldErrors(await anon.post(path, {}), ['preflight']);
    expectFieldErrors(await anon.post(path, { preflight: 'password', username: 'a@b.co' }), ['preflight']);
    expectFieldErrors(await anon.post(path, { preflight: 'username' }), ['username']);
    expectFieldErrors(await anon.post(path, { preflight: 'username', username: 'not an email' }), [
      'username',
    ]);
    expectFieldErrors(await anon.post(path, { preflight: 'username', username: 42 }), ['username']);
    expectFieldErrors(await anon.post(path, { preflight: 'username', username: `${HUGE}@example.com` }), [
      'username',
    ]);
    expectFieldErrors(await anon.post(path, { preflight: 'username', username: 'a@b.co', studioUuid: 'x' }), [
      'studioUuid',
    ]);
    // Each mode takes its own field names.
    expectFieldErrors(await anon.post(path, { preflight: 'username', emailAddress: 'a@b.co' }), [
      'username',
      'emailAddress',
    ]);
    expectFieldErrors(
      await anon.post(path, { preflight: 'studio', action: 'username', emailAddress: 'a@b.co' }),
      ['action'],
    );
    expectFieldErrors(await anon.post(path, { preflight: 'studio', action: 'emailAddress' }), [
      'emailAddress',
    ]);
    const malformed = await anon.post(path, undefined, { raw: '{"preflight":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.key).toBe('request.malformedJson');
    // A well-formed body over the 1 MB limit is too large, not malformed.
    const huge = await anon.post(path, undefined, {
      raw: JSON.stringify({ preflight: 'username', username: 'a@b.co', pad: 'x'.repeat(1_100_000) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.key).toBe('request.tooLarge');
  });

  it('refuses a call without the CSRF token', async () => {
    const anon = await app.anonymous();
    const res = await anon.post(
      path,
      { preflight: 'username', username: 'a@b.co' },
      { headers: { 'x-csrf-token': '' } },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.key).toBe('auth.csrf');
  });

  it('is rate-limited per email address and per IP address, with Retry-After', async () => {
    const { client: clientUser } = await createStudioScenario(app.knex);
    await withLimits(app, { lookupPerEmail: { points: 2, durationSeconds: 60 } }, async (client) => {
      const ask = (email: string) => client.post(path, { preflight: 'username', username: email });
      expect((await ask(clientUser.email)).status).toBe(200);
      expect((await ask(clientUser.email.toUpperCase())).status).toBe(200);
      const limited = await client.post(path, {
        preflight: 'studio',
        action: 'emailAddress',
        emailAddress: clientUser.email,
      });
      expect(limited.status).toBe(429);
      expect(limited.body.error.key).toBe('rateLimit.exceeded');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another address still gets its answer.
      expect((await ask(`other-${tag()}@example.com`)).status).toBe(200);
    });
    await withLimits(app, { lookupPerIp: { points: 3, durationSeconds: 60 } }, async (client) => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await client.post(path, { preflight: 'username', username: `n${i}-${tag()}@example.com` })).status,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  });
});
