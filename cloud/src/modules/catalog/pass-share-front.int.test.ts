import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { addMembership, createUser } from '../../../../tests/support/factories';
import { studioSessions } from '../../../../tests/support/sessions';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { api, createOption, lt } from './catalog-fixtures';

/**
 * Issue 25, front office `POST passes/{clientPricingOption}/share`: a client shares their own pass
 * with a linked account (and withdraws it); someone else's pass, another studio's, a stranger and an
 * unshareable pass are refused.
 */
const app = useTestApp({ clock: new ManualClock(new Date('2026-11-22T12:00:00Z')) });
const { ownerStudio, staffWithRole } = studioSessions(() => app);

describe('front office: a client shares a pass with a linked account', () => {
  it('shares, shows it to the partner, withdraws; refuses what it must', async () => {
    const { studio, owner, client } = await ownerStudio();
    const other = await ownerStudio();
    const family = await createOption(owner, studio, { shareable: true, name: lt('Family pass') });
    const solo = await createOption(owner, studio, { shareable: false, name: lt('Solo pass') });
    const sell = async (optionId: string, userId = client.id) =>
      (await owner.post(`/api/v2/${studio.id}/clients/${userId}/client-pricing-options/${optionId}`, {})).body
        .id as string;
    const pass = await sell(family.id);
    const soloPass = await sell(solo.id);
    const partner = await createUser(app.knex, { firstName: 'Ola', lastName: 'Partner' });
    const stranger = await createUser(app.knex, { firstName: 'Obcy', lastName: 'Stranger' });
    for (const person of [partner, stranger])
      await addMembership(app.knex, studio, person, { isClient: true });
    await app.knex('user_account_links').insert({
      id: uuidv7(),
      userId: partner.id,
      linkedUserId: client.id,
      relationship: 'spouse',
    });
    const partnerPass = await sell(family.id, partner.id);

    const me = await app.signedIn(client.email, client.password);
    const share = (path: string, body: unknown, who = me) => who.post(api(studio, path), body);
    const anonymous = await app.anonymous();
    expect((await share(`passes/${pass}/share`, { userId: partner.id }, anonymous)).status).toBe(401);
    expect((await share(`passes/${pass}/share`, { userId: 'x', extra: 1 })).status).toBe(400);
    // Staff who are no clients here have no client zone (403); another studio's client: not found.
    const desk = await staffWithRole(studio, 'front_desk');
    expect((await share(`passes/${pass}/share`, { userId: partner.id }, desk)).status).toBe(403);
    const otherClient = await app.signedIn(other.client.email, other.client.password);
    expect((await share(`passes/${pass}/share`, { userId: partner.id }, otherClient)).status).toBe(404);
    expect(
      (await otherClient.post(api(other.studio, `passes/${pass}/share`), { userId: partner.id })).status,
    ).toBe(404);
    // Someone else's pass (even a linked account's) is not mine to share.
    expect((await share(`passes/${partnerPass}/share`, { userId: client.id })).status).toBe(404);
    const notLinked = await share(`passes/${pass}/share`, { userId: stranger.id });
    expect(notLinked.status).toBe(400);
    expect(notLinked.body.error.fields.userId).toEqual([
      'not a linked account of the pass owner in this studio',
    ]);
    expect((await share(`passes/${soloPass}/share`, { userId: partner.id })).status).toBe(409);

    const shared = await share(`passes/${pass}/share`, { userId: partner.id });
    expect(shared.status, shared.text).toBe(200);
    expect(shared.body.sharedWith).toEqual([{ userId: partner.id, firstName: 'Ola', lastName: 'Partner' }]);
    const partnerClient = await app.signedIn(partner.email, partner.password);
    const theirs = await partnerClient.post(api(studio, 'passes'), {});
    expect(theirs.body.sharedWithMe.map((p: { id: string }) => p.id)).toEqual([pass]);

    const withdrawn = await share(`passes/${pass}/share`, { userId: partner.id, shared: false });
    expect(withdrawn.body.sharedWith).toEqual([]);
    expect((await partnerClient.post(api(studio, 'passes'), {})).body.sharedWithMe).toEqual([]);
  });
});
