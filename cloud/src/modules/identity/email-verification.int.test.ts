import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { createStudioScenario } from '../../../../tests/support/factories';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { seedDemoAgreements } from '../client-accounts/demo-agreements';

/**
 * Account pre-hijacking (issue 28, defect 1): someone signs up with another person's address; a
 * studio later adds that person as a client. The account must prove its address before it is linked
 * to what the studio holds, and before it sees any of it.
 */
let app: TestApp;
const NOW = new Date('2026-11-22T10:00:00Z');

beforeAll(async () => {
  app = await startTestApp({ clock: new ManualClock(NOW) });
});
afterAll(async () => app?.close());

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const PASSWORD = 'attacker password 1';

async function studioWithAgreements() {
  const s = await createStudioScenario(app.knex);
  await seedDemoAgreements(app.knex, s.studio.id, NOW);
  const owner = await app.signedIn(s.manager.email, s.manager.password);
  return { ...s, owner };
}

async function signUp(studio: { id: string }, email: string, password = PASSWORD) {
  const browser = await app.anonymous();
  const res = await browser.post(api(studio, 'signup'), {
    emailAddress: email,
    password,
    firstName: 'Not',
    lastName: 'Victim',
    agreements: { terms: true, privacy: true },
  });
  expect(res.status, res.text).toBe(201);
  return { browser, res };
}

const linkIn = async (to: string, path: string) => {
  await app.drainJobs();
  const mail = app.mail.findLast((m) => m.to === to && m.text.includes(path));
  expect(mail, `a mail to ${to} with ${path}`).toBeTruthy();
  return decodeURIComponent(/token=(\S+)/.exec(mail!.text)![1]!);
};

describe('how accounts and studio clients link', () => {
  it('an account that never proved its address does not take over the client a studio adds', async () => {
    const x = await studioWithAgreements();
    const y = await studioWithAgreements();
    const victim = `victim-${uuidv7().slice(-8)}@example.com`;
    // The attacker signs up at studio X with the victim's address: signed in, but not proved.
    const { browser: attacker, res } = await signUp(x.studio, victim);
    expect(res.body.me.emailVerified).toBe(false);
    expect(await linkIn(victim, '/verify-email?token=')).toBeTruthy();

    // Studio Y adds the victim as a client, with a note and a pass later on.
    const added = await y.owner.post(api(y.studio, 'client'), {
      firstName: 'Real',
      lastName: 'Victim',
      emailAddress: victim,
      note: 'allergic to latex',
    });
    expect(added.status, added.text).toBe(201);
    const victimId = added.body.client.id as string;

    // The attacker's password opens nothing any more: not Y, not even X; the open session is over.
    expect((await attacker.get('/api/v4/auth/me')).status).toBe(401);
    expect((await (await app.anonymous()).signIn(victim, PASSWORD, y.studio.id)).status).toBe(401);
    expect((await (await app.anonymous()).signIn(victim, PASSWORD)).status).toBe(401);
    // Signing up again with the address is refused (it has an account: "forgot password").
    const again = await (
      await app.anonymous()
    ).post(api(y.studio, 'signup'), {
      emailAddress: victim,
      password: PASSWORD,
      firstName: 'Not',
      lastName: 'Victim',
      agreements: { terms: true, privacy: true },
    });
    expect(again.status).toBe(409);

    // The owner of the mailbox gets in through "forgot password" at Y, which proves the address.
    await (await app.anonymous()).post(api(y.studio, 'account/recovery'), { emailAddress: victim });
    const token = await linkIn(victim, '/reset-password?token=');
    const reset = await (
      await app.anonymous()
    ).post(api(y.studio, 'account/reset'), { token, password: 'the real owner 1' });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.userId).toBe(victimId);
    expect(reset.body.me.emailVerified).toBe(true);
    expect(reset.body.me.memberships.map((m: { studioUuid: string }) => m.studioUuid)).toContain(y.studio.id);
  });

  it('the confirmation link proves the address: then a studio links the account and the password stays', async () => {
    const x = await studioWithAgreements();
    const y = await studioWithAgreements();
    const person = `person-${uuidv7().slice(-8)}@example.com`;
    const { browser } = await signUp(x.studio, person, 'my own password 1');
    const token = await linkIn(person, '/verify-email?token=');
    const confirmed = await (await app.anonymous()).post(api(x.studio, 'account/verify-email'), { token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toEqual({ verified: true });
    expect((await browser.get('/api/v4/auth/me')).body.emailVerified).toBe(true);
    // Single use; another studio's link path does not take it either.
    const reused = await (await app.anonymous()).post(api(x.studio, 'account/verify-email'), { token });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatchObject({ code: 2561, key: 'auth.emailVerificationInvalid' });

    const added = await y.owner.post(api(y.studio, 'client'), {
      firstName: 'Linked',
      lastName: 'Person',
      emailAddress: person,
    });
    expect(added.status).toBe(201);
    expect(added.body.linkedExistingAccount).toBe(true);
    expect((await browser.get('/api/v4/auth/me')).status).toBe(200);
    const signIn = await (await app.anonymous()).signIn(person, 'my own password 1', y.studio.id);
    expect(signIn.status).toBe(200);
  });

  it('a link sent for an old address, a wrong token, an unknown studio: refused', async () => {
    const x = await studioWithAgreements();
    const person = `moved-${uuidv7().slice(-8)}@example.com`;
    const { res } = await signUp(x.studio, person);
    const token = await linkIn(person, '/verify-email?token=');
    await app
      .knex('users')
      .update({ email: `new-${person}` })
      .where({ id: res.body.userId });
    const anon = await app.anonymous();
    expect((await anon.post(api(x.studio, 'account/verify-email'), { token })).status).toBe(400);
    expect((await anon.post(api(x.studio, 'account/verify-email'), { token: 'nope' })).status).toBe(400);
    expect((await anon.post(api(x.studio, 'account/verify-email'), {})).status).toBe(400);
    expect(
      (await anon.post('/api/v4/01900000-0000-7000-8000-000000000000/account/verify-email', { token }))
        .status,
    ).toBe(404);
    expect((await app.knex('users').where({ id: res.body.userId }).first())?.emailVerifiedAt).toBeNull();
  });

  it('a signed-in client asks for a new confirmation link; 401 signed out', async () => {
    const x = await studioWithAgreements();
    const person = `resend-${uuidv7().slice(-8)}@example.com`;
    await signUp(x.studio, person);
    const browser = await app.signedIn(person, PASSWORD, x.studio.id);
    await app.drainJobs();
    const before = app.mail.filter((m) => m.to === person).length;
    const sent = await browser.post(api(x.studio, 'account/verify-email/send'));
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ sent: true, verified: false });
    await app.drainJobs();
    expect(app.mail.filter((m) => m.to === person).length).toBe(before + 1);
    expect((await (await app.anonymous()).post(api(x.studio, 'account/verify-email/send'))).status).toBe(401);
  });

  it('staff adding a member with an unproved address: the account loses its password and gets the invitation', async () => {
    const x = await studioWithAgreements();
    const y = await studioWithAgreements();
    const target = `staff-${uuidv7().slice(-8)}@example.com`;
    const { browser: attacker } = await signUp(x.studio, target);
    const roles = await y.owner.get(api(y.studio, 'studio-iam-role/all'));
    const role = (roles.body.items as Array<{ uuid: string; key: string | null }>).find(
      (r) => r.key === 'front_desk',
    );
    const added = await y.owner.post(api(y.studio, 'member'), {
      emailAddress: target,
      firstName: 'Front',
      lastName: 'Desk',
      studioIamRole: role?.uuid,
    });
    expect(added.status, added.text).toBe(201);
    expect((await attacker.get('/api/v4/auth/me')).status).toBe(401);
    expect((await (await app.anonymous()).signIn(target, PASSWORD, y.studio.id)).status).toBe(401);
    // The invitation (a set-password link) goes to the mailbox.
    expect(await linkIn(target, '/reset-password?token=')).toBeTruthy();
  });
});
