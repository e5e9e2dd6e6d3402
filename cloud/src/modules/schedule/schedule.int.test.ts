import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';
import type { Studio } from '../identity/rows';

let app: TestApp;
// A Friday before Warsaw's spring-forward Sunday (29 March 2026).
const NOW = new Date('2026-03-20T10:00:00Z');
const clock = new ManualClock(NOW);

beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(async () => app?.close());

const v4 = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const v2 = (studio: { id: string }, path: string) => `/api/v2/${studio.id}/${path}`;
const unique = () => uuidv7().slice(-8);

interface Place {
  locationId: string;
  roomId: string;
  otherLocationId: string;
  serviceId: string;
  pricingOptionId: string;
  tagId: string;
  instructorId: string;
}

/** A studio with its owner signed in, two locations (one with a room), a class service, a pass, a tag, an instructor. */
async function ownerStudio(secret = 'Room') {
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  const s = scenario.studio.id;
  const place: Place = {
    locationId: uuidv7(),
    roomId: uuidv7(),
    otherLocationId: uuidv7(),
    serviceId: uuidv7(),
    pricingOptionId: uuidv7(),
    tagId: uuidv7(),
    instructorId: '',
  };
  await app.knex('locations').insert([
    { id: place.locationId, studioId: s, name: `Mokotów ${secret}` },
    { id: place.otherLocationId, studioId: s, name: 'Śródmieście' },
  ]);
  await app.knex('location_rooms').insert({
    id: place.roomId,
    studioId: s,
    locationId: place.locationId,
    name: `${secret} Sun`,
    capacity: 20,
  });
  await app.knex('class_services').insert({
    id: place.serviceId,
    studioId: s,
    name: JSON.stringify({ en: { value: 'Vinyasa' }, pl: { value: 'Joga Vinyasa' } }),
    durationMinutes: 60,
  });
  await app.knex('pricing_options').insert({
    id: place.pricingOptionId,
    studioId: s,
    name: JSON.stringify({ en: { value: '4 entries' } }),
    price: 16000,
  });
  await app.knex('tags').insert({ id: place.tagId, studioId: s, name: `Tag ${unique()}`, type: 0 });
  const instructor = await createUser(app.knex, { firstName: 'Ola', lastName: 'Teacher' });
  await addMembership(app.knex, scenario.studio, instructor, { isMember: true, role: 'instructor' });
  place.instructorId = instructor.id;
  return { ...scenario, owner, place };
}

const { staffWithRole } = studioSessions(() => app);

const metaBody = (place: Place, over: Record<string, unknown> = {}) => ({
  locationId: place.locationId,
  roomId: place.roomId,
  instructorIds: [place.instructorId],
  daysOfWeek: [7],
  startTime: '18:00',
  durationMinutes: 60,
  firstDate: '2026-03-21',
  lastDate: '2026-05-31',
  capacity: 12,
  waitingListSize: 5,
  ...over,
});

async function call(client: HttpClient, method: string, url: string, body?: unknown, status = 200) {
  const res = await client.request(method as 'GET', url, body);
  expect(res.status, `${method} ${url}: ${res.text}`).toBe(status);
  return res.body;
}

// ------------------------------------------------------------------------------------ route table

interface Fixture {
  studio: Studio;
  place: Place;
  metaId: string;
  eventId: string;
  levelId: string;
}
type RouteCase = {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  deniedRole: string;
  /** Names the first studio's ids: the other studio's manager gets 404 for them in its own studio too. */
  foreign?: (f: Fixture, other: Studio) => string;
  bad?: { url?: (f: Fixture) => string; body?: unknown; fields: string[] };
};

const ACTIONS = ['show', 'hide', 'cancel', 'restore', 'remove', 'bookable-online', 'unbookable-online'];
const ROUTES: RouteCase[] = [
  {
    name: 'location collection',
    method: 'GET',
    url: (f) => v4(f.studio, 'location/collection'),
    deniedRole: 'accountant',
  },
  {
    name: 'location picture',
    method: 'POST',
    url: (f) => v4(f.studio, `location/${f.place.locationId}/picture`),
    body: () => ({ pictureUrl: 'https://cdn.example.com/a.jpg' }),
    deniedRole: 'front_desk',
    foreign: (f, o) => v4(o, `location/${f.place.locationId}/picture`),
    bad: { body: { pictureUrl: 'javascript:alert(1)' }, fields: ['pictureUrl'] },
  },
  {
    name: 'location rooms',
    method: 'GET',
    url: (f) => v4(f.studio, `location/${f.place.locationId}/location-room/collection`),
    deniedRole: 'accountant',
    foreign: (f, o) => v4(o, `location/${f.place.locationId}/location-room/collection`),
  },
  {
    name: 'location-room init',
    method: 'GET',
    url: (f) => v4(f.studio, 'location-room/init'),
    deniedRole: 'accountant',
  },
  {
    name: 'class-service collection',
    method: 'GET',
    url: (f) => v4(f.studio, 'class-service/collection'),
    deniedRole: 'accountant',
    bad: {
      url: (f) => v4(f.studio, 'class-service/collection?serviceType=yoga'),
      fields: ['query.serviceType'],
    },
  },
  {
    name: 'class-service detail',
    method: 'GET',
    url: (f) => v4(f.studio, `class-service/${f.place.serviceId}`),
    deniedRole: 'accountant',
    foreign: (f, o) => v4(o, `class-service/${f.place.serviceId}`),
  },
  {
    name: 'class-service-category collection',
    method: 'GET',
    url: (f) => v4(f.studio, 'class-service-category/collection'),
    deniedRole: 'accountant',
  },
  {
    name: 'experience-level collection',
    method: 'GET',
    url: (f) => v4(f.studio, 'experience-level/collection?serviceType=classroom'),
    deniedRole: 'accountant',
    bad: {
      url: (f) => v4(f.studio, 'experience-level/collection?serviceType=x&y=1'),
      fields: ['query.serviceType', 'query.y'],
    },
  },
  {
    name: 'experience-level create',
    method: 'POST',
    url: (f) => v2(f.studio, 'experience-levels'),
    body: () => ({ serviceType: 'classroom', name: `Level ${unique()}` }),
    deniedRole: 'front_desk',
    bad: {
      body: { serviceType: 'gym', name: ' ', position: -1 },
      fields: ['name', 'position', 'serviceType'],
    },
  },
  {
    name: 'experience-level edit',
    method: 'PATCH',
    url: (f) => v2(f.studio, `experience-levels/${f.levelId}`),
    body: () => ({ position: 3 }),
    deniedRole: 'front_desk',
    foreign: (f, o) => v2(o, `experience-levels/${f.levelId}`),
    bad: { body: { name: '', position: 'first' }, fields: ['name', 'position'] },
  },
  {
    name: 'schedule init',
    method: 'GET',
    url: (f) => v4(f.studio, 'schedule/init'),
    deniedRole: 'accountant',
  },
  {
    name: 'schedule find',
    method: 'POST',
    url: (f) => v4(f.studio, 'schedule/find'),
    body: () => ({ from: '2026-03-16', to: '2026-03-29' }),
    deniedRole: 'accountant',
    bad: { body: { from: '2026-03-16', to: '2026-06-01', roomId: 'x' }, fields: ['roomId', 'to'] },
  },
  {
    name: 'schedule-meta collection',
    method: 'GET',
    url: (f) => v4(f.studio, 'schedule-meta/collection'),
    deniedRole: 'accountant',
    bad: {
      url: (f) => v4(f.studio, 'schedule-meta/collection?classServiceId=1'),
      fields: ['query.classServiceId'],
    },
  },
  {
    name: 'schedule-event get',
    method: 'GET',
    url: (f) => v4(f.studio, `schedule-event/${f.eventId}`),
    deniedRole: 'accountant',
    foreign: (f, o) => v4(o, `schedule-event/${f.eventId}`),
  },
  {
    name: 'schedule-meta create',
    method: 'POST',
    url: (f) => v2(f.studio, `class-services/${f.place.serviceId}/schedule-metas`),
    body: (f) => metaBody(f.place, { firstDate: '2026-06-01', lastDate: '2026-06-30' }),
    deniedRole: 'front_desk',
    foreign: (f, o) => v2(o, `class-services/${f.place.serviceId}/schedule-metas`),
    bad: {
      body: {
        locationId: 'nope',
        daysOfWeek: [0, 8],
        startTime: '25:00',
        durationMinutes: 0,
        firstDate: '2026-02-30',
        capacity: 0,
        bookingAccessibility: 5,
      },
      fields: [
        'bookingAccessibility',
        'capacity',
        'daysOfWeek.0',
        'daysOfWeek.1',
        'durationMinutes',
        'firstDate',
        'locationId',
        'startTime',
      ],
    },
  },
  {
    name: 'schedule-meta get',
    method: 'GET',
    url: (f) => v2(f.studio, `schedule-metas/${f.metaId}`),
    deniedRole: 'accountant',
    foreign: (f, o) => v2(o, `schedule-metas/${f.metaId}`),
  },
  {
    name: 'schedule-meta edit',
    method: 'PATCH',
    url: (f) => v2(f.studio, `schedule-metas/${f.metaId}`),
    body: () => ({ capacity: 14 }),
    deniedRole: 'front_desk',
    foreign: (f, o) => v2(o, `schedule-metas/${f.metaId}`),
    bad: {
      body: { firstDate: '2026-05-01', lastDate: '2026-04-01', bookingAccessibility: 3 },
      fields: ['bookingTagIds', 'lastDate'],
    },
  },
  ...(['bookable-online', 'unbookable-online'] as const).map((segment): RouteCase => ({
    name: `schedule-meta ${segment}`,
    method: 'POST',
    url: (f) => v2(f.studio, `schedule-metas/${f.metaId}/${segment}`),
    deniedRole: 'front_desk',
    foreign: (f, o) => v2(o, `schedule-metas/${f.metaId}/${segment}`),
    bad: { body: { now: true }, fields: ['now'] },
  })),
  {
    name: 'schedule-meta events',
    method: 'GET',
    url: (f) => v2(f.studio, `schedule-metas/${f.metaId}/schedule-events/all`),
    deniedRole: 'accountant',
    foreign: (f, o) => v2(o, `schedule-metas/${f.metaId}/schedule-events/all`),
  },
  {
    name: 'class-services meta events',
    method: 'GET',
    url: (f) => v2(f.studio, `class-services/${f.metaId}/schedule-events`),
    deniedRole: 'accountant',
    foreign: (f, o) => v2(o, `class-services/${f.metaId}/schedule-events`),
  },
  {
    name: 'schedule-meta pricing options',
    method: 'GET',
    url: (f) => v2(f.studio, `schedule-metas/${f.metaId}/pricing-options/all`),
    deniedRole: 'accountant',
    foreign: (f, o) => v2(o, `schedule-metas/${f.metaId}/pricing-options/all`),
  },
  ...(['attach', 'detach'] as const).map((verb): RouteCase => ({
    name: `schedule-meta pricing options ${verb}`,
    method: 'POST',
    url: (f) => v2(f.studio, `schedule-metas/${f.metaId}/pricing-options/${verb}`),
    body: (f) => ({ pricingOptionIds: [f.place.pricingOptionId] }),
    deniedRole: 'front_desk',
    foreign: (f, o) => v2(o, `schedule-metas/${f.metaId}/pricing-options/${verb}`),
    bad: { body: { pricingOptionIds: [] }, fields: ['pricingOptionIds'] },
  })),
  {
    name: 'schedule-events generate',
    method: 'POST',
    url: (f) => v2(f.studio, 'schedule-events/generate'),
    body: () => ({}),
    deniedRole: 'front_desk',
    bad: {
      body: { from: '2026-04-01', to: '2026-03-01', scheduleMetaIds: ['x'] },
      fields: ['scheduleMetaIds.0', 'to'],
    },
  },
  {
    name: 'schedule-events patch bulk',
    method: 'POST',
    url: (f) => v2(f.studio, 'schedule-events/patch/bulk'),
    body: (f) => ({ ids: [f.eventId], patch: { notes: 'Bring a mat' } }),
    deniedRole: 'front_desk',
    foreign: (f, o) => v2(o, 'schedule-events/patch/bulk'),
    bad: {
      body: { ids: [], patch: { capacity: 0, startsAt: '2026-04-01T10:00:00Z' } },
      fields: ['ids', 'patch.capacity', 'patch.startsAt'],
    },
  },
  ...ACTIONS.map((segment): RouteCase => ({
    name: `schedule-events ${segment} bulk`,
    method: 'POST',
    url: (f) => v2(f.studio, `schedule-events/${segment}/bulk`),
    body: (f) => ({ ids: [f.eventId] }),
    deniedRole: 'front_desk',
    foreign: (f, o) => v2(o, `schedule-events/${segment}/bulk`),
    bad: { body: { ids: ['a', 'a'] }, fields: ['ids', 'ids.0', 'ids.1'] },
  })),
  {
    name: 'schedule-event livestream',
    method: 'POST',
    url: (f) => v2(f.studio, `schedule-events/${f.eventId}/livestream`),
    body: () => ({ url: 'https://meet.example.com/yoga' }),
    deniedRole: 'front_desk',
    foreign: (f, o) => v2(o, `schedule-events/${f.eventId}/livestream`),
    bad: { body: { url: 'ftp://x' }, fields: ['url'] },
  },
  {
    name: 'schedule-event edit',
    method: 'PATCH',
    url: (f) => v2(f.studio, `schedule-events/${f.eventId}`),
    body: () => ({ notes: 'Edited' }),
    deniedRole: 'front_desk',
    foreign: (f, o) => v2(o, `schedule-events/${f.eventId}`),
    bad: {
      body: { startsAt: 'tomorrow', durationMinutes: 2, instructorIds: 'all' },
      fields: ['durationMinutes', 'instructorIds', 'startsAt'],
    },
  },
  ...ACTIONS.map((segment): RouteCase => ({
    name: `schedule-event ${segment}`,
    method: 'POST',
    url: (f) => v2(f.studio, `schedule-events/${f.eventId}/${segment}`),
    deniedRole: 'front_desk',
    foreign: (f, o) => v2(o, `schedule-events/${f.eventId}/${segment}`),
  })),
  {
    name: 'schedule-meta delete',
    method: 'DELETE',
    url: (f) => v2(f.studio, `schedule-metas/${f.metaId}`),
    deniedRole: 'front_desk',
    foreign: (f, o) => v2(o, `schedule-metas/${f.metaId}`),
  },
];

describe('every schedule route', () => {
  let fixture: Fixture;
  let owner: HttpClient;
  const secrets = ['Secret Room'];

  beforeAll(async () => {
    const s = await ownerStudio('Secret Room');
    owner = s.owner;
    const meta = await call(
      owner,
      'POST',
      v2(s.studio, `class-services/${s.place.serviceId}/schedule-metas`),
      metaBody(s.place),
      201,
    );
    await call(owner, 'POST', v2(s.studio, 'schedule-events/generate'), {});
    const events = await call(owner, 'GET', v2(s.studio, `schedule-metas/${meta.id}/schedule-events/all`));
    const level = await call(
      owner,
      'POST',
      v2(s.studio, 'experience-levels'),
      { serviceType: 'classroom', name: 'Beginners' },
      201,
    );
    fixture = {
      studio: s.studio,
      place: s.place,
      metaId: meta.id,
      eventId: events.items[0].id,
      levelId: level.id,
    };
  });

  it.each(ROUTES)('$method $name: 401 without a session', async (route) => {
    const anonymous = await app.anonymous();
    const res = await anonymous.request(route.method, route.url(fixture), route.body?.(fixture));
    expect(res.status).toBe(401);
    expect(res.body.error.key).toBe('auth.required');
  });

  it.each(ROUTES.filter((r) => r.bad))('$method $name: 400 names every bad field', async (route) => {
    const bad = route.bad!;
    const res = await owner.request(route.method, (bad.url ?? route.url)(fixture), bad.body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.key).toBe('request.invalid');
    expect(Object.keys(res.body.error.fields).sort()).toEqual(bad.fields);
  });

  it.each(ROUTES)('$method $name: 403 for a client and for a role without the ability', async (route) => {
    const clientUser = await createUser(app.knex);
    await addMembership(app.knex, fixture.studio, clientUser, { isClient: true });
    const asClient = await app.signedIn(clientUser.email, clientUser.password);
    expect((await asClient.request(route.method, route.url(fixture), route.body?.(fixture))).status).toBe(
      403,
    );
    const denied = await staffWithRole(fixture.studio, route.deniedRole);
    const res = await denied.request(route.method, route.url(fixture), route.body?.(fixture));
    expect(res.status, res.text).toBe(403);
    expect(res.body.error.key).toBe('auth.forbidden');
    for (const secret of secrets) expect(res.text).not.toContain(secret);
  });

  it.each(ROUTES)('$method $name: 404 for another studio, even with its own uuid', async (route) => {
    await expectHiddenFromOtherStudio(
      app,
      { method: route.method, path: route.url(fixture), body: route.body?.(fixture) },
      secrets,
    );
    if (route.foreign) {
      const other = await ownerStudio();
      const res = await other.owner.request(
        route.method,
        route.foreign(fixture, other.studio),
        route.body?.(fixture),
      );
      expect(res.status, `${route.name} with foreign ids: ${res.text}`).toBe(404);
      for (const secret of secrets) expect(res.text).not.toContain(secret);
    }
  });

  it.each(ROUTES)('$method $name: success for the owner', async (route) => {
    const res = await owner.request(route.method, route.url(fixture), route.body?.(fixture));
    expect([200, 201, 204], `${route.name}: ${res.text}`).toContain(res.status);
    if (route.method !== 'DELETE') {
      // A removed fixture event would refuse the next actions: bring it back.
      await call(owner, 'POST', v2(fixture.studio, `schedule-events/${fixture.eventId}/restore`));
    } else {
      // Put the fixture back for the routes that follow in other runs of the table.
      const meta = await call(
        owner,
        'POST',
        v2(fixture.studio, `class-services/${fixture.place.serviceId}/schedule-metas`),
        metaBody(fixture.place),
        201,
      );
      await call(owner, 'POST', v2(fixture.studio, 'schedule-events/generate'), {});
      const events = await call(
        owner,
        'GET',
        v2(fixture.studio, `schedule-metas/${meta.id}/schedule-events/all`),
      );
      fixture.metaId = meta.id;
      fixture.eventId = events.items[0].id;
    }
  });

  it('the front desk and instructors read the timetable; only schedule.edit changes it', async () => {
    for (const role of ['front_desk', 'instructor']) {
      const staff = await staffWithRole(fixture.studio, role);
      await call(staff, 'POST', v4(fixture.studio, 'schedule/find'), {
        from: '2026-03-16',
        to: '2026-03-29',
      });
    }
    const manager = await staffWithRole(fixture.studio, 'manager');
    await call(manager, 'POST', v2(fixture.studio, `schedule-events/${fixture.eventId}/hide`));
  });

  it('the other studio sees none of the first one in its lists', async () => {
    const other = await ownerStudio();
    for (const [method, url, body] of [
      ['GET', v4(other.studio, 'location/collection')],
      ['GET', v4(other.studio, 'schedule/init')],
      ['GET', v4(other.studio, 'schedule-meta/collection')],
      ['POST', v4(other.studio, 'schedule/find'), { from: '2026-03-16', to: '2026-04-26' }],
      ['POST', v4(other.studio, 'schedule'), { from: '2026-03-16', to: '2026-04-26' }],
    ] as const) {
      const res = await other.owner.request(method, url, body);
      expect(res.status, url).toBe(200);
      for (const secret of secrets) expect(res.text, url).not.toContain(secret);
    }
    // Generating in the other studio never touches the first one's metas.
    const generated = await call(other.owner, 'POST', v2(other.studio, 'schedule-events/generate'), {});
    expect(generated.created).toBe(0);
    const named = await other.owner.post(v2(other.studio, 'schedule-events/generate'), {
      scheduleMetaIds: [fixture.metaId],
    });
    expect(named.status).toBe(400);
    expect(named.body.error.fields).toEqual({ scheduleMetaIds: ['unknown in this studio'] });
  });
});

// ------------------------------------------------------------------------------------ behaviour

describe('schedule metas and generation', () => {
  it('creates a meta, generates its Sunday 18:00 classes across the spring DST switch, idempotently', async () => {
    const { studio, owner, place } = await ownerStudio();
    const meta = await call(
      owner,
      'POST',
      v2(studio, `class-services/${place.serviceId}/schedule-metas`),
      metaBody(place, {
        lastDate: '2026-04-12',
        pricingOptionIds: [place.pricingOptionId],
        bookingAccessibility: 3,
        bookingTagIds: [place.tagId],
      }),
      201,
    );
    expect(meta).toMatchObject({
      classService: { id: place.serviceId, name: { en: { value: 'Vinyasa' } } },
      daysOfWeek: [7],
      startTime: '18:00',
      firstDate: '2026-03-21',
      lastDate: '2026-04-12',
      capacity: 12,
      waitingListSize: 5,
      bookableOnline: true,
      bookingAccessibility: 3,
      bookingTagIds: [place.tagId],
      pricingOptions: [{ id: place.pricingOptionId, price: 16000 }],
    });
    const first = await call(owner, 'POST', v2(studio, 'schedule-events/generate'), {});
    expect(first).toEqual({ from: '2026-03-20', to: '2026-05-14', created: 4, updated: 0, deleted: 0 });
    const again = await call(owner, 'POST', v2(studio, 'schedule-events/generate'), {
      scheduleMetaIds: [meta.id],
    });
    expect(again.created).toBe(0);
    const events = (await call(owner, 'GET', v2(studio, `schedule-metas/${meta.id}/schedule-events/all`)))
      .items;
    // 18:00 in Warsaw: 17:00 UTC in winter time, 16:00 UTC from 29 March.
    expect(events.map((e: { startsAt: string }) => e.startsAt)).toEqual([
      '2026-03-22T17:00:00.000Z',
      '2026-03-29T16:00:00.000Z',
      '2026-04-05T16:00:00.000Z',
      '2026-04-12T16:00:00.000Z',
    ]);
    expect(events[0]).toMatchObject({
      occurrenceDate: '2026-03-22',
      roomName: 'Room Sun',
      instructors: [{ id: place.instructorId, firstName: 'Ola', lastName: 'Teacher' }],
      capacity: 12,
      status: 'scheduled',
      hidden: false,
      bookableOnline: true,
      edited: false,
    });
  });

  it('a 02:30 class on the spring-forward Sunday is generated at 03:30 summer time', async () => {
    const { studio, owner, place } = await ownerStudio();
    const meta = await call(
      owner,
      'POST',
      v2(studio, `class-services/${place.serviceId}/schedule-metas`),
      metaBody(place, { startTime: '02:30', lastDate: '2026-03-29' }),
      201,
    );
    await call(owner, 'POST', v2(studio, 'schedule-events/generate'), {
      scheduleMetaIds: [meta.id],
      from: '2026-03-21',
      to: '2026-03-31',
    });
    const events = (await call(owner, 'GET', v2(studio, `schedule-metas/${meta.id}/schedule-events/all`)))
      .items;
    expect(events.map((e: { startsAt: string }) => e.startsAt)).toEqual([
      '2026-03-22T01:30:00.000Z',
      '2026-03-29T01:30:00.000Z',
    ]);
  });

  it('changing the meta moves its untouched future events; edited, cancelled and removed ones stay', async () => {
    const { studio, owner, place } = await ownerStudio();
    const meta = await call(
      owner,
      'POST',
      v2(studio, `class-services/${place.serviceId}/schedule-metas`),
      metaBody(place, { lastDate: '2026-04-19' }),
      201,
    );
    await call(owner, 'POST', v2(studio, 'schedule-events/generate'), {});
    const [e22, e29, e05, e12, e19] = (
      await call(owner, 'GET', v2(studio, `schedule-metas/${meta.id}/schedule-events/all`))
    ).items;
    await call(owner, 'PATCH', v2(studio, `schedule-events/${e29.id}`), { capacity: 30, notes: 'Workshop' });
    await call(owner, 'POST', v2(studio, `schedule-events/${e05.id}/cancel`));
    await call(owner, 'POST', v2(studio, `schedule-events/${e12.id}/remove`));
    const patched = await call(owner, 'PATCH', v2(studio, `schedule-metas/${meta.id}`), {
      startTime: '19:15',
      capacity: 8,
      daysOfWeek: [7, 6],
    });
    expect(patched).toMatchObject({ startTime: '19:15', capacity: 8, daysOfWeek: [6, 7] });
    const after = (await call(owner, 'GET', v2(studio, `schedule-metas/${meta.id}/schedule-events/all`)))
      .items as Array<{
      id: string;
      occurrenceDate: string;
      startsAt: string;
      capacity: number;
      status: string;
      edited: boolean;
    }>;
    const byId = new Map(after.map((e) => [e.id, e]));
    expect(byId.get(e22.id)).toMatchObject({ startsAt: '2026-03-22T18:15:00.000Z', capacity: 8 });
    expect(byId.get(e29.id)).toMatchObject({ startsAt: e29.startsAt, capacity: 30, edited: true });
    expect(byId.get(e05.id)).toMatchObject({ startsAt: e05.startsAt, status: 'cancelled', capacity: 12 });
    expect(byId.get(e12.id)).toMatchObject({ status: 'removed' });
    expect(byId.get(e19.id)).toMatchObject({ startsAt: '2026-04-19T17:15:00.000Z', capacity: 8 });
    // Saturdays appear on the days already generated (up to 19 April), not beyond.
    expect(
      after
        .filter((e) => e.occurrenceDate.endsWith('-21') || e.occurrenceDate === '2026-04-18')
        .map((e) => e.occurrenceDate)
        .sort(),
    ).toEqual(['2026-03-21', '2026-04-18']);
    // Regenerating never resurrects the removed one nor duplicates any.
    const regen = await call(owner, 'POST', v2(studio, 'schedule-events/generate'), {});
    expect(regen.created).toBe(0);
    // Dropping Sundays deletes the untouched future Sunday, keeps the edited and cancelled ones.
    await call(owner, 'PATCH', v2(studio, `schedule-metas/${meta.id}`), { daysOfWeek: [6] });
    const ids = new Set(
      (
        (await call(owner, 'GET', v2(studio, `schedule-metas/${meta.id}/schedule-events/all`)))
          .items as Array<{ id: string }>
      ).map((e) => e.id),
    );
    expect([e22.id, e19.id].map((id) => ids.has(id))).toEqual([false, false]);
    expect([e29.id, e05.id, e12.id].map((id) => ids.has(id))).toEqual([true, true, true]);
  });

  it('refuses references of another studio or a room of another location, field by field', async () => {
    const { studio, owner, place } = await ownerStudio();
    const other = await ownerStudio();
    const res = await owner.post(
      v2(studio, `class-services/${place.serviceId}/schedule-metas`),
      metaBody(place, {
        locationId: place.otherLocationId,
        instructorIds: [other.place.instructorId],
        pricingOptionIds: [other.place.pricingOptionId],
        bookingTagIds: [other.place.tagId],
      }),
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual([
      'bookingTagIds',
      'instructorIds',
      'pricingOptionIds',
      'roomId',
    ]);
    expect(
      await app.knex('schedule_metas').where({ studioId: studio.id }).count({ n: '*' }).first(),
    ).toMatchObject({ n: 0 });
  });

  it('attaches and detaches pricing options; bookable and unbookable online reach untouched future events', async () => {
    const { studio, owner, place } = await ownerStudio();
    const meta = await call(
      owner,
      'POST',
      v2(studio, `class-services/${place.serviceId}/schedule-metas`),
      metaBody(place, { lastDate: '2026-04-05' }),
      201,
    );
    await call(owner, 'POST', v2(studio, 'schedule-events/generate'), {});
    const attached = await call(
      owner,
      'POST',
      v2(studio, `schedule-metas/${meta.id}/pricing-options/attach`),
      { pricingOptionIds: [place.pricingOptionId] },
    );
    expect(attached.pricingOptions.map((p: { id: string }) => p.id)).toEqual([place.pricingOptionId]);
    await call(owner, 'POST', v2(studio, `schedule-metas/${meta.id}/pricing-options/attach`), {
      pricingOptionIds: [place.pricingOptionId],
    });
    expect(
      (await call(owner, 'GET', v2(studio, `schedule-metas/${meta.id}/pricing-options/all`))).items,
    ).toHaveLength(1);
    await call(owner, 'POST', v2(studio, `schedule-metas/${meta.id}/pricing-options/detach`), {
      pricingOptionIds: [place.pricingOptionId],
    });
    expect(
      (await call(owner, 'GET', v2(studio, `schedule-metas/${meta.id}/pricing-options/all`))).items,
    ).toEqual([]);

    const off = await call(owner, 'POST', v2(studio, `schedule-metas/${meta.id}/unbookable-online`));
    expect(off.bookableOnline).toBe(false);
    const events = (await call(owner, 'GET', v2(studio, `schedule-metas/${meta.id}/schedule-events/all`)))
      .items;
    expect(events.map((e: { bookableOnline: boolean }) => e.bookableOnline)).toEqual([false, false, false]);
  });

  it('deleting a meta deletes its classes that have not started and keeps the past ones', async () => {
    const { studio, owner, place } = await ownerStudio();
    const meta = await call(
      owner,
      'POST',
      v2(studio, `class-services/${place.serviceId}/schedule-metas`),
      metaBody(place, { lastDate: '2026-04-05' }),
      201,
    );
    await call(owner, 'POST', v2(studio, 'schedule-events/generate'), {});
    const [past] = (await call(owner, 'GET', v2(studio, `schedule-metas/${meta.id}/schedule-events/all`)))
      .items;
    await app
      .knex('schedule_events')
      .where({ id: past.id })
      .update({ startsAt: new Date('2026-03-19T17:00:00Z'), endsAt: new Date('2026-03-19T18:00:00Z') });
    await call(owner, 'DELETE', v2(studio, `schedule-metas/${meta.id}`), undefined, 204);
    expect((await owner.get(v2(studio, `schedule-metas/${meta.id}`))).status).toBe(404);
    const left = await app
      .knex('schedule_events')
      .where({ studioId: studio.id })
      .select('id', 'schedule_meta_id');
    expect(left).toEqual([{ id: past.id, scheduleMetaId: null }]);
  });
});

describe('schedule event actions', () => {
  async function withEvents() {
    const s = await ownerStudio();
    const meta = await call(
      s.owner,
      'POST',
      v2(s.studio, `class-services/${s.place.serviceId}/schedule-metas`),
      metaBody(s.place, { lastDate: '2026-04-05' }),
      201,
    );
    await call(s.owner, 'POST', v2(s.studio, 'schedule-events/generate'), {});
    const events = (await call(s.owner, 'GET', v2(s.studio, `schedule-metas/${meta.id}/schedule-events/all`)))
      .items as Array<{ id: string }>;
    return { ...s, events };
  }

  it('cancel, restore, hide, show, bookable, remove on one event, seen in the week', async () => {
    const { studio, owner, events } = await withEvents();
    const id = events[0]!.id;
    expect(await call(owner, 'POST', v2(studio, `schedule-events/${id}/cancel`))).toMatchObject({
      status: 'cancelled',
      bookableOnline: false,
    });
    expect((await owner.post(v2(studio, `schedule-events/${id}/bookable-online`))).body.error).toMatchObject({
      key: 'scheduleEvent.actionNotAllowed',
      code: 1800,
    });
    expect(await call(owner, 'POST', v2(studio, `schedule-events/${id}/restore`))).toMatchObject({
      status: 'scheduled',
      bookableOnline: false,
    });
    expect(await call(owner, 'POST', v2(studio, `schedule-events/${id}/bookable-online`))).toMatchObject({
      bookableOnline: true,
    });
    expect(await call(owner, 'POST', v2(studio, `schedule-events/${id}/hide`))).toMatchObject({
      hidden: true,
    });
    expect(await call(owner, 'POST', v2(studio, `schedule-events/${id}/show`))).toMatchObject({
      hidden: false,
    });
    expect(
      await call(owner, 'POST', v2(studio, `schedule-events/${id}/livestream`), {
        url: 'https://meet.example.com/x',
      }),
    ).toMatchObject({
      livestreamUrl: 'https://meet.example.com/x',
    });
    await call(owner, 'POST', v2(studio, `schedule-events/${id}/remove`));
    const week = (
      await call(owner, 'POST', v4(studio, 'schedule/find'), { from: '2026-03-16', to: '2026-03-22' })
    ).items;
    expect(week).toEqual([]);
    const withRemoved = (
      await call(owner, 'POST', v4(studio, 'schedule/find'), {
        from: '2026-03-16',
        to: '2026-03-22',
        includeRemoved: true,
      })
    ).items;
    expect(withRemoved.map((e: { id: string; status: string }) => [e.id, e.status])).toEqual([
      [id, 'removed'],
    ]);
    expect((await owner.patch(v2(studio, `schedule-events/${id}`), { notes: 'x' })).status).toBe(409);
  });

  it('a bulk action is all or nothing: one ended class refuses the whole batch and names it', async () => {
    const { studio, owner, events } = await withEvents();
    const [a, b, c] = events.map((e) => e.id);
    await app
      .knex('schedule_events')
      .where({ id: b })
      .update({ startsAt: new Date('2026-03-19T17:00:00Z'), endsAt: new Date('2026-03-19T18:00:00Z') });
    const res = await owner.post(v2(studio, 'schedule-events/cancel/bulk'), { ids: [a, b, c] });
    expect(res.status).toBe(409);
    expect(res.body.error.fields).toEqual({ 'ids.1': ['the class has already ended'] });
    const statuses = await app.knex('schedule_events').whereIn('id', [a!, b!, c!]).pluck('status');
    expect(statuses).toEqual(['scheduled', 'scheduled', 'scheduled']);
    const ok = await call(owner, 'POST', v2(studio, 'schedule-events/cancel/bulk'), { ids: [a, c] });
    expect(ok.items.map((e: { status: string }) => e.status)).toEqual(['cancelled', 'cancelled']);
    const unknown = await owner.post(v2(studio, 'schedule-events/hide/bulk'), { ids: [a, uuidv7()] });
    expect(unknown.status).toBe(404);
  });

  it('bulk edit sets the room and instructors and marks the events edited', async () => {
    const { studio, owner, events, place } = await withEvents();
    const res = await call(owner, 'POST', v2(studio, 'schedule-events/patch/bulk'), {
      ids: events.map((e) => e.id),
      patch: { instructorIds: [], capacity: 6, roomId: place.roomId },
    });
    expect(
      res.items.map((e: { capacity: number; edited: boolean; instructors: unknown[] }) => [
        e.capacity,
        e.edited,
        e.instructors.length,
      ]),
    ).toEqual([
      [6, true, 0],
      [6, true, 0],
      [6, true, 0],
    ]);
    const moved = await owner.patch(v2(studio, `schedule-events/${events[0]!.id}`), {
      locationId: place.otherLocationId,
      roomId: place.roomId,
    });
    expect(moved.status).toBe(400);
    expect(moved.body.error.fields).toEqual({ roomId: ['not a room of this location'] });
    const single = await call(owner, 'PATCH', v2(studio, `schedule-events/${events[0]!.id}`), {
      startsAt: '2026-03-22T09:00:00+01:00',
      durationMinutes: 90,
    });
    expect(single).toMatchObject({
      startsAt: '2026-03-22T08:00:00.000Z',
      endsAt: '2026-03-22T09:30:00.000Z',
    });
  });
});

describe('the calendar (issue 26): counts on each class, moves that double-book refused', () => {
  /** Two Sunday series in the same room: 18:00 with Ola teaching, 20:00 with nobody. */
  async function twoSeries() {
    const s = await ownerStudio();
    const create = (over: Record<string, unknown>) =>
      call(
        s.owner,
        'POST',
        v2(s.studio, `class-services/${s.place.serviceId}/schedule-metas`),
        metaBody(s.place, { lastDate: '2026-03-22', ...over }),
        201,
      );
    const early = await create({});
    const late = await create({ startTime: '20:00', instructorIds: [] });
    await call(s.owner, 'POST', v2(s.studio, 'schedule-events/generate'), {});
    const first = async (metaId: string) =>
      (await call(s.owner, 'GET', v2(s.studio, `schedule-metas/${metaId}/schedule-events/all`))).items[0] as {
        id: string;
      };
    return { ...s, early: await first(early.id), late: await first(late.id) };
  }

  it('the week answers places taken and the waiting list of every class, as does one class', async () => {
    const { studio, owner, early, late } = await twoSeries();
    for (const [i, status] of [1, 3, 8, 8, 2].entries()) {
      const client = await createUser(app.knex, { firstName: `C${i}`, lastName: 'Nowak' });
      await app.knex('client_visits').insert({
        id: uuidv7(),
        studioId: studio.id,
        scheduleEventId: early.id,
        clientId: client.id,
        startsAt: new Date('2026-03-22T17:00:00Z'),
        status,
        waitingPosition: status === 8 ? i : null,
        payment: 'pass',
        bookedBy: 'staff',
        bookedAt: NOW,
      });
    }
    const week = await call(owner, 'POST', v4(studio, 'schedule/find'), {
      from: '2026-03-16',
      to: '2026-03-22',
    });
    const counts = Object.fromEntries(
      week.items.map((e: { id: string; taken: number; waiting: number }) => [e.id, [e.taken, e.waiting]]),
    );
    expect(counts).toEqual({ [early.id]: [2, 2], [late.id]: [0, 0] });
    expect(await call(owner, 'GET', v4(studio, `schedule-event/${early.id}`))).toMatchObject({
      taken: 2,
      waiting: 2,
    });
  });

  it('a move into a taken room or onto a busy instructor is refused (409) and nothing changes', async () => {
    const { studio, owner, early, late, place } = await twoSeries();
    // 20:00 → 18:30, the room is taken by the 18:00 class until 19:00.
    const clash = await owner.patch(v2(studio, `schedule-events/${late.id}`), {
      startsAt: '2026-03-22T18:30:00+01:00',
    });
    expect(clash.status, clash.text).toBe(409);
    expect(clash.body.error).toMatchObject({
      key: 'scheduleEvent.conflict',
      code: 3150,
      fields: { roomId: ['the room is taken by another class at that time'] },
    });
    expect(clash.body.error.message).toContain(early.id);
    const row = await app.knex('schedule_events').where({ id: late.id }).first('starts_at', 'edited_at');
    expect([new Date(row.startsAt).toISOString(), row.editedAt]).toEqual(['2026-03-22T19:00:00.000Z', null]);
    // Lengthening the 18:00 class into the 20:00 one (a resize) is refused the same way.
    const resize = await owner.patch(v2(studio, `schedule-events/${early.id}`), { durationMinutes: 150 });
    expect(resize.status).toBe(409);
    // Another location (no room) with the 18:00 class's instructor at 18:30: the instructor is busy.
    const busy = await owner.patch(v2(studio, `schedule-events/${late.id}`), {
      startsAt: '2026-03-22T18:30:00+01:00',
      locationId: place.otherLocationId,
      instructorIds: [place.instructorId],
    });
    expect(busy.status).toBe(409);
    expect(busy.body.error.fields).toEqual({
      instructorIds: ['an instructor teaches another class at that time'],
    });
    // Touching ends are no clash: 19:00 right after the 18:00 class.
    expect(
      await call(owner, 'PATCH', v2(studio, `schedule-events/${late.id}`), {
        startsAt: '2026-03-22T19:00:00+01:00',
      }),
    ).toMatchObject({ startsAt: '2026-03-22T18:00:00.000Z', edited: true });
    // A cancelled class frees its room: the 19:00 class may now take 18:30.
    await call(owner, 'POST', v2(studio, `schedule-events/${early.id}/cancel`));
    expect(
      await call(owner, 'PATCH', v2(studio, `schedule-events/${late.id}`), {
        startsAt: '2026-03-22T18:30:00+01:00',
      }),
    ).toMatchObject({ startsAt: '2026-03-22T17:30:00.000Z' });
    // Capacity or notes alone never check times.
    await call(owner, 'POST', v2(studio, `schedule-events/${early.id}/restore`));
    expect(
      await call(owner, 'PATCH', v2(studio, `schedule-events/${late.id}`), { capacity: 14 }),
    ).toMatchObject({
      capacity: 14,
    });
  });

  it('a bulk edit into a room taken at the same time names each class refused (ids.N)', async () => {
    const { studio, owner, early, late } = await twoSeries();
    await call(owner, 'PATCH', v2(studio, `schedule-events/${late.id}`), {
      startsAt: '2026-03-22T18:30:00+01:00',
      roomId: null,
    });
    const res = await owner.post(v2(studio, 'schedule-events/patch/bulk'), {
      ids: [early.id, late.id],
      patch: { roomId: (await app.knex('schedule_events').where({ id: early.id }).first('room_id')).roomId },
    });
    expect(res.status, res.text).toBe(409);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['ids.0', 'ids.1']);
  });
});

describe('front office timetable', () => {
  it('anyone sees the studio week: no hidden or removed classes, cancelled ones marked, filters offered', async () => {
    const { studio, owner, place } = await ownerStudio();
    const meta = await call(
      owner,
      'POST',
      v2(studio, `class-services/${place.serviceId}/schedule-metas`),
      metaBody(place, { daysOfWeek: [6, 7], lastDate: '2026-03-29' }),
      201,
    );
    await call(owner, 'POST', v2(studio, 'schedule-events/generate'), {});
    const [sat, sun, sat2, sun2] = (
      await call(owner, 'GET', v2(studio, `schedule-metas/${meta.id}/schedule-events/all`))
    ).items as Array<{ id: string }>;
    await call(owner, 'POST', v2(studio, `schedule-events/${sat!.id}/hide`));
    await call(owner, 'POST', v2(studio, `schedule-events/${sun!.id}/cancel`));
    await call(owner, 'POST', v2(studio, `schedule-events/${sat2!.id}/remove`));
    await call(owner, 'POST', v2(studio, `schedule-events/${sun2!.id}/livestream`), {
      url: 'https://meet.example.com/secret',
    });

    const anonymous = await app.anonymous();
    const res = await anonymous.post(v4(studio, 'schedule'), { from: '2026-03-16', to: '2026-03-29' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.timeZone).toBe('Europe/Warsaw');
    expect(
      res.body.items.map((e: { id: string; cancelled: boolean; bookableOnline: boolean }) => [
        e.id,
        e.cancelled,
        e.bookableOnline,
      ]),
    ).toEqual([
      [sun!.id, true, false],
      [sun2!.id, false, true],
    ]);
    expect(res.text).not.toContain('meet.example.com');
    expect(res.body.filters.locations.map((l: { name: string }) => l.name)).toEqual([
      'Mokotów Room',
      'Śródmieście',
    ]);
    expect(res.body.filters.instructors).toEqual([
      { id: place.instructorId, firstName: 'Ola', lastName: 'Teacher' },
    ]);

    const filtered = await anonymous.post(v4(studio, 'schedule'), {
      from: '2026-03-16',
      to: '2026-03-29',
      locationId: place.otherLocationId,
    });
    expect(filtered.body.items).toEqual([]);
    const bad = await anonymous.post(v4(studio, 'schedule'), {
      from: '2026-03-29',
      to: '2026-03-16',
      instructorId: 'x',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['instructorId', 'to']);
    expect(
      (await anonymous.post(`/api/v4/${uuidv7()}/schedule`, { from: '2026-03-16', to: '2026-03-29' })).status,
    ).toBe(404);
    expect(
      (await anonymous.post('/api/v4/not-a-studio/schedule', { from: '2026-03-16', to: '2026-03-29' }))
        .status,
    ).toBe(404);
  });
});
