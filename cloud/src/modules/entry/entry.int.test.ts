import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoginResult } from '../../../../shared/contracts/api/auth';
import {
  addMembership,
  createStudio,
  createStudioScenario,
  createUser,
  TEST_PASSWORD,
} from '../../../../tests/support/factories';
import { HttpClient } from '../../../../tests/support/http-client';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import type { RateLimitName, RateLimitRule } from '../../http/rate-limit';
import { Membership } from '../identity/membership.model';
import { PasswordResetToken } from '../identity/session.model';
import { Studio } from '../identity/studio.model';
import { User } from '../identity/user.model';
import { ClientErrorLog } from './client-error-log.model';
import { StudioKiosk } from './studio-kiosk.model';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const tag = () => uuidv7().slice(-12);
const HUGE = 'x'.repeat(100_000);

/** A second app on the same database with narrow limits (the embedded database has one connection). */
async function withLimits(
  rateLimits: Partial<Record<RateLimitName, RateLimitRule>>,
  run: (client: HttpClient, limited: TestApp) => Promise<void>,
): Promise<void> {
  const limited = await startTestApp({ rateLimits, shareDatabaseWith: app });
  try {
    await run(await HttpClient.anonymous(limited.url), limited);
  } finally {
    await limited.close();
  }
}

function expectFieldErrors(res: { status: number; body: any }, fields: string[]): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.key).toBe('request.invalid');
  expect(Object.keys(res.body.error.fields).sort()).toEqual([...fields].sort());
}

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
    await Membership.query(app.knex).patch({ archivedAt: new Date() }).where({ id: archived.id });
    const anon = await app.anonymous();
    const res = await anon.post(path, { preflight: 'username', username: user.email });
    expect(res.body.studios.map((s: { uuid: string }) => s.uuid)).toEqual([live.id]);

    const onlyArchived = await createUser(app.knex);
    const m = await addMembership(app.knex, gone, onlyArchived, { isMember: true, role: 'owner' });
    await Membership.query(app.knex).patch({ archivedAt: new Date() }).where({ id: m.id });
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
    await withLimits({ lookupPerEmail: { points: 2, durationSeconds: 60 } }, async (client) => {
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
    await withLimits({ lookupPerIp: { points: 3, durationSeconds: 60 } }, async (client) => {
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

// -------------------------------------------------------------------------------------------------

describe('POST /api/v4/studio/create', () => {
  const path = '/api/v4/studio/create';
  const signup = (overrides: Record<string, unknown> = {}) => ({
    emailAddress: `owner-${tag()}@example.com`,
    name: `Zażółć Studio ${tag()}`,
    firstName: 'Ola',
    lastName: 'Właścicielka',
    termsOfUseAndPrivacyPolicyAgreement: true,
    locale: 'pl',
    ...overrides,
  });

  async function everythingFor(email: string, studioName: string) {
    const studios = await Studio.query(app.knex).where({ name: studioName });
    const users = await User.query(app.knex).whereRaw('lower(email) = ?', [email.toLowerCase()]);
    const studioIds = studios.map((s) => s.id);
    return {
      studios,
      users,
      memberships: await Membership.query(app.knex).whereIn('studioId', studioIds),
      kiosks: await StudioKiosk.query(app.knex).whereIn('studioId', studioIds),
      tokens: await PasswordResetToken.query(app.knex).whereIn('studioId', studioIds),
    };
  }

  it('creates the studio, its owner, the owner membership and the kiosk, and emails a welcome link', async () => {
    const body = signup({ emailAddress: `  Owner-${tag()}@Example.com ` });
    const email = body.emailAddress.trim().toLowerCase();
    const anon = await app.anonymous();
    const res = await anon.post(path, body);
    expect(res.status, res.text).toBe(201);
    const uuid = res.body.studio.uuid as string;
    expect(res.body).toEqual({
      studio: {
        uuid,
        name: body.name,
        slug: `zazolc-studio-${body.name.split(' ').at(-1)}`,
        currency: 'PLN',
        defaultLocale: 'pl',
        timeZone: 'Europe/Warsaw',
        logoUrl: null,
        rootSearchAddress: '',
        frontOfficeLink: `${app.url}/${uuid}/frontoffice`,
      },
      backofficeUrl: `${app.url}/${uuid}/backoffice`,
    });

    const made = await everythingFor(email, body.name);
    expect(made.studios).toHaveLength(1);
    expect(made.studios[0]).toMatchObject({ country: 'PL', studioType: 8 });
    expect(made.studios[0]!.kioskKey).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(made.users).toHaveLength(1);
    const owner = made.users[0]!;
    expect(owner).toMatchObject({
      email,
      firstName: 'Ola',
      lastName: 'Właścicielka',
      locale: 'pl',
      passwordHash: null,
    });
    expect(made.memberships).toEqual([
      expect.objectContaining({
        userId: owner.id,
        isMember: true,
        isClient: false,
        role: 'owner',
        archivedAt: null,
      }),
    ]);
    expect(made.kiosks).toEqual([expect.objectContaining({ isDefault: true, name: 'Kiosk' })]);
    expect(made.tokens).toHaveLength(1);
    expect(made.tokens[0]!.expiresAt.getTime() - Date.now()).toBeGreaterThan(71 * 3600_000);

    await app.drainJobs();
    const mail = app.mail.findLast((m) => m.to === email);
    expect(mail?.subject).toBe(`Witamy w ${body.name}: ustaw swoje hasło`);
    expect(mail?.text).toContain('Dzień dobry Ola');
    expect(mail?.text).toContain(`${app.url}/${uuid}/frontoffice/reset-password?token=`);
    expect(mail?.text).toContain(`Panel studia: ${app.url}/${uuid}/backoffice`);

    // The sign-up flow's existence check now finds it.
    const check = await anon.post('/api/v4/auth/preflight', {
      preflight: 'studio',
      action: 'emailAddress',
      emailAddress: email,
    });
    expect(check.body.isValid).toBe(true);
    expect(check.body.studios.map((s: { uuid: string }) => s.uuid)).toEqual([uuid]);
  });

  it('a studio made by sign-up is usable end to end: the welcome link signs the owner in to the back office', async () => {
    const body = signup();
    const anon = await app.anonymous();
    const res = await anon.post(path, body);
    expect(res.status).toBe(201);
    const uuid = res.body.studio.uuid as string;

    for (const page of [
      `/${uuid}/frontoffice`,
      `/${uuid}/backoffice`,
      `/${uuid}/frontoffice/reset-password`,
    ]) {
      expect((await anon.get(page)).status, page).not.toBe(404);
    }

    await app.drainJobs();
    const mail = app.mail.findLast((m) => m.to === body.emailAddress)!;
    const link = new URL(/(http\S+reset-password\?token=\S+)/.exec(mail.text)![1]!);
    expect(link.pathname).toBe(`/${uuid}/frontoffice/reset-password`);
    const token = link.searchParams.get('token')!;

    const owner = await app.anonymous();
    const reset = await owner.post(`/api/v4/${uuid}/account/reset`, { token, password: 'my first password' });
    expect(reset.status, reset.text).toBe(200);
    owner.session = reset.body as LoginResult;
    owner.token = reset.body.token;
    expect(reset.body.me.memberships).toEqual([
      { studioUuid: uuid, studioName: body.name, isClient: false, isMember: true, role: 'owner' },
    ]);

    const init = await owner.post(`/api/v4/${uuid}/backoffice/init`);
    expect(init.status, init.text).toBe(200);
    expect(init.body.studio.uuid).toBe(uuid);
    expect(init.body.member).toMatchObject({
      firstName: 'Ola',
      emailAddress: body.emailAddress,
      role: 'owner',
    });

    // And with the password just chosen.
    const again = await app.signedIn(body.emailAddress, 'my first password', uuid);
    expect((await again.post(`/api/v4/${uuid}/backoffice/init`)).status).toBe(200);
    // The link works once.
    const reused = await (
      await app.anonymous()
    ).post(`/api/v4/${uuid}/account/reset`, { token, password: 'another one 123' });
    expect(reused.status).toBe(400);
  });

  it('English sign-up: euro, UTC, English email; the fields may come wrapped under the form name', async () => {
    const fields = signup({ locale: 'en', name: `Łódź Yoga ${tag()}` });
    const res = await (await app.anonymous()).post(path, { studio_signup: fields });
    expect(res.status, res.text).toBe(201);
    expect(res.body.studio).toMatchObject({ currency: 'EUR', timeZone: 'UTC', defaultLocale: 'en' });
    expect(res.body.studio.slug).toMatch(/^lodz-yoga-/);
    await app.drainJobs();
    const mail = app.mail.findLast((m) => m.to === fields.emailAddress);
    expect(mail?.subject).toBe(`Welcome to ${fields.name}: set your password`);
  });

  it('without the hidden locale, takes the browser language', async () => {
    const { locale: _locale, ...fields } = signup();
    const res = await (
      await app.anonymous()
    ).post(path, fields, { headers: { 'accept-language': 'pl-PL,pl;q=0.9' } });
    expect(res.status).toBe(201);
    expect(res.body.studio.defaultLocale).toBe('pl');
    const { locale: _l, ...other } = signup();
    const en = await (await app.anonymous()).post(path, other, { headers: { 'accept-language': 'de-DE' } });
    expect(en.body.studio.defaultLocale).toBe('en');
    const empty = await (
      await app.anonymous()
    ).post(path, signup({ locale: '' }), { headers: { 'accept-language': 'pl' } });
    expect(empty.body.studio.defaultLocale).toBe('pl');
  });

  it('the same studio name gets a numbered slug', async () => {
    const name = `Pole Dance ${tag()}`;
    const anon = await app.anonymous();
    const first = await anon.post(path, signup({ name }));
    const second = await anon.post(path, signup({ name: name.toUpperCase() }));
    const third = await anon.post(path, signup({ name }));
    const base = `pole-dance-${name.split(' ').at(-1)}`;
    expect([first.body.studio.slug, second.body.studio.slug, third.body.studio.slug]).toEqual([
      base,
      `${base}-2`,
      `${base}-3`,
    ]);
  });

  it('reuses an existing user without touching their password or profile; an owner may open another studio', async () => {
    const { client: existing, studio: elsewhere } = await createStudioScenario(app.knex);
    const anon = await app.anonymous();
    const res = await anon.post(
      path,
      signup({ emailAddress: existing.email.toUpperCase(), firstName: 'Changed', lastName: 'Name' }),
    );
    expect(res.status, res.text).toBe(201);
    const uuid = res.body.studio.uuid as string;
    const users = await User.query(app.knex).whereRaw('lower(email) = ?', [existing.email]);
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({
      id: existing.id,
      firstName: 'Kamil',
      lastName: 'Client',
      passwordHash: existing.passwordHash,
    });
    const signedIn = await app.signedIn(existing.email, TEST_PASSWORD);
    const me = await signedIn.get('/api/v4/auth/me');
    expect(me.body.memberships).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ studioUuid: elsewhere.id, isClient: true, isMember: false }),
        expect.objectContaining({ studioUuid: uuid, isClient: false, isMember: true, role: 'owner' }),
      ]),
    );
    expect((await signedIn.post(`/api/v4/${uuid}/backoffice/init`)).status).toBe(200);

    const second = await anon.post(path, signup({ emailAddress: existing.email }));
    expect(second.status).toBe(201);
    expect(second.body.studio.uuid).not.toBe(uuid);
    const check = await anon.post('/api/v4/auth/preflight', {
      preflight: 'username',
      username: existing.email,
    });
    expect(check.body.studios).toHaveLength(3);
  });

  it('the terms must be accepted: checkbox values that count and the ones that do not', async () => {
    const anon = await app.anonymous();
    for (const accepted of [true, 'true', 1, '1', 'on']) {
      const res = await anon.post(path, signup({ termsOfUseAndPrivacyPolicyAgreement: accepted }));
      expect(res.status, `accepted ${JSON.stringify(accepted)}`).toBe(201);
    }
    for (const refused of [undefined, false, 'false', 0, '0', 'off', '', 'yes', null, 2, [], {}]) {
      const body = signup({ termsOfUseAndPrivacyPolicyAgreement: refused });
      const res = await anon.post(path, body);
      expect(res.status, `refused ${JSON.stringify(refused)}`).toBe(400);
      expect(res.body.error).toMatchObject({
        key: 'studio.termsRequired',
        code: 1400,
        fields: {
          termsOfUseAndPrivacyPolicyAgreement: ['you must accept the terms of use and the privacy policy'],
        },
      });
      expect(await Studio.query(app.knex).where({ name: body.name })).toHaveLength(0);
    }
    // With other invalid fields, the unchecked box is reported together with them.
    const all = await anon.post(path, { emailAddress: 'nope', name: '', locale: 'pl' });
    expectFieldErrors(all, [
      'emailAddress',
      'name',
      'firstName',
      'lastName',
      'termsOfUseAndPrivacyPolicyAgreement',
    ]);
    expect(all.body.error.fields.termsOfUseAndPrivacyPolicyAgreement).toEqual([
      'you must accept the terms of use and the privacy policy',
    ]);
  });

  it('answers 400 with field errors for bad input and creates nothing', async () => {
    const anon = await app.anonymous();
    const body = signup();
    expectFieldErrors(
      await anon.post(path, { ...body, emailAddress: 12, firstName: ['x'], lastName: null }),
      ['emailAddress', 'firstName', 'lastName'],
    );
    expectFieldErrors(await anon.post(path, { ...body, name: HUGE, firstName: HUGE, lastName: HUGE }), [
      'name',
      'firstName',
      'lastName',
    ]);
    expectFieldErrors(await anon.post(path, { ...body, name: '   ' }), ['name']);
    expectFieldErrors(await anon.post(path, { ...body, name: 'Studio\u0000Name', firstName: '\u0000' }), [
      'name',
      'firstName',
    ]);
    expectFieldErrors(await anon.post(path, { ...body, locale: 'de' }), ['locale']);
    expectFieldErrors(await anon.post(path, { ...body, password: 'x', isAdmin: true }), [
      'password',
      'isAdmin',
    ]);
    // Wrapped: field errors name the fields, not the wrapper.
    expectFieldErrors(await anon.post(path, { studio_signup: { ...body, emailAddress: 'nope' } }), [
      'emailAddress',
    ]);
    // The wrapper with anything beside it is not a wrapper.
    expectFieldErrors(await anon.post(path, { studio_signup: body, name: 'x' }), [
      'studio_signup',
      'emailAddress',
      'firstName',
      'lastName',
      'termsOfUseAndPrivacyPolicyAgreement',
    ]);
    expect(await Studio.query(app.knex).where({ name: body.name })).toHaveLength(0);
  });

  it('is one transaction: a failure after the studio and the user were written leaves nothing', async () => {
    const body = signup();
    const spy = vi.spyOn(StudioKiosk, 'query').mockImplementation(() => {
      throw new Error('simulated failure while creating the kiosk');
    });
    let res;
    try {
      // A 500 on purpose: announced, so CI's zero-500 check (SERVER_ERROR_LOG) lets it through.
      res = await (
        await app.anonymous()
      ).post(path, body, {
        headers: { 'x-expect-server-error': 'simulated failure while creating the kiosk' },
      });
    } finally {
      spy.mockRestore();
    }
    expect(res.status).toBe(500);
    expect(res.body.error.key).toBe('internal.unexpected');
    expect(res.text).not.toContain('simulated');
    const left = await everythingFor(body.emailAddress, body.name);
    expect(left.studios).toEqual([]);
    expect(left.users).toEqual([]);
    await app.drainJobs();
    expect(app.mail.some((m) => m.to === body.emailAddress)).toBe(false);
    // The same sign-up then goes through.
    expect((await (await app.anonymous()).post(path, body)).status).toBe(201);
  });

  it('is rate-limited per IP address', async () => {
    await withLimits({ signupPerIp: { points: 1, durationSeconds: 3600 } }, async (client) => {
      expect((await client.post(path, signup())).status).toBe(201);
      const body = signup();
      const res = await client.post(path, body);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await Studio.query(app.knex).where({ name: body.name })).toHaveLength(0);
    });
  });
});

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
    await withLimits({ searchPerIp: { points: 2, durationSeconds: 60 } }, async (client) => {
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
    const kiosks = await StudioKiosk.query(app.knex).where({ studioId: studio.id });
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
    const studio = (await Studio.query(app.knex).findById(res.body.studio.uuid))!;
    const kiosk = await StudioKiosk.query(app.knex).findOne({ studioId: studio.id });
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
    expect(await StudioKiosk.query(app.knex).where({ studioId: studio.id })).toEqual([]);
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
    await withLimits({ kioskPerIp: { points: 3, durationSeconds: 60 } }, async (client) => {
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
    const [row] = await ClientErrorLog.query(app.knex).where({ message });
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
    expect(await ClientErrorLog.query(app.knex).where({ message: mine })).toEqual([
      expect.objectContaining({ userId: manager.id, stack: null, version: null, level: 'warning' }),
    ]);
  });

  it('keeps a report whose text holds NUL characters', async () => {
    const t = tag();
    const res = await (
      await app.anonymous()
    ).post(path, report(`nul\u0000${t}`, { response: { stack: 'a\u0000b' } }));
    expect(res.status).toBe(204);
    expect(await ClientErrorLog.query(app.knex).where({ message: `nul${t}` })).toEqual([
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
    expect(await ClientErrorLog.query(app.knex).where('message', 'like', `${t}%`)).toEqual([]);
    // At the bounds it is accepted.
    const atBounds = report(`${t}${'m'.repeat(2000 - t.length)}`, {
      response: { stack: 's'.repeat(10_000), version: 'v'.repeat(64) },
    });
    expect((await anon.post(path, atBounds)).status).toBe(204);
  });

  it('is rate-limited per IP address so a looping page cannot flood the log', async () => {
    const t = tag();
    await withLimits({ logPerIp: { points: 2, durationSeconds: 60 } }, async (client) => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await client.post(path, report(`loop ${t}`))).status);
      expect(statuses).toEqual([204, 204, 429, 429, 429]);
    });
    expect(await ClientErrorLog.query(app.knex).where({ message: `loop ${t}` })).toHaveLength(2);
  });
});
