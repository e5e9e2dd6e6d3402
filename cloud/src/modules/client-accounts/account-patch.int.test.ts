import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { seedDemoAgreements } from './demo-agreements';

/**
 * Front office `GET`/`PATCH account` (issue 25): the client changes any part of their own account in
 * one call, including their answer to the studio's marketing consent (kept as a new acceptance row).
 */
const NOW = new Date('2026-11-27T10:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });
const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;

async function scenario(withAgreements = true) {
  const s = await createStudioScenario(app.knex);
  if (withAgreements) await seedDemoAgreements(app.knex, s.studio.id, NOW);
  const owner = await app.signedIn(s.manager.email, s.manager.password);
  const client = await app.signedIn(s.client.email, s.client.password);
  return { ...s, owner, clientApi: client };
}

describe('PATCH account', () => {
  it('401 signed out, 403 staff without a client standing, 404 unknown or another studio', async () => {
    const { studio, owner } = await scenario();
    const anon = await app.anonymous();
    const body = { firstName: 'Ala' };
    expect((await anon.patch(api(studio, 'account'), body)).status).toBe(401);
    expect((await anon.get(api(studio, 'account'))).status).toBe(401);
    expect((await owner.patch(api(studio, 'account'), body)).status).toBe(403);
    expect((await owner.get(api(studio, 'account'))).status).toBe(403);
    expect((await owner.patch(api({ id: uuidv7() }, 'account'), body)).status).toBe(404);
    await expectHiddenFromOtherStudio(app, { method: 'PATCH', path: api(studio, 'account'), body });
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: api(studio, 'account') });
  });

  it('400 with every bad field at once, and for an empty change; nothing written', async () => {
    const { studio, clientApi, client } = await scenario();
    const bad = await clientApi.patch(api(studio, 'account'), {
      firstName: '',
      phone: 'call me',
      locale: 'de',
      notifications: { fax: true },
      marketingConsent: 'yes',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(
      expect.arrayContaining(['firstName', 'phone', 'locale', 'notifications.fax', 'marketingConsent']),
    );
    expect((await clientApi.patch(api(studio, 'account'), {})).status).toBe(400);
    const future = await clientApi.patch(api(studio, 'account'), { birthDate: '2030-01-01' });
    expect(future.status).toBe(400);
    expect(future.body.error.fields.birthDate).toBeTruthy();
    const user = await app.knex('users').where({ id: client.id }).first();
    expect(user!.firstName).toBe(client.firstName);
  });

  it('changes only what it names: name and phone, language (cookie), one channel, marketing consent', async () => {
    const { studio, clientApi, client } = await scenario();
    const before = await clientApi.get(api(studio, 'account'));
    expect(before.status).toBe(200);
    expect(before.body.marketingConsent).toMatchObject({ accepted: false, decidedAt: null });
    expect(before.body.marketingConsent.agreement).toMatchObject({ version: 1 });

    const res = await clientApi.patch(api(studio, 'account'), {
      lastName: 'Nowakowska',
      phone: '+48 600 100 200',
      locale: 'pl',
      notifications: { sms: true },
      marketingConsent: true,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.profile).toMatchObject({
      firstName: client.firstName,
      lastName: 'Nowakowska',
      phone: '+48 600 100 200',
    });
    expect(res.body.settings).toEqual({
      locale: 'pl',
      notifications: { email: true, sms: true, push: true },
    });
    expect(res.body.marketingConsent).toMatchObject({ accepted: true, decidedAt: NOW.toISOString() });
    // The agreement's text in the language just chosen.
    expect(res.body.marketingConsent.agreement.title).toBe('Nowości i oferty e-mailem');
    expect(res.headers.getSetCookie().join(';')).toMatch(/locale=pl/);

    // The same answer again adds no row; withdrawing adds one (the record is never rewritten).
    expect((await clientApi.patch(api(studio, 'account'), { marketingConsent: true })).status).toBe(200);
    clock.set(new Date(NOW.getTime() + 60_000));
    const off = await clientApi.patch(api(studio, 'account'), { marketingConsent: false });
    expect(off.body.marketingConsent.accepted).toBe(false);
    const rows = await app
      .knex('client_agreement_acceptances')
      .where({ studioId: studio.id, userId: client.id, kind: 'marketing' })
      .orderBy('decidedAt');
    expect(rows.map((r) => r.accepted)).toEqual([true, false]);
    // The studio's client record follows the name (the clients module's trigger).
    const record = await app.knex('clients').where({ studioId: studio.id, userId: client.id }).first();
    expect(record!.lastName).toBe('Nowakowska');
  });

  it('400 on a marketing answer when the studio asks for no marketing consent', async () => {
    const { studio, clientApi } = await scenario(false);
    const res = await clientApi.patch(api(studio, 'account'), { marketingConsent: true });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.marketingConsent).toBeTruthy();
    expect((await clientApi.get(api(studio, 'account'))).body.marketingConsent.agreement).toBeNull();
  });
});
