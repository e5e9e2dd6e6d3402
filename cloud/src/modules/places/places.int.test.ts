import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';
import type { Studio } from '../identity/rows';

// A Monday morning in Warsaw.
const NOW = new Date('2026-11-23T08:00:00Z');
const clock = new ManualClock(NOW);

const app = useTestApp({ clock });

const v4 = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const v2 = (studio: { id: string }, path: string) => `/api/v2/${studio.id}/${path}`;
const unique = () => uuidv7().slice(-8);
const lt = (en: string, pl = en) => ({ en: { value: en }, pl: { value: pl } });

const { ownerStudio, staffWithRole } = studioSessions(() => app);

async function call(
  client: HttpClient,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  status = method === 'POST' ? 201 : 200,
) {
  const res = await client.request(method, path, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
  return res.body;
}

/** A meta of `serviceId` at `locationId` (and room), weekly on Mondays from today, open-ended. */
async function addMeta(
  owner: HttpClient,
  studio: Studio,
  serviceId: string,
  place: { locationId: string; roomId?: string | null },
  lastDate: string | null = null,
) {
  return call(owner, 'POST', v2(studio, `class-services/${serviceId}/schedule-metas`), {
    locationId: place.locationId,
    roomId: place.roomId ?? null,
    daysOfWeek: [1, 4],
    startTime: '18:00',
    durationMinutes: 60,
    firstDate: '2026-11-23',
    lastDate,
    capacity: 12,
  });
}

// ------------------------------------------------------------------------------------ route table

interface Fixture {
  studio: Studio;
  locationId: string;
  roomId: string;
  categoryId: string;
  serviceId: string;
  levelIds: string[];
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type RouteCase = {
  name: string;
  method: Method;
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /** A default role without the route's ability. */
  deniedRole: string;
  /** Names the first studio's ids in its path: the other studio gets 404 for them in its own uuid too. */
  foreign?: true;
  bad?: { path?: (f: Fixture) => string; body?: unknown; fields: string[] };
};

const ROUTES: RouteCase[] = [
  {
    name: 'location all',
    method: 'GET',
    path: (f) => v4(f.studio, 'location/all'),
    deniedRole: 'accountant',
    bad: { path: (f) => v4(f.studio, 'location/all?status=gone'), fields: ['query.status'] },
  },
  {
    name: 'location create',
    method: 'POST',
    path: (f) => v4(f.studio, 'location'),
    body: () => ({ name: `Wola ${unique()}` }),
    deniedRole: 'front_desk',
    bad: {
      body: { name: ' ', city: 'x'.repeat(101), rooms: [{ name: 'A', capacity: 0 }] },
      fields: ['city', 'name', 'rooms.0.capacity'],
    },
  },
  {
    name: 'location edit',
    method: 'PATCH',
    foreign: true,
    path: (f) => v4(f.studio, `location/${f.locationId}`),
    body: () => ({ city: 'Kraków' }),
    deniedRole: 'front_desk',
    bad: { body: { name: '', postalCode: 5 }, fields: ['name', 'postalCode'] },
  },
  ...(['archive', 'restore'] as const).map((segment): RouteCase => ({
    name: `location ${segment}`,
    method: 'POST',
    foreign: true,
    path: (f) => v4(f.studio, `location/${f.locationId}/${segment}`),
    deniedRole: 'front_desk',
  })),
  {
    name: 'room create',
    method: 'POST',
    foreign: true,
    path: (f) => v4(f.studio, `location/${f.locationId}/location-room`),
    body: () => ({ name: `Room ${unique()}`, capacity: 10 }),
    deniedRole: 'front_desk',
    bad: { body: { name: '', capacity: 1.5 }, fields: ['capacity', 'name'] },
  },
  {
    name: 'room edit',
    method: 'PATCH',
    foreign: true,
    path: (f) => v4(f.studio, `location-room/${f.roomId}`),
    body: () => ({ capacity: 14 }),
    deniedRole: 'front_desk',
    bad: { body: { capacity: 1001 }, fields: ['capacity'] },
  },
  ...(['archive', 'restore'] as const).map((segment): RouteCase => ({
    name: `room ${segment}`,
    method: 'POST',
    foreign: true,
    path: (f) => v4(f.studio, `location-room/${f.roomId}/${segment}`),
    deniedRole: 'front_desk',
  })),
  {
    name: 'category all',
    method: 'GET',
    path: (f) => v4(f.studio, 'class-service-category/all?status=all'),
    deniedRole: 'accountant',
    bad: { path: (f) => v4(f.studio, 'class-service-category/all?status=x'), fields: ['query.status'] },
  },
  {
    name: 'category create',
    method: 'POST',
    path: (f) => v4(f.studio, 'class-service-category'),
    body: () => ({ name: lt(`Yoga ${unique()}`) }),
    deniedRole: 'front_desk',
    bad: { body: { name: { en: { value: '' } }, position: -1 }, fields: ['name', 'position'] },
  },
  {
    name: 'category edit',
    method: 'PATCH',
    foreign: true,
    path: (f) => v4(f.studio, `class-service-category/${f.categoryId}`),
    body: () => ({ position: 3 }),
    deniedRole: 'front_desk',
    bad: { body: { name: { en: { value: ' ' } }, position: 1.5 }, fields: ['name', 'position'] },
  },
  ...(['archive', 'restore'] as const).map((segment): RouteCase => ({
    name: `category ${segment}`,
    method: 'POST',
    foreign: true,
    path: (f) => v4(f.studio, `class-service-category/${f.categoryId}/${segment}`),
    deniedRole: 'front_desk',
  })),
  {
    name: 'class service all',
    method: 'GET',
    path: (f) => v4(f.studio, 'class-service/all?status=all'),
    deniedRole: 'accountant',
    bad: {
      path: (f) => v4(f.studio, 'class-service/all?serviceType=video&status=x'),
      fields: ['query.serviceType', 'query.status'],
    },
  },
  {
    name: 'class service init',
    method: 'GET',
    path: (f) => v4(f.studio, 'class-service/init'),
    deniedRole: 'accountant',
  },
  {
    name: 'class service create',
    method: 'POST',
    path: (f) => v4(f.studio, 'class-service'),
    body: () => ({ serviceType: 'classroom', name: lt('Barre'), durationMinutes: 50 }),
    deniedRole: 'front_desk',
    bad: {
      body: { serviceType: 'video', name: {}, durationMinutes: 2, color: 'red', defaultCapacity: 0 },
      fields: ['color', 'defaultCapacity', 'durationMinutes', 'name', 'serviceType'],
    },
  },
  {
    name: 'class service edit',
    method: 'PATCH',
    foreign: true,
    path: (f) => v4(f.studio, `class-service/${f.serviceId}`),
    body: () => ({ defaultCapacity: 16 }),
    deniedRole: 'front_desk',
    bad: { body: { categoryId: 'x', serviceType: 'course' }, fields: ['categoryId', 'serviceType'] },
  },
  ...(['archive', 'restore'] as const).map((segment): RouteCase => ({
    name: `class service ${segment}`,
    method: 'POST',
    foreign: true,
    path: (f) => v4(f.studio, `class-service/${f.serviceId}/${segment}`),
    deniedRole: 'front_desk',
  })),
  {
    name: 'experience level reorder',
    method: 'POST',
    foreign: true,
    path: (f) => v2(f.studio, 'experience-levels/reorder'),
    body: (f) => ({ serviceType: 'classroom', ids: [...f.levelIds].reverse() }),
    deniedRole: 'front_desk',
    bad: { body: { serviceType: 'yoga', ids: [] }, fields: ['ids', 'serviceType'] },
  },
  {
    name: 'experience level delete',
    method: 'DELETE',
    foreign: true,
    path: (f) => v2(f.studio, `experience-levels/${f.levelIds[0]}`),
    deniedRole: 'front_desk',
  },
];

describe('every places route', () => {
  let fixture: Fixture;
  let owner: HttpClient;
  const secrets = ['Secret Loft', 'Secret Attic', 'Secret Aerial'];

  beforeAll(async () => {
    const s = await ownerStudio();
    owner = s.owner;
    const location = await call(owner, 'POST', v4(s.studio, 'location'), {
      name: 'Secret Loft',
      rooms: [{ name: 'Secret Attic', capacity: 8 }],
    });
    const category = await call(owner, 'POST', v4(s.studio, 'class-service-category'), {
      name: lt('Secret Aerial'),
    });
    const service = await call(owner, 'POST', v4(s.studio, 'class-service'), {
      serviceType: 'classroom',
      name: lt('Secret Aerial Yoga'),
      durationMinutes: 60,
      categoryId: category.id,
    });
    const levels = [];
    for (const name of ['Beginner', 'Advanced'])
      levels.push(
        (await call(owner, 'POST', v2(s.studio, 'experience-levels'), { serviceType: 'classroom', name })).id,
      );
    fixture = {
      studio: s.studio,
      locationId: location.id,
      roomId: location.rooms[0].id,
      categoryId: category.id,
      serviceId: service.id,
      levelIds: levels,
    };
  });

  it.each(ROUTES)('$method $name: 401 without a session', async (route) => {
    const anonymous = await app.anonymous();
    const res = await anonymous.request(route.method, route.path(fixture), route.body?.(fixture));
    expect(res.status, res.text).toBe(401);
    expect(res.body.error.key).toBe('auth.required');
  });

  it.each(ROUTES.filter((r) => r.bad))('$method $name: 400 names every bad field', async (route) => {
    const bad = route.bad!;
    const res = await owner.request(route.method, (bad.path ?? route.path)(fixture), bad.body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.key).toBe('request.invalid');
    expect(Object.keys(res.body.error.fields).sort()).toEqual(bad.fields);
  });

  it.each(ROUTES)('$method $name: 403 for a client and for a role without the ability', async (route) => {
    const clientUser = await createUser(app.knex);
    await addMembership(app.knex, fixture.studio, clientUser, { isClient: true });
    const asClient = await app.signedIn(clientUser.email, clientUser.password);
    const res = await asClient.request(route.method, route.path(fixture), route.body?.(fixture));
    expect(res.status, res.text).toBe(403);
    const denied = await staffWithRole(fixture.studio, route.deniedRole);
    const res2 = await denied.request(route.method, route.path(fixture), route.body?.(fixture));
    expect(res2.status, res2.text).toBe(403);
    expect(res2.body.error.key).toBe('auth.forbidden');
    for (const secret of secrets) expect(res2.text).not.toContain(secret);
  });

  it.each(ROUTES)('$method $name: 404 for another studio, even with its own uuid', async (route) => {
    await expectHiddenFromOtherStudio(
      app,
      { method: route.method, path: route.path(fixture), body: route.body?.(fixture) },
      secrets,
    );
    if (route.foreign) {
      const other = await ownerStudio();
      const path = route.path(fixture).replace(fixture.studio.id, other.studio.id);
      const res = await other.owner.request(route.method, path, route.body?.(fixture));
      expect(res.status, `${route.name} with foreign ids: ${res.text}`).toBe(404);
      for (const secret of secrets) expect(res.text).not.toContain(secret);
    }
  });

  it('the other studio sees none of the first one in its lists', async () => {
    const other = await ownerStudio();
    for (const path of [
      'location/all?status=all',
      'class-service-category/all?status=all',
      'class-service/all?status=all',
      'class-service/init',
      'location/collection',
      'class-service/collection',
    ]) {
      const res = await other.owner.get(v4(other.studio, path));
      expect(res.status, path).toBe(200);
      expect(res.body.items ?? res.body.categories, path).toEqual([]);
      for (const secret of secrets) expect(res.text, path).not.toContain(secret);
    }
  });

  it('success: front desk and instructors read; a manager changes', async () => {
    for (const role of ['front_desk', 'instructor']) {
      const reader = await staffWithRole(fixture.studio, role);
      const locations = await call(reader, 'GET', v4(fixture.studio, 'location/all'));
      expect(locations.items.map((l: { name: string }) => l.name)).toEqual(['Secret Loft']);
      expect((await call(reader, 'GET', v4(fixture.studio, 'class-service/all'))).items).toHaveLength(1);
    }
    const manager = await staffWithRole(fixture.studio, 'manager');
    const room = await call(manager, 'PATCH', v4(fixture.studio, `location-room/${fixture.roomId}`), {
      capacity: 9,
    });
    expect(room).toMatchObject({ id: fixture.roomId, capacity: 9, archived: false });
  });
});

// ------------------------------------------------------------------------------------ behaviour

describe('locations and rooms', () => {
  it('creates a location with rooms on the studio clock; the schedule offers it; names are unique', async () => {
    const { studio, owner } = await ownerStudio();
    const created = await call(owner, 'POST', v4(studio, 'location'), {
      name: '  Mokotów ',
      addressLine: 'ul. Puławska 145',
      postalCode: '02-715',
      city: 'Warszawa',
      rooms: [
        { name: 'Sala Słoneczna', capacity: 24 },
        { name: 'Sala Kameralna', capacity: 12 },
      ],
    });
    expect(created).toMatchObject({
      name: 'Mokotów',
      addressLine: 'ul. Puławska 145',
      city: 'Warszawa',
      timeZone: 'Europe/Warsaw',
      archived: false,
    });
    expect(created.rooms.map((r: { name: string; capacity: number }) => [r.name, r.capacity])).toEqual([
      ['Sala Kameralna', 12],
      ['Sala Słoneczna', 24],
    ]);
    const init = await call(owner, 'GET', v4(studio, 'schedule/init'));
    expect(init.locations.map((l: { name: string }) => l.name)).toEqual(['Mokotów']);
    expect(init.locations[0].rooms).toHaveLength(2);

    const taken = await owner.post(v4(studio, 'location'), { name: 'MOKOTÓW' });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ key: 'places.nameTaken', code: 1850 });
    expect(taken.body.error.fields.name).toBeDefined();
    const twice = await owner.post(v4(studio, 'location'), {
      name: 'Wola',
      rooms: [
        { name: 'A', capacity: 5 },
        { name: 'a', capacity: 6 },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.fields).toEqual({ 'rooms.1.name': ['listed twice'] });
    expect((await call(owner, 'GET', v4(studio, 'location/all'))).items).toHaveLength(1);

    const edited = await call(owner, 'PATCH', v4(studio, `location/${created.id}`), {
      addressLine: 'ul. Puławska 147',
    });
    expect(edited).toMatchObject({ name: 'Mokotów', addressLine: 'ul. Puławska 147' });
    const room = await call(owner, 'POST', v4(studio, `location/${created.id}/location-room`), {
      name: 'Sala Lustrzana',
      capacity: 30,
    });
    expect(room).toMatchObject({ locationId: created.id, name: 'Sala Lustrzana', capacity: 30 });
    const roomTaken = await owner.post(v4(studio, `location/${created.id}/location-room`), {
      name: 'sala lustrzana',
      capacity: 3,
    });
    expect(roomTaken.status).toBe(409);
    expect(roomTaken.body.error.key).toBe('places.nameTaken');
  });

  it('archiving waits until no class uses the place; archived places leave the pickers and come back', async () => {
    const { studio, owner } = await ownerStudio();
    const location = await call(owner, 'POST', v4(studio, 'location'), {
      name: 'Żoliborz',
      rooms: [
        { name: 'Duża', capacity: 20 },
        { name: 'Mała', capacity: 6 },
      ],
    });
    const [big, small] = location.rooms.sort(
      (a: { capacity: number }, b: { capacity: number }) => b.capacity - a.capacity,
    );
    const service = await call(owner, 'POST', v4(studio, 'class-service'), {
      serviceType: 'classroom',
      name: lt('Pilates'),
      durationMinutes: 55,
    });
    const meta = await addMeta(owner, studio, service.id, { locationId: location.id, roomId: big.id });
    await call(owner, 'POST', v2(studio, 'schedule-events/generate'), { scheduleMetaIds: [meta.id] }, 200);

    const busy = await owner.post(v4(studio, `location/${location.id}/archive`));
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({ key: 'places.inUse', code: 1851 });
    expect(busy.body.error.message).toMatch(/1 recurring class.*upcoming class/);
    expect((await owner.post(v4(studio, `location-room/${big.id}/archive`))).status).toBe(409);
    // The small room has no class: it goes at once and leaves the schedule's pickers.
    const archivedRoom = await call(
      owner,
      'POST',
      v4(studio, `location-room/${small.id}/archive`),
      undefined,
      200,
    );
    expect(archivedRoom.archived).toBe(true);
    const rooms = await call(owner, 'GET', v4(studio, `location/${location.id}/location-room/collection`));
    expect(rooms.items.map((r: { id: string }) => r.id)).toEqual([big.id]);
    const metaInArchived = await owner.post(v2(studio, `class-services/${service.id}/schedule-metas`), {
      locationId: location.id,
      roomId: small.id,
      daysOfWeek: [2],
      startTime: '09:00',
      durationMinutes: 60,
      firstDate: '2026-11-24',
      capacity: 5,
    });
    expect(metaInArchived.status).toBe(400);
    expect(metaInArchived.body.error.fields.roomId).toEqual(['this room is archived']);
    const editArchived = await owner.patch(v4(studio, `location-room/${small.id}`), { capacity: 7 });
    expect(editArchived.status).toBe(409);
    expect(editArchived.body.error).toMatchObject({ key: 'places.archived', code: 1852 });

    // The series is ended (deleting it removes its future classes): now the location can go.
    await call(owner, 'DELETE', v2(studio, `schedule-metas/${meta.id}`), undefined, 204);
    const archived = await call(owner, 'POST', v4(studio, `location/${location.id}/archive`), undefined, 200);
    expect(archived.archived).toBe(true);
    expect((await call(owner, 'GET', v4(studio, 'location/collection'))).items).toEqual([]);
    expect((await call(owner, 'GET', v4(studio, 'location/all'))).items).toEqual([]);
    const archivedList = await call(owner, 'GET', v4(studio, 'location/all?status=archived'));
    expect(archivedList.items.map((l: { name: string }) => l.name)).toEqual(['Żoliborz']);
    const anonymous = await app.anonymous();
    const timetable = await anonymous.post(`/api/v4/${studio.id}/schedule`, {
      from: '2026-11-23',
      to: '2026-11-29',
    });
    expect(timetable.body.filters.locations).toEqual([]);
    const addRoom = await owner.post(v4(studio, `location/${location.id}/location-room`), {
      name: 'Nowa',
      capacity: 4,
    });
    expect(addRoom.status).toBe(409);
    expect(addRoom.body.error.key).toBe('places.archived');
    const restoreRoom = await owner.post(v4(studio, `location-room/${small.id}/restore`));
    expect(restoreRoom.status).toBe(409);

    // Another active location took the name meanwhile: restoring would clash.
    const namesake = await call(owner, 'POST', v4(studio, 'location'), { name: 'żoliborz' });
    const clash = await owner.post(v4(studio, `location/${location.id}/restore`));
    expect(clash.status).toBe(409);
    expect(clash.body.error.key).toBe('places.nameTaken');
    await call(owner, 'PATCH', v4(studio, `location/${namesake.id}`), { name: 'Bielany' });
    const restored = await call(owner, 'POST', v4(studio, `location/${location.id}/restore`), undefined, 200);
    expect(restored.archived).toBe(false);
    await call(owner, 'POST', v4(studio, `location-room/${small.id}/restore`), undefined, 200);
    const back = await call(owner, 'GET', v4(studio, 'location/collection'));
    expect(back.items.map((l: { name: string }) => l.name)).toEqual(['Bielany', 'Żoliborz']);
    expect(back.items[1].rooms).toHaveLength(2);
  });
});

describe('class services and categories', () => {
  it('creates classroom and course services with their defaults; the schedule offers them', async () => {
    const { studio, owner } = await ownerStudio();
    const level = await call(owner, 'POST', v2(studio, 'experience-levels'), {
      serviceType: 'course',
      name: 'Intermediate',
    });
    const category = await call(owner, 'POST', v4(studio, 'class-service-category'), {
      name: lt('Dance', 'Taniec'),
    });
    const second = await call(owner, 'POST', v4(studio, 'class-service-category'), {
      name: lt('Yoga', 'Joga'),
    });
    expect([category.position, second.position]).toEqual([0, 1]);
    const classroom = await call(owner, 'POST', v4(studio, 'class-service'), {
      serviceType: 'classroom',
      name: lt('Zumba'),
      durationMinutes: 60,
    });
    expect(classroom).toMatchObject({
      serviceType: 'classroom',
      durationMinutes: 60,
      defaultCapacity: null,
      color: '#228be6',
      categoryId: null,
      description: {},
      freeOfCharge: false,
      archived: false,
      activeMetaCount: 0,
    });
    const course = await call(owner, 'POST', v4(studio, 'class-service'), {
      serviceType: 'course',
      name: lt('Salsa course', 'Kurs salsy'),
      description: { pl: { value: 'Osiem tygodni od podstaw' } },
      durationMinutes: 90,
      defaultCapacity: 16,
      color: '#F76707',
      categoryId: category.id,
      experienceLevelId: level.id,
      freeOfCharge: true,
    });
    expect(course).toMatchObject({
      freeOfCharge: true,
      serviceType: 'course',
      defaultCapacity: 16,
      color: '#f76707',
      categoryId: category.id,
      experienceLevelId: level.id,
      description: { pl: { value: 'Osiem tygodni od podstaw' } },
    });
    const wrongLevel = await owner.post(v4(studio, 'class-service'), {
      serviceType: 'classroom',
      name: lt('Hatha'),
      durationMinutes: 60,
      experienceLevelId: level.id,
      categoryId: uuidv7(),
    });
    expect(wrongLevel.status).toBe(400);
    expect(wrongLevel.body.error.fields).toEqual({
      categoryId: ['unknown in this studio'],
      experienceLevelId: ['not a level of classroom services'],
    });
    const courses = await call(owner, 'GET', v4(studio, 'class-service/collection?serviceType=course'));
    expect(courses.items.map((s: { id: string }) => s.id)).toEqual([course.id]);
    const all = await call(owner, 'GET', v4(studio, 'class-service/all?serviceType=classroom'));
    expect(all.items.map((s: { id: string }) => s.id)).toEqual([classroom.id]);
    const categories = await call(owner, 'GET', v4(studio, 'class-service-category/all'));
    expect(categories.items.map((c: { serviceCount: number }) => c.serviceCount)).toEqual([1, 0]);
    const init = await call(owner, 'GET', v4(studio, 'class-service/init'));
    expect(init).toMatchObject({ timeZone: 'Europe/Warsaw', serviceTypes: ['classroom', 'course'] });
    expect(init.experienceLevels.map((l: { name: string }) => l.name)).toEqual(['Intermediate']);

    const edited = await call(owner, 'PATCH', v4(studio, `class-service/${course.id}`), {
      durationMinutes: 75,
      defaultCapacity: null,
      categoryId: null,
      name: lt('Salsa'),
      freeOfCharge: false,
    });
    expect(edited).toMatchObject({
      freeOfCharge: false,
      durationMinutes: 75,
      defaultCapacity: null,
      categoryId: null,
      serviceType: 'course',
    });
    expect(edited.name.en.value).toBe('Salsa');
  });

  it('an archived category keeps its services but takes no new ones; a service in use cannot be archived', async () => {
    const { studio, owner } = await ownerStudio();
    const location = await call(owner, 'POST', v4(studio, 'location'), { name: 'Centrum' });
    const category = await call(owner, 'POST', v4(studio, 'class-service-category'), {
      name: lt('Martial arts'),
    });
    const service = await call(owner, 'POST', v4(studio, 'class-service'), {
      serviceType: 'classroom',
      name: lt('Kickboxing'),
      durationMinutes: 60,
      categoryId: category.id,
    });
    const archivedCategory = await call(
      owner,
      'POST',
      v4(studio, `class-service-category/${category.id}/archive`),
      undefined,
      200,
    );
    expect(archivedCategory).toMatchObject({ archived: true, serviceCount: 1 });
    expect((await call(owner, 'GET', v4(studio, 'class-service-category/collection'))).items).toEqual([]);
    const kept = await call(owner, 'PATCH', v4(studio, `class-service/${service.id}`), {
      categoryId: category.id,
      durationMinutes: 50,
    });
    expect(kept.categoryId).toBe(category.id);
    const refused = await owner.post(v4(studio, 'class-service'), {
      serviceType: 'classroom',
      name: lt('Boxing'),
      durationMinutes: 60,
      categoryId: category.id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual({ categoryId: ['this category is archived'] });

    // A series that ended yesterday does not hold the service; one still running does.
    const ended = await addMeta(owner, studio, service.id, { locationId: location.id }, '2026-11-23');
    clock.set(new Date('2026-11-24T12:00:00Z'));
    try {
      const listed = await call(owner, 'GET', v4(studio, 'class-service/all'));
      expect(listed.items[0].activeMetaCount).toBe(0);
      const running = await addMeta(owner, studio, service.id, { locationId: location.id });
      const busy = await owner.post(v4(studio, `class-service/${service.id}/archive`));
      expect(busy.status).toBe(409);
      expect(busy.body.error.key).toBe('places.inUse');
      await call(owner, 'PATCH', v2(studio, `schedule-metas/${running.id}`), { lastDate: '2026-11-23' });
      const archived = await call(
        owner,
        'POST',
        v4(studio, `class-service/${service.id}/archive`),
        undefined,
        200,
      );
      expect(archived.archived).toBe(true);
      expect(ended.id).toBeDefined();
    } finally {
      clock.set(NOW);
    }
    expect((await call(owner, 'GET', v4(studio, 'class-service/collection'))).items).toEqual([]);
    const init = await call(owner, 'GET', v4(studio, 'schedule/init'));
    expect(init.classServices).toEqual([]);
    const newMeta = await owner.post(v2(studio, `class-services/${service.id}/schedule-metas`), {
      locationId: location.id,
      daysOfWeek: [3],
      startTime: '10:00',
      durationMinutes: 60,
      firstDate: '2026-11-25',
      capacity: 10,
    });
    expect(newMeta.status).toBe(409);
    expect(newMeta.body.error.key).toBe('places.archived');
    const patchArchived = await owner.patch(v4(studio, `class-service/${service.id}`), {
      durationMinutes: 40,
    });
    expect(patchArchived.status).toBe(409);
    const restored = await call(
      owner,
      'POST',
      v4(studio, `class-service/${service.id}/restore`),
      undefined,
      200,
    );
    expect(restored.archived).toBe(false);
    expect((await call(owner, 'GET', v4(studio, 'class-service/collection'))).items).toHaveLength(1);
  });
});

describe('experience levels', () => {
  it('reorders every level of a kind and deletes one; services that had it keep running without it', async () => {
    const { studio, owner } = await ownerStudio();
    const names = ['Beginner', 'Intermediate', 'Advanced'];
    const ids: string[] = [];
    for (const [i, name] of names.entries())
      ids.push(
        (
          await call(owner, 'POST', v2(studio, 'experience-levels'), {
            serviceType: 'classroom',
            name,
            position: i,
          })
        ).id,
      );
    const courseLevel = await call(owner, 'POST', v2(studio, 'experience-levels'), {
      serviceType: 'course',
      name: 'Open',
    });
    const reordered = await call(
      owner,
      'POST',
      v2(studio, 'experience-levels/reorder'),
      { serviceType: 'classroom', ids: [ids[2], ids[0], ids[1]] },
      200,
    );
    expect(reordered.items.map((l: { name: string; position: number }) => [l.name, l.position])).toEqual([
      ['Advanced', 0],
      ['Beginner', 1],
      ['Intermediate', 2],
    ]);
    const partial = await owner.post(v2(studio, 'experience-levels/reorder'), {
      serviceType: 'classroom',
      ids: [ids[0], ids[1]],
    });
    expect(partial.status).toBe(400);
    expect(partial.body.error.fields).toEqual({ ids: ['list every level of this service type once'] });
    const mixed = await owner.post(v2(studio, 'experience-levels/reorder'), {
      serviceType: 'classroom',
      ids: [...ids, courseLevel.id],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.fields).toEqual({ 'ids.3': ['not a level of classroom services'] });
    const unknown = await owner.post(v2(studio, 'experience-levels/reorder'), {
      serviceType: 'classroom',
      ids: [...ids, uuidv7()],
    });
    expect(unknown.status).toBe(404);

    const service = await call(owner, 'POST', v4(studio, 'class-service'), {
      serviceType: 'classroom',
      name: lt('Vinyasa'),
      durationMinutes: 60,
      experienceLevelId: ids[2],
    });
    await call(owner, 'DELETE', v2(studio, `experience-levels/${ids[2]}`), undefined, 204);
    expect((await owner.delete(v2(studio, `experience-levels/${ids[2]}`))).status).toBe(404);
    const levels = await call(owner, 'GET', v4(studio, 'experience-level/collection?serviceType=classroom'));
    expect(levels.items.map((l: { name: string }) => l.name)).toEqual(['Beginner', 'Intermediate']);
    const after = await call(owner, 'GET', v4(studio, 'class-service/all'));
    expect(after.items.find((s: { id: string }) => s.id === service.id).experienceLevelId).toBeNull();
  });
});
