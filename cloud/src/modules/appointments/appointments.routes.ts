import type Router from '@koa/router';
import { v7 as uuidv7 } from 'uuid';
import { AppointmentsApi } from '../../../../shared/contracts/http/appointments';
import type { ClientAppointmentView } from '../../../../shared/contracts/api/appointments';
import { can, type Ability } from '../../../../shared/policies/abilities';
import { AppError } from '../../../../shared/errors';
import { derivePassState } from '../../../../shared/domain/entitlements/pass-validity';
import type { Db, Knex } from '../../db/knex';
import { abilitiesOf } from '../../http/abilities';
import type { AppContext, AppCustom, AppState, Deps } from '../../http/context';
import { defineRoute } from '../../http/route';
import type { Membership, Studio } from '../identity/index';
import {
  paymentOfRedirect,
  providerViews,
  registerLineFulfiller,
  requestProviderPayment,
  walletBalanceOf,
} from '../sales/index';
import { passCandidatesFor } from '../catalog/index';
import { contractEntitlementsFor } from '../contracts/index';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import {
  appointmentRow,
  assertClientOf,
  assertStaffMember,
  listCategories,
  listServices,
  locationsWithRooms,
  presentAppointments,
  presentCategory,
  presentOne,
  presentService,
  serviceRow,
  serviceWithMembers,
  staffMembers,
} from './appointments.rows';
import {
  clientBook,
  clientCancel,
  fulfilAppointmentLine,
  HOLD_MINUTES,
  markNoShow,
  moveAppointment,
  placeAppointment,
  choosePass,
  bookableService,
  staffDecide,
} from './booking.service';
import {
  archiveService,
  createService,
  memberSchedule,
  presentUnavailability,
  saveMemberSchedule,
  unavailabilities,
  updateService,
} from './services-admin.service';
import { findServiceSlots } from './slots.service';
import { appointmentInit, staffCalendar } from './views.service';
import { audienceOf, feedIcs, feedState, makeFeed, revokeFeed } from './calendar-feed';
import {
  completeGoogleConnection,
  disconnectGoogleCalendar,
  googleCalendarState,
  queueCalendarPush,
} from './calendar-sync/google-calendar.service';
import { refreshPassProjection } from '../catalog/index';

type Trx = Knex.Transaction;
const OVERRIDE: Ability = 'schedule.overrideRules';

// Paid online or from the wallet: the order's `appointment` line turns the reservation into the appointment.
registerLineFulfiller('appointment', async ({ trx, studio, now }, line) => {
  if (!line.refId) return null;
  const out = await fulfilAppointmentLine(trx, studio, line.refId, now);
  const row = await trx('client_appointments').where({ id: line.refId }).first('memberId', 'clientId');
  if (row) await queueCalendarPush(trx, studio.id, [row.memberId, row.clientId]);
  return out;
});

async function assertOverride(db: Db, membership: Membership): Promise<void> {
  if (!can(await abilitiesOf(db, membership), OVERRIDE))
    throw new AppError('appointment.overrideForbidden', {
      message: 'you may not override the booking rules',
    });
}

const originOf = (ctx: AppContext) => `${ctx.protocol}://${ctx.host}`;
const one = (db: Db, studio: Studio, id: string) => presentOne(db, studio.id, id);
/** After a change: the member's and client's connected calendars get a push job; the view. */
async function changed(
  db: Db,
  studio: Studio,
  row: { id: string; memberId: string; clientId: string | null },
) {
  await queueCalendarPush(db, studio.id, [row.memberId, row.clientId]);
  return one(db, studio, row.id);
}

function rangeOf(q: { from?: string; to?: string }, now: Date) {
  const from = q.from ? new Date(`${q.from}T00:00:00Z`) : new Date(now.getTime() - 7 * 86_400_000);
  const to = q.to
    ? new Date(Date.parse(`${q.to}T00:00:00Z`) + 2 * 86_400_000)
    : new Date(now.getTime() + 90 * 86_400_000);
  return { from, to };
}

async function clientList(
  db: Db,
  studio: Studio,
  clientId: string,
  when: 'upcoming' | 'past' | 'all',
  now: Date,
) {
  const q = db('client_appointments')
    .where({ studioId: studio.id, clientId })
    .whereNot('status', 'expired')
    .limit(200);
  if (when === 'upcoming') q.where('endsAt', '>', now).orderBy('startsAt', 'asc');
  else if (when === 'past') q.where('endsAt', '<=', now).orderBy('startsAt', 'desc');
  else q.orderBy('startsAt', 'desc');
  return { items: await presentAppointments(db, studio.id, await q.select('*')), next: null };
}

/** After the booking committed: the provider's transaction for an online payment (no lock held). */
async function callProvider<T extends { redirectUrl: string | null }>(
  result: T,
  { ctx, deps }: { ctx: AppContext; deps: Deps },
) {
  const paymentId = paymentOfRedirect(result.redirectUrl);
  if (paymentId) await requestProviderPayment(deps.knex, paymentId, originOf(ctx), ctx.state.log);
  return result;
}

/** Appointments (issue 21): `shared/contracts/http/appointments.ts`, module README. */
export function registerAppointmentsRoutes(router: Router<AppState, AppCustom>): void {
  // ---------------------------------------------------------------- services and categories
  defineRoute(router, { ...AppointmentsApi.init, handle: ({ db, studio }) => appointmentInit(db, studio) });
  defineRoute(router, {
    ...AppointmentsApi.serviceInit,
    handle: ({ db, studio }) => appointmentInit(db, studio),
  });
  defineRoute(router, {
    ...AppointmentsApi.serviceCollection,
    handle: async ({ db, studio }) => ({
      items: (await listServices(db, studio.id, { includeArchived: true })).map((s) =>
        presentService(s.row, s.memberIds, studio.currency),
      ),
      next: null,
    }),
  });
  defineRoute(router, {
    ...AppointmentsApi.serviceCategorized,
    handle: async ({ db, studio, membership }) => {
      const services = await listServices(db, studio.id, { onlineOnly: !membership.isMember });
      const categories = await listCategories(db, studio.id);
      const groups = [
        ...categories.map((c) => ({
          category: presentCategory(c),
          services: services.filter((s) => s.row.categoryId === c.id),
        })),
        { category: null, services: services.filter((s) => s.row.categoryId === null) },
      ].filter((g) => g.services.length > 0);
      return {
        items: groups.map((g) => ({
          category: g.category,
          services: g.services.map((s) => presentService(s.row, s.memberIds, studio.currency)),
        })),
        next: null,
      };
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.serviceCreate,
    handle: ({ db, studio, body }) => createService(db, studio, body),
  });
  defineRoute(router, {
    ...AppointmentsApi.serviceUpdate,
    handle: ({ db, studio, params, body }) => updateService(db, studio, params.appointmentService, body),
  });
  defineRoute(router, {
    ...AppointmentsApi.serviceArchive,
    handle: ({ db, studio, params, deps }) =>
      archiveService(db, studio, params.appointmentService, deps.clock.now()),
  });
  defineRoute(router, {
    ...AppointmentsApi.categoryCollection,
    handle: async ({ db, studio }) => ({
      items: (await listCategories(db, studio.id)).map(presentCategory),
      next: null,
    }),
  });
  defineRoute(router, {
    ...AppointmentsApi.categoryCreate,
    handle: async ({ db, studio, body }) => {
      const id = uuidv7();
      await db('appointment_service_categories').insert({
        id,
        studioId: studio.id,
        name: JSON.stringify(body.name),
        position: body.position ?? 0,
      });
      return presentCategory((await db('appointment_service_categories').where({ id }).first())!);
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.categoryUpdate,
    handle: async ({ db, studio, params, body }) => {
      const n = await db('appointment_service_categories')
        .where({ studioId: studio.id, id: params.category })
        .update({
          name: JSON.stringify(body.name),
          ...(body.position !== undefined ? { position: body.position } : {}),
          updatedAt: new Date(),
        });
      if (n === 0) throw AppError.notFound('appointment service category');
      return presentCategory(
        (await db('appointment_service_categories').where({ id: params.category }).first())!,
      );
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.categoryDelete,
    handle: async ({ db, studio, params }) => {
      // Its services stay, uncategorized (the foreign key sets null).
      const n = await db('appointment_service_categories')
        .where({ studioId: studio.id, id: params.category })
        .delete();
      if (n === 0) throw AppError.notFound('appointment service category');
      return undefined;
    },
  });

  // ---------------------------------------------------------------- slots and calendar
  defineRoute(router, {
    ...AppointmentsApi.find,
    handle: async ({ db, studio, membership, body, deps }) => {
      const asClient = !membership.isMember;
      // Two round trips in all: the service with its performers, then everything slots depend on.
      const { service, memberIds } = await serviceWithMembers(db, studio.id, body.serviceId);
      if (service.archivedAt || (asClient && !service.bookableOnline))
        throw AppError.notFound('appointment service');
      return findServiceSlots(db, studio, service, memberIds, body, deps.clock.now(), asClient);
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.eventInit,
    handle: ({ db, studio, query, deps }) => staffCalendar(db, studio, query, deps.clock.now()),
  });
  defineRoute(router, {
    ...AppointmentsApi.eventCollection,
    handle: async ({ db, studio, params, query, deps }) => {
      await serviceRow(db, studio.id, params.appointmentService);
      const { from, to } = rangeOf(query, deps.clock.now());
      const rows = await db('client_appointments')
        .where({ studioId: studio.id, serviceId: params.appointmentService })
        .where('startsAt', '>=', from)
        .where('startsAt', '<', to)
        .orderBy('startsAt')
        .limit(500)
        .select('*');
      return { items: await presentAppointments(db, studio.id, rows), next: null };
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.eventGet,
    handle: ({ db, studio, params }) => one(db, studio, params.appointmentEvent),
  });

  // ---------------------------------------------------------------- staff booking and decisions
  defineRoute(router, {
    ...AppointmentsApi.enrollmentInit,
    handle: async ({ db, studio, query, deps }) => {
      const service = await serviceRow(db, studio.id, query.serviceId);
      const { memberIds } = await bookableService(db as Trx, studio, service.id);
      const members = (await staffMembers(db, studio.id)).filter((m) => memberIds.includes(m.id));
      let passes: Array<{ id: string; name: Record<string, { value: string }>; entriesLeft: number | null }> =
        [];
      let walletBalance: number | null = null;
      let contracts: Array<{ id: string; name: Record<string, { value: string }> }> = [];
      if (query.clientId) {
        await assertClientOf(db, studio.id, query.clientId);
        passes = await coveringPasses(db, studio, query.clientId, deps.clock.now());
        contracts = await coveringContracts(db, studio, query.clientId, deps.clock.now());
        walletBalance = await walletBalanceOf(db, studio.id, query.clientId);
      }
      return {
        service: presentService(service, memberIds, studio.currency),
        members,
        passes,
        contracts,
        walletBalance,
        onlinePayment: (await providerViews(db, studio.id)).some((p) => p.enabled),
      };
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.enroll,
    handle: async ({ db, studio, membership, auth, body, deps }): Promise<ClientAppointmentView> => {
      const trx = db as Trx;
      const now = deps.clock.now();
      if (body.override) await assertOverride(db, membership);
      await assertClientOf(db, studio.id, body.clientId);
      const { service } = await bookableService(trx, studio, body.serviceId);
      const startsAt = new Date(body.startsAt);
      const payment = body.payment ?? 'pass';
      const { passId, contractId } =
        payment === 'pass'
          ? await choosePass(trx, studio, service, body.clientId, startsAt, body.clientPricingOptionId)
          : { passId: null, contractId: null };
      const row = await placeAppointment(
        trx,
        studio,
        {
          serviceId: body.serviceId,
          memberId: body.memberId,
          startsAt,
          clientId: body.clientId,
          bookedBy: 'staff',
          actorId: auth.user.id,
          override: body.override,
          note: body.note,
        },
        {
          status: 'booked',
          heldUntil: null,
          payment: contractId ? 'contract' : payment,
          clientPricingOptionId: passId,
          clientContractId: contractId,
          price: payment === 'desk' ? (service.price ?? 0) : 0,
        },
        now,
      );
      if (passId) await refreshPassProjection(trx, studio, passId, now);
      return changed(db, studio, row);
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.reserve,
    handle: async ({ db, studio, auth, body, deps }) => {
      const now = deps.clock.now();
      if (body.clientId) await assertClientOf(db, studio.id, body.clientId);
      const { service } = await bookableService(db as Trx, studio, body.serviceId);
      const row = await placeAppointment(
        db as Trx,
        studio,
        {
          serviceId: body.serviceId,
          memberId: body.memberId,
          startsAt: new Date(body.startsAt),
          clientId: body.clientId ?? null,
          bookedBy: 'staff',
          actorId: auth.user.id,
        },
        {
          status: 'reserved',
          heldUntil: new Date(now.getTime() + (body.holdMinutes ?? HOLD_MINUTES) * 60_000),
          payment: 'desk',
          clientPricingOptionId: null,
          price: service.price ?? 0,
        },
        now,
      );
      return changed(db, studio, row);
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.clientCollection,
    handle: async ({ db, studio, params, query, deps }) => {
      await assertClientOf(db, studio.id, params.user);
      return clientList(db, studio, params.user, query.when ?? 'all', deps.clock.now());
    },
  });
  for (const [entry, action] of [
    [AppointmentsApi.confirm, 'confirm'],
    [AppointmentsApi.reject, 'reject'],
    [AppointmentsApi.callOff, 'callOff'],
    [AppointmentsApi.checkIn, 'present'],
  ] as const)
    defineRoute(router, {
      ...entry,
      handle: async ({ db, studio, auth, body, deps }) => {
        const row = await staffDecide(
          db as Trx,
          studio,
          body.clientAppointmentId,
          action,
          auth.user.id,
          body.reason ?? '',
          deps.clock.now(),
        );
        return changed(db, studio, row);
      },
    });
  defineRoute(router, {
    ...AppointmentsApi.noShow,
    handle: async ({ db, studio, auth, body, deps }) => {
      const row = await markNoShow(
        db as Trx,
        studio,
        body.clientAppointmentId,
        auth.user.id,
        body.chargeFee ?? true,
        deps.clock.now(),
      );
      return changed(db, studio, row);
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.move,
    handle: async ({ db, studio, membership, body, deps }) => {
      if (body.override) await assertOverride(db, membership);
      const row = await moveAppointment(
        db as Trx,
        studio,
        body.clientAppointmentId,
        { startsAt: new Date(body.startsAt), memberId: body.memberId, override: body.override ?? false },
        deps.clock.now(),
      );
      return changed(db, studio, row);
    },
  });

  // ---------------------------------------------------------------- hours and unavailability
  defineRoute(router, {
    ...AppointmentsApi.scheduleInit,
    handle: async ({ db, studio, params }) => {
      const member = await assertStaffMember(db, studio.id, params.user);
      const services = (await listServices(db, studio.id)).filter((s) => s.memberIds.includes(member.id));
      return {
        member,
        schedule: await memberSchedule(db, studio.id, member.id),
        locations: await locationsWithRooms(db, studio.id),
        services: services.map((s) => ({ id: s.row.id, name: s.row.name })),
      };
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.scheduleCollection,
    handle: async ({ db, studio, params }) => {
      await assertStaffMember(db, studio.id, params.user);
      return memberSchedule(db, studio.id, params.user);
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.scheduleSave,
    handle: async ({ db, studio, params, body }) => {
      await assertStaffMember(db, studio.id, params.user);
      return saveMemberSchedule(db, studio.id, params.user, body);
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.unavailabilityInit,
    handle: async ({ db, studio, params, deps }) => {
      await assertStaffMember(db, studio.id, params.user);
      return {
        items: await unavailabilities(db, studio.id, params.user, deps.clock.now(), null),
        next: null,
      };
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.unavailabilityCollection,
    handle: async ({ db, studio, params, query, deps }) => {
      await assertStaffMember(db, studio.id, params.user);
      const { from, to } = rangeOf(query, deps.clock.now());
      return {
        items: await unavailabilities(db, studio.id, params.user, from, query.to ? to : null),
        next: null,
      };
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.unavailabilityCreate,
    handle: async ({ db, studio, params, body, auth }) => {
      await assertStaffMember(db, studio.id, params.user);
      const id = uuidv7();
      await db('appointment_unavailabilities').insert({
        id,
        studioId: studio.id,
        memberId: params.user,
        startsAt: body.startsAt,
        endsAt: body.endsAt,
        reason: body.reason ?? '',
        createdBy: auth.user.id,
      });
      return presentUnavailability((await db('appointment_unavailabilities').where({ id }).first())!);
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.unavailabilityDelete,
    handle: async ({ db, studio, params }) => {
      const n = await db('appointment_unavailabilities')
        .where({ studioId: studio.id, id: params.unavailability })
        .delete();
      if (n === 0) throw AppError.notFound('appointment unavailability');
      return undefined;
    },
  });

  // ---------------------------------------------------------------- front office
  defineRoute(router, {
    ...AppointmentsApi.myAppointments,
    handle: ({ db, studio, auth, body, deps }) =>
      clientList(db, studio, auth.user.id, body.when ?? 'upcoming', deps.clock.now()),
  });
  defineRoute(router, {
    ...AppointmentsApi.clientInit,
    handle: async ({ db, studio, auth, deps }) => {
      const services = await listServices(db, studio.id, { onlineOnly: true });
      const memberIds = new Set(services.flatMap((s) => s.memberIds));
      return {
        timeZone: studio.timeZone,
        currency: studio.currency,
        categories: (await listCategories(db, studio.id)).map(presentCategory),
        services: services.map((s) => presentService(s.row, s.memberIds, studio.currency)),
        members: (await staffMembers(db, studio.id)).filter((m) => memberIds.has(m.id)),
        passes: await coveringPasses(db, studio, auth.user.id, deps.clock.now()),
        contracts: await coveringContracts(db, studio, auth.user.id, deps.clock.now()),
        walletBalance: await walletBalanceOf(db, studio.id, auth.user.id),
        onlinePayment: (await providerViews(db, studio.id)).some((p) => p.enabled),
      };
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.book,
    handle: async ({ db, studio, auth, body, deps }) => {
      const { appointment, redirectUrl } = await clientBook(
        db as Trx,
        studio,
        auth.user.id,
        { ...body, startsAt: new Date(body.startsAt) },
        deps.clock.now(),
      );
      return { appointment: await changed(db, studio, appointment), redirectUrl };
    },
    present: callProvider,
  });
  // ---------------------------------------------------------------- calendar feeds
  defineRoute(router, {
    ...AppointmentsApi.feedGet,
    handle: ({ db, studio, auth, membership }) => feedState(db, studio, auth.user.id, audienceOf(membership)),
  });
  defineRoute(router, {
    ...AppointmentsApi.feedCreate,
    handle: ({ db, studio, auth, membership, ctx }) =>
      makeFeed(db, studio, auth.user.id, audienceOf(membership), originOf(ctx)),
  });
  defineRoute(router, {
    ...AppointmentsApi.feedRevoke,
    handle: async ({ db, studio, auth, membership }) => {
      await revokeFeed(db, studio, auth.user.id, audienceOf(membership));
      return undefined;
    },
  });
  // ---------------------------------------------------------------- Google Calendar
  defineRoute(router, {
    ...AppointmentsApi.googleCalendarGet,
    handle: ({ db, studio, auth, query, ctx, deps }) =>
      googleCalendarState(db, studio, auth.user.id, originOf(ctx), query.returnTo, deps.clock.now()),
  });
  defineRoute(router, {
    ...AppointmentsApi.googleCalendarDelete,
    handle: async ({ db, studio, auth }) => {
      await disconnectGoogleCalendar(db, studio, auth.user.id);
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.googleCalendarCallback,
    handle: async ({ query, ctx, deps }) => {
      ctx.redirect(await completeGoogleConnection(deps.knex, query, originOf(ctx), deps.clock.now()));
      return undefined;
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.feedIcs,
    handle: async ({ db, params, deps, ctx }) => {
      const ics = await feedIcs(db, params.token, deps.clock.now());
      ctx.set('Cache-Control', 'private, max-age=300');
      return ics;
    },
  });
  defineRoute(router, {
    ...AppointmentsApi.cancel,
    handle: async ({ db, studio, auth, body, deps }) => {
      await appointmentRow(db, studio.id, body.clientAppointmentId);
      const row = await clientCancel(
        db as Trx,
        studio,
        auth.user.id,
        body.clientAppointmentId,
        deps.clock.now(),
      );
      return changed(db, studio, row);
    },
  });
}

/** The client's passes that may pay appointments now (covering the appointment kind, not expired, entries left). */
/** The client's contracts that cover appointments today or later (names for the booking forms). */
async function coveringContracts(db: Db, studio: Studio, clientId: string, now: Date) {
  const today = localDateOf(now, studio.timeZone);
  const covering = (await contractEntitlementsFor(db, studio, clientId, today)).filter((c) =>
    c.coverage.serviceTypes.includes('appointmentPricingOption'),
  );
  if (covering.length === 0) return [];
  const names = new Map(
    (
      await db('client_contracts as cc')
        .join('contracts as c', 'c.id', 'cc.contract_id')
        .where('cc.studio_id', studio.id)
        .whereIn(
          'cc.id',
          covering.map((c) => c.id),
        )
        .select('cc.id', 'c.name')
    ).map((r: { id: string; name: Record<string, { value: string }> }) => [r.id, r.name]),
  );
  return covering.map((c) => ({ id: c.id, name: names.get(c.id) ?? {} }));
}

async function coveringPasses(db: Db, studio: Studio, clientId: string, now: Date) {
  const candidates = await passCandidatesFor(db, studio, clientId);
  const usable = candidates
    .filter((p) => p.coverage.serviceTypes.includes('appointmentPricingOption'))
    .map((p) => ({ p, state: derivePassState(p.facts, now, studio.timeZone) }))
    .filter(
      ({ state }) =>
        (!state.expiresAt || state.expiresAt > now) && (state.entriesLeft === null || state.entriesLeft > 0),
    );
  if (usable.length === 0) return [];
  const names = new Map(
    (
      await db('client_pricing_options as cpo')
        .join('pricing_options as po', 'po.id', 'cpo.pricing_option_id')
        .where('cpo.studio_id', studio.id)
        .whereIn(
          'cpo.id',
          usable.map((u) => u.p.id),
        )
        .select('cpo.id', 'po.name')
    ).map((r: { id: string; name: Record<string, { value: string }> }) => [r.id, r.name]),
  );
  return usable.map(({ p, state }) => ({
    id: p.id,
    name: names.get(p.id) ?? {},
    entriesLeft: state.entriesLeft,
  }));
}
