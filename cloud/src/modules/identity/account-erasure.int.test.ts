import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import {
  addMembership,
  createStudio,
  createStudioScenario,
  createUser,
  TEST_PASSWORD,
} from '../../../../tests/support/factories';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { startTestApp, useTestApp, type TestApp } from '../../../../tests/support/test-app';
import { erasedEmail } from './account-erasure.service';

const app = useTestApp();

const accountPath = (studioId: string) => `/api/v4/${studioId}/account`;
/** The person's membership in the studio, archived or not. */
const membershipIn = (knex: TestApp['knex'], studioId: string, userId: string) =>
  knex('memberships').where({ studioId, userId }).first();

/** A pass the client holds: an entitlement (and financial) record that must outlive the erasure. */
async function givePass(knex: Knex, studioId: string, clientId: string): Promise<string> {
  const pricingOptionId = uuidv7();
  await knex('pricing_options').insert({
    id: pricingOptionId,
    studioId,
    name: JSON.stringify({ en: '10 entries', pl: '10 wejść' }),
    price: 25_000,
    entries: 10,
  });
  const id = uuidv7();
  await knex('client_pricing_options').insert({ id, studioId, clientId, pricingOptionId, entries: 10 });
  return id;
}

describe('DELETE /api/v4/{uuid}/account', () => {
  it('is 401 without a session', async () => {
    const { studio } = await createStudioScenario(app.knex);
    const res = await (await app.anonymous()).delete(accountPath(studio.id), { password: TEST_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.error.key).toBe('auth.required');
  });

  it('is 400 for a missing or wrong password and for unknown fields, and changes nothing', async () => {
    const { studio, client: clientUser } = await createStudioScenario(app.knex);
    const client = await app.signedIn(clientUser.email, TEST_PASSWORD, studio.id);

    const missing = await client.delete(accountPath(studio.id), {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({ password: [expect.any(String)] });

    const empty = await client.delete(accountPath(studio.id));
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.error.fields)).toEqual(['password']);

    const wrong = await client.delete(accountPath(studio.id), { password: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({
      key: 'request.invalid',
      fields: { password: ['wrong password'] },
    });

    const unknown = await client.delete(accountPath(studio.id), { password: TEST_PASSWORD, force: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields).toEqual({ force: ['unknown field'] });

    // Nothing happened: the client is still a client, with their data, signed in.
    const user = await app.knex('users').where({ id: clientUser.id }).first();
    expect(user).toMatchObject({ email: clientUser.email, firstName: 'Kamil' });
    const membership = await membershipIn(app.knex, studio.id, clientUser.id);
    expect(membership?.archivedAt).toBeNull();
    expect(await app.knex('account_erasures').where({ userId: clientUser.id })).toEqual([]);
    expect((await client.get('/api/v4/auth/me')).status).toBe(200);
  });

  it('is 403 for a member of staff who is not a client of the studio', async () => {
    const { studio, manager } = await createStudioScenario(app.knex);
    const client = await app.signedIn(manager.email, TEST_PASSWORD);
    const res = await client.delete(accountPath(studio.id), { password: TEST_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.error.key).toBe('auth.forbidden');
    expect(await app.knex('memberships').where({ userId: manager.id }).whereNotNull('archivedAt')).toEqual(
      [],
    );
  });

  it('is 404 for another studio and for an unknown one', async () => {
    const { studio, client: clientUser } = await createStudioScenario(app.knex);
    await expectHiddenFromOtherStudio(
      app,
      { method: 'DELETE', path: accountPath(studio.id), body: { password: TEST_PASSWORD } },
      [studio.name, clientUser.email],
    );
    const client = await app.signedIn(clientUser.email, TEST_PASSWORD);
    const unknown = await client.delete(accountPath('01900000-0000-7000-8000-000000000000'), {
      password: TEST_PASSWORD,
    });
    expect(unknown.status).toBe(404);
    const membership = await membershipIn(app.knex, studio.id, clientUser.id);
    expect(membership?.archivedAt).toBeNull();
  });

  it('is 409 for a client who is also staff of the studio: the owner removes staff first', async () => {
    const { studio } = await createStudioScenario(app.knex);
    const both = await createUser(app.knex);
    await addMembership(app.knex, studio, both, { isClient: true, isMember: true, role: 'instructor' });
    const client = await app.signedIn(both.email, TEST_PASSWORD, studio.id);
    const res = await client.delete(accountPath(studio.id), { password: TEST_PASSWORD });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ key: 'resource.conflict' });
    expect(res.body.error.message).toMatch(/owner must remove you from the staff/);
    expect((await app.knex('users').where({ id: both.id }).first())?.email).toBe(both.email);
    expect((await client.get('/api/v4/auth/me')).status).toBe(200);
  });

  it('erases a client of one studio: anonymised, signed out everywhere, passes kept, recorded', async () => {
    const { studio, manager, client: clientUser } = await createStudioScenario(app.knex);
    await app.knex('users').update({ phone: '+48 600 100 200', locale: 'pl' }).where({ id: clientUser.id });
    const passId = await givePass(app.knex, studio.id, clientUser.id);
    const otherDevice = await app.signedIn(clientUser.email, TEST_PASSWORD);
    const client = await app.signedIn(clientUser.email, TEST_PASSWORD, studio.id);
    await app.knex('password_reset_tokens').insert({
      id: uuidv7(),
      userId: clientUser.id,
      studioId: studio.id,
      tokenHash: uuidv7().replace(/-/g, '').padEnd(64, '0'),
      expiresAt: new Date(Date.now() + 3600_000),
    });

    const res = await client.delete(accountPath(studio.id), { password: TEST_PASSWORD });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.getSetCookie().join()).toMatch(/sp_session=;.*expires=Thu, 01 Jan 1970/i);

    // Personal data is gone from the user row; the id stays for the records that point at it.
    const user = await app.knex('users').where({ id: clientUser.id }).first();
    expect(user).toMatchObject({
      email: erasedEmail(clientUser.id),
      firstName: '',
      lastName: '',
      phone: null,
      passwordHash: null,
      locale: null,
    });
    const sessions = await app.knex('sessions').where({ userId: clientUser.id });
    expect(sessions).toHaveLength(2);
    for (const s of sessions)
      expect(s).toMatchObject({ revokedAt: expect.any(Date), ip: null, userAgent: null });
    expect(await app.knex('password_reset_tokens').where({ userId: clientUser.id })).toEqual([]);

    // The pass (an entitlement bought with money) survives, still pointing at the same user id.
    const pass = await app.knex('client_pricing_options').where({ id: passId }).first();
    expect(pass).toMatchObject({ clientId: clientUser.id, studioId: studio.id });

    const membership = await membershipIn(app.knex, studio.id, clientUser.id);
    expect(membership?.archivedAt).toBeInstanceOf(Date);
    const erasures = await app.knex('account_erasures').where({ userId: clientUser.id });
    expect(erasures).toEqual([
      expect.objectContaining({ studioId: studio.id, anonymised: true, erasedAt: expect.any(Date) }),
    ]);

    // No way back in: neither session works, and the old email and password sign in nowhere.
    expect((await client.delete(accountPath(studio.id), { password: TEST_PASSWORD })).status).toBe(401);
    expect((await client.get('/api/v4/auth/me')).status).toBe(401);
    expect((await otherDevice.get('/api/v4/auth/me')).status).toBe(401);
    const anon = await app.anonymous();
    expect((await anon.signIn(clientUser.email, TEST_PASSWORD, studio.id)).status).toBe(401);
    expect((await anon.signIn(clientUser.email, TEST_PASSWORD)).status).toBe(401);

    // The studio's staff are untouched.
    expect((await anon.signIn(manager.email, TEST_PASSWORD, studio.id)).status).toBe(200);
  });

  it('keeps the user for their other studios: only this standing ends, and this session', async () => {
    const { studio, client: clientUser } = await createStudioScenario(app.knex);
    const other = await createStudio(app.knex);
    await addMembership(app.knex, other, clientUser, { isClient: true });
    const passId = await givePass(app.knex, studio.id, clientUser.id);
    const otherDevice = await app.signedIn(clientUser.email, TEST_PASSWORD);
    const client = await app.signedIn(clientUser.email, TEST_PASSWORD, studio.id);

    const res = await client.delete(accountPath(studio.id), { password: TEST_PASSWORD });
    expect(res.status).toBe(204);

    const user = await app.knex('users').where({ id: clientUser.id }).first();
    expect(user).toMatchObject({ email: clientUser.email, firstName: 'Kamil', lastName: 'Client' });
    expect(user?.passwordHash).toBeTruthy();
    const memberships = await app.knex('memberships').where({ userId: clientUser.id });
    expect(Object.fromEntries(memberships.map((m) => [m.studioId, m.archivedAt !== null]))).toEqual({
      [studio.id]: true,
      [other.id]: false,
    });
    expect(await app.knex('account_erasures').where({ userId: clientUser.id })).toEqual([
      expect.objectContaining({ studioId: studio.id, anonymised: false }),
    ]);
    expect(await app.knex('client_pricing_options').where({ id: passId })).toHaveLength(1);

    // The asking session is over; a session from another device lives on, but not in this studio.
    expect((await client.get('/api/v4/auth/me')).status).toBe(401);
    const me = await otherDevice.get('/api/v4/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.memberships.map((m: { studioUuid: string }) => m.studioUuid)).toEqual([other.id]);
    const again = await otherDevice.delete(accountPath(studio.id), { password: TEST_PASSWORD });
    expect(again.status).toBe(404);
    expect((await otherDevice.patch(`/api/v4/${studio.id}/me`, { locale: 'en' })).status).toBe(404);
    expect((await otherDevice.patch(`/api/v4/${other.id}/me`, { locale: 'en' })).status).toBe(200);

    const anon = await app.anonymous();
    expect((await anon.signIn(clientUser.email, TEST_PASSWORD, studio.id)).status).toBe(401);
    expect((await anon.signIn(clientUser.email, TEST_PASSWORD, other.id)).status).toBe(200);

    // Erasing the last standing too anonymises the person.
    const inOther = await app.signedIn(clientUser.email, TEST_PASSWORD, other.id);
    expect((await inOther.delete(accountPath(other.id), { password: TEST_PASSWORD })).status).toBe(204);
    expect((await app.knex('users').where({ id: clientUser.id }).first())?.email).toBe(
      erasedEmail(clientUser.id),
    );
    expect((await otherDevice.get('/api/v4/auth/me')).status).toBe(401);
  });

  it('counts password guesses against the sign-in budget of the address', async () => {
    const limited = await startTestApp({
      shareDatabaseWith: app,
      rateLimits: { loginPerEmail: { points: 3, durationSeconds: 300 } },
    });
    try {
      const { studio, client: clientUser } = await createStudioScenario(limited.knex);
      const client = await limited.signedIn(clientUser.email, TEST_PASSWORD, studio.id);
      for (let i = 0; i < 2; i++) {
        expect((await client.delete(accountPath(studio.id), { password: `guess ${i}` })).status).toBe(400);
      }
      const res = await client.delete(accountPath(studio.id), { password: TEST_PASSWORD });
      expect(res.status).toBe(429);
      const membership = await membershipIn(limited.knex, studio.id, clientUser.id);
      expect(membership?.archivedAt).toBeNull();
    } finally {
      await limited.close();
    }
  });
});
