import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import type { RecordType } from '../../../../shared/contracts/api/studio-setup';
import { addMembership, createUser } from '../../../../tests/support/factories';
import { studioSessions } from '../../../../tests/support/sessions';
import { useTestApp } from '../../../../tests/support/test-app';
import { DEMO, seedDemoStudio } from '../../db/seed/demo';
import { createLogger } from '../../logger';
import { OPEN_BY_ID_TYPES } from './open-by-id.service';

/**
 * Issue 25: the studio's first-run setup (GET/PATCH configure) and "open by id" (POST uuid): each
 * route's 401/400/403/404 and another studio's staff, the checklist following the studio's own data,
 * every kind of record found by its id in the demo studio, and nothing of one studio found from
 * another.
 */
const app = useTestApp();
const { ownerStudio, staffWithRole } = studioSessions(() => app);
const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const RUN = Date.now().toString(36);

type Step = { key: string; done: boolean; path: string };
const doneSteps = (body: { setup: { steps: Step[] } }) =>
  body.setup.steps.filter((step) => step.done).map((step) => step.key);

describe('first-run setup (configure)', () => {
  it('lists the steps from the studio data, saves the first step in one call, and is dismissed', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const anonymous = await app.anonymous();

    const fresh = await owner.get(api(studio, 'configure'));
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.setup).toMatchObject({ dismissedAt: null, complete: false });
    expect(fresh.body.setup.steps.map((step: Step) => [step.key, step.path])).toEqual([
      ['profile', '/settings/studio'],
      ['location', '/places/locations'],
      ['classes', '/schedule'],
      ['pricing', '/catalog'],
      ['payments', '/settings/payment-providers'],
      ['team', '/staff'],
    ]);
    // A factory studio has an address but no legal name, no places, classes, passes or team.
    expect(doneSteps(fresh.body)).toEqual([]);
    expect(fresh.body.values).toMatchObject({
      studioType: 'yoga',
      timeZone: 'Europe/Warsaw',
      currency: 'PLN',
      defaultLanguage: 'pl',
      location: null,
      room: null,
    });

    const desk = await staffWithRole(studio, 'front_desk');
    // 401, 403 (front desk holds neither settings ability), 404 for another studio's staff.
    expect((await anonymous.get(api(studio, 'configure'))).status).toBe(401);
    expect((await anonymous.patch(api(studio, 'configure'), { dismissed: true })).status).toBe(401);
    expect((await desk.get(api(studio, 'configure'))).status).toBe(403);
    expect((await desk.patch(api(studio, 'configure'), { dismissed: true })).status).toBe(403);
    expect((await other.owner.get(api(studio, 'configure'))).status).toBe(404);
    expect((await other.owner.patch(api(studio, 'configure'), { dismissed: true })).status).toBe(404);

    // 400 with every field's error; an empty body says what is missing.
    const empty = await owner.patch(api(studio, 'configure'), {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toHaveProperty('');
    const bad = await owner.patch(api(studio, 'configure'), {
      studioType: 'sauna',
      timeZone: 'Mars/Olympus',
      currency: 'XXX',
      defaultLanguage: 'de',
      location: { name: '' },
      room: { name: 'Sala', capacity: 0 },
      dismissed: 'yes',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual([
      'currency',
      'defaultLanguage',
      'dismissed',
      'location.name',
      'room.capacity',
      'studioType',
      'timeZone',
    ]);
    // A room needs a location to be in.
    const roomAlone = await owner.patch(api(studio, 'configure'), { room: { name: 'Sala', capacity: 10 } });
    expect(roomAlone.status).toBe(400);
    expect(roomAlone.body.error.fields).toHaveProperty('room');
    // Nothing of a refused request stays (one transaction).
    const atomic = await owner.patch(api(studio, 'configure'), {
      currency: 'EUR',
      room: { name: 'Sala', capacity: 10 },
    });
    expect(atomic.status).toBe(400);
    expect((await owner.get(api(studio, 'configure'))).body.values.currency).toBe('PLN');

    const saved = await owner.patch(api(studio, 'configure'), {
      studioType: 'pilates',
      timeZone: 'Europe/Berlin',
      currency: 'EUR',
      defaultLanguage: 'en',
      location: { name: 'Mitte', addressLine: 'Torstraße 1', postalCode: '10119', city: 'Berlin' },
      room: { name: 'Saal 1', capacity: 14 },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.values).toMatchObject({
      studioType: 'pilates',
      timeZone: 'Europe/Berlin',
      currency: 'EUR',
      defaultLanguage: 'en',
      location: { name: 'Mitte', addressLine: 'Torstraße 1', postalCode: '10119', city: 'Berlin' },
      room: { name: 'Saal 1', capacity: 14 },
    });
    expect(doneSteps(saved.body)).toEqual(['location', 'team']);
    // The places screens see the same location and room.
    const places = await owner.get(api(studio, 'location/all'));
    expect(JSON.stringify(places.body)).toContain('Saal 1');

    // Saving again changes the first location and room instead of adding more.
    const again = await owner.patch(api(studio, 'configure'), {
      location: { name: 'Mitte', city: 'Berlin' },
      room: { name: 'Saal A', capacity: 20 },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.values.room).toMatchObject({
      id: saved.body.values.room.id,
      name: 'Saal A',
      capacity: 20,
    });
    expect(again.body.values.location.id).toBe(saved.body.values.location.id);
    expect(await app.knex('locations').where({ studioId: studio.id }).count('id as n')).toEqual([{ n: 1 }]);

    // Steps done on their own screens tick: the profile, a colleague, a decision about payments.
    await owner.patch(api(studio, 'studio'), { legalName: 'Pilates Mitte GmbH' });
    // (The front-desk colleague above is the team.)
    const decided = await owner.patch(api(studio, 'payment-provider/test'), { enabled: false });
    expect(decided.status, decided.text).toBe(200);
    const later = await owner.get(api(studio, 'configure'));
    expect(doneSteps(later.body)).toEqual(['profile', 'location', 'payments', 'team']);

    // Dismissed: stored with the time, and undone.
    const dismissed = await owner.patch(api(studio, 'configure'), { dismissed: true });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.setup.dismissedAt).toEqual(expect.any(String));
    expect((await owner.get(api(studio, 'configure'))).body.setup.dismissedAt).toBe(
      dismissed.body.setup.dismissedAt,
    );
    const shown = await owner.patch(api(studio, 'configure'), { dismissed: false });
    expect(shown.body.setup.dismissedAt).toBeNull();
    // Another studio's setup is untouched by all this.
    const untouched = await other.owner.get(api(other.studio, 'configure'));
    expect(untouched.body.values).toMatchObject({ currency: 'PLN', location: null });
  });
});

describe('payments at the desk only (configure)', () => {
  it('is a choice that ticks the payments step and switches online payments off, until a provider is switched on', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const desk = await staffWithRole(studio, 'front_desk');
    const paymentsDone = async () =>
      (await owner.get(api(studio, 'configure'))).body.setup.steps.find(
        (step: Step) => step.key === 'payments',
      ).done as boolean;
    const onlineProviders = async () =>
      (
        (await owner.get(api(studio, 'payment-provider/all'))).body.items as {
          provider: string;
          enabled: boolean;
        }[]
      )
        .filter((provider) => provider.enabled)
        .map((provider) => provider.provider);

    // A new studio has decided nothing; outside production the test provider is on by default.
    expect(await paymentsDone()).toBe(false);
    expect((await owner.get(api(studio, 'configure'))).body.values.paymentsAtDeskOnly).toBe(false);
    expect(await onlineProviders()).toEqual(['test']);

    // Bad input is 400 on the field; the front desk may not choose; another studio's staff get 404.
    for (const bad of ['yes', null, 1]) {
      const refused = await owner.patch(api(studio, 'configure'), { paymentsAtDeskOnly: bad });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(Object.keys(refused.body.error.fields)).toEqual(['paymentsAtDeskOnly']);
    }
    expect((await desk.patch(api(studio, 'configure'), { paymentsAtDeskOnly: true })).status).toBe(403);
    expect((await other.owner.patch(api(studio, 'configure'), { paymentsAtDeskOnly: true })).status).toBe(
      404,
    );
    expect(await paymentsDone()).toBe(false);
    expect(await onlineProviders()).toEqual(['test']);

    // Chosen: the step is done and no client is offered an online payment any more.
    const chosen = await owner.patch(api(studio, 'configure'), { paymentsAtDeskOnly: true });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.body.values.paymentsAtDeskOnly).toBe(true);
    expect(doneSteps(chosen.body)).toEqual(['payments', 'team']);
    expect(await onlineProviders()).toEqual([]);
    const settings = (await app.knex('studios').where({ id: studio.id }).first('settings')) as {
      settings: { payments?: { atDeskOnly?: boolean } };
    };
    expect(settings.settings.payments?.atDeskOnly).toBe(true);
    // The other studio's choice is its own.
    const untouched = await other.owner.get(api(other.studio, 'configure'));
    expect(untouched.body.values.paymentsAtDeskOnly).toBe(false);
    expect(doneSteps(untouched.body)).not.toContain('payments');

    // Switching an online provider on later works, and supersedes the choice; the step stays done.
    const online = await owner.patch(api(studio, 'payment-provider/test'), { enabled: true });
    expect(online.status, online.text).toBe(200);
    expect(await onlineProviders()).toEqual(['test']);
    const later = await owner.get(api(studio, 'configure'));
    expect(later.body.values.paymentsAtDeskOnly).toBe(false);
    expect(await paymentsDone()).toBe(true);

    // Choosing it again switches the provider off again; withdrawing it leaves the providers alone.
    await owner.patch(api(studio, 'configure'), { paymentsAtDeskOnly: true });
    expect(await onlineProviders()).toEqual([]);
    const withdrawn = await owner.patch(api(studio, 'configure'), { paymentsAtDeskOnly: false });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.values.paymentsAtDeskOnly).toBe(false);
    expect(await onlineProviders()).toEqual([]);
  });
});

describe('open by id (POST uuid)', () => {
  it('guards the route and refuses what is not an id', async () => {
    const { studio, owner, client } = await ownerStudio();
    const anonymous = await app.anonymous();
    const asClient = await app.signedIn(client.email, client.password);
    const body = { uuid: uuidv7() };
    expect((await anonymous.post(api(studio, 'uuid'), body)).status).toBe(401);
    expect((await asClient.post(api(studio, 'uuid'), body)).status).toBe(403);
    for (const bad of [{}, { uuid: 'not-an-id' }, { uuid: 42 }, { uuid: body.uuid, extra: 1 }]) {
      const answer = await owner.post(api(studio, 'uuid'), bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
    }
    const refused = await owner.post(api(studio, 'uuid'), { uuid: 'not-an-id' });
    expect(refused.body.error.fields).toEqual({ uuid: [expect.any(String)] });
    // Unknown: the generic not-found.
    const unknown = await owner.post(api(studio, 'uuid'), body);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.key).toBe('resource.notFound');
    // A client of this studio found by their user id; the studio's own owner as staff.
    const found = await owner.post(api(studio, 'uuid'), { uuid: client.id });
    expect(found.status, found.text).toBe(200);
    expect(found.body).toEqual({
      type: 'client',
      id: client.id,
      label: 'Kamil Client',
      path: `/clients/${client.id}`,
    });
  });

  it('finds every kind of record of the demo studio and opens nothing of it from another studio', async () => {
    const demo = await seedDemoStudio(app.knex, createLogger('silent', false), new Date(), {
      tag: `uuid${RUN}`,
    });
    const manager = await app.signedIn(demo!.managerEmail, DEMO.password);
    const studio = { id: demo!.studioUuid };
    const other = await ownerStudio();

    // The demo studio is fully set up: its dashboard shows no setup card.
    const setup = await manager.get(api(studio, 'configure'));
    expect(setup.status).toBe(200);
    expect(setup.body.setup.steps.filter((step: Step) => !step.done)).toEqual([]);
    expect(setup.body.setup.complete).toBe(true);

    const TABLES: Record<RecordType, [string, string?]> = {
      client: ['clients', 'user_id'],
      staffMember: ['memberships', 'user_id'],
      order: ['client_orders'],
      payment: ['client_order_payments'],
      visit: ['client_visits'],
      class: ['schedule_events'],
      classSeries: ['schedule_metas'],
      classService: ['class_services'],
      location: ['locations'],
      room: ['location_rooms'],
      pricingOption: ['pricing_options'],
      clientPass: ['client_pricing_options'],
      contract: ['contracts'],
      clientContract: ['client_contracts'],
      invoice: ['invoices'],
      product: ['products'],
      voucher: ['vouchers'],
      appointment: ['client_appointments'],
      appointmentService: ['appointment_services'],
      campaign: ['campaigns'],
      webhook: ['webhook_endpoints'],
    };
    expect([...OPEN_BY_ID_TYPES].sort()).toEqual(Object.keys(TABLES).sort());
    // The demo's timetable is single classes: add a weekly series to look up.
    const service = (await app.knex('class_services').where({ studioId: studio.id }).first('id')) as {
      id: string;
    };
    const place = (await app.knex('locations').where({ studioId: studio.id }).first('id')) as { id: string };
    await app.knex('schedule_metas').insert({
      id: uuidv7(),
      studioId: studio.id,
      classServiceId: service.id,
      locationId: place.id,
      daysOfWeek: [1],
      startTime: '18:00',
      durationMinutes: 60,
      firstDate: '2026-12-07',
      capacity: 12,
    });
    for (const type of OPEN_BY_ID_TYPES) {
      const [table, column = 'id'] = TABLES[type];
      const query = app.knex(table).where({ studioId: studio.id });
      if (type === 'staffMember') query.where({ isMember: true, isClient: false });
      const row = (await query.orderBy(column).first(column)) as Record<string, string> | undefined;
      expect(row, `the demo has a ${type}`).toBeDefined();
      const id = Object.values(row!)[0]!;
      const found = await manager.post(api(studio, 'uuid'), { uuid: id });
      expect(found.status, `${type}: ${found.text}`).toBe(200);
      expect(found.body).toMatchObject({ type, id });
      expect(found.body.label, type).not.toBe('');
      expect(found.body.path, type).toMatch(/^\//);
      // Another studio's staff asking in their own studio: not found, as for an unknown id.
      const elsewhere = await other.owner.post(api(other.studio, 'uuid'), { uuid: id });
      expect(elsewhere.status, type).toBe(404);
      expect(elsewhere.body.error.key).toBe('resource.notFound');
      // …and in the demo studio itself: not a member there.
      expect((await other.owner.post(api(studio, 'uuid'), { uuid: id })).status).toBe(404);
    }

    // A role sees only the kinds its sections show: an instructor finds a class, not an order.
    const instructor = await createUser(app.knex);
    await addMembership(app.knex, studio, instructor, { isMember: true, role: 'instructor' });
    const asInstructor = await app.signedIn(instructor.email, instructor.password);
    const order = (await app.knex('client_orders').where({ studioId: studio.id }).first('id')) as {
      id: string;
    };
    const event = (await app.knex('schedule_events').where({ studioId: studio.id }).first('id')) as {
      id: string;
    };
    expect((await asInstructor.post(api(studio, 'uuid'), { uuid: order.id })).status).toBe(404);
    const classFound = await asInstructor.post(api(studio, 'uuid'), { uuid: event.id });
    expect(classFound.body).toMatchObject({
      type: 'class',
      path: expect.stringMatching(/^\/schedule\?date=\d{4}-\d{2}-\d{2}&event=/),
    });
  }, 120_000);
});
