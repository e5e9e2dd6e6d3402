import { v7 as uuidv7 } from 'uuid';
import type {
  CheckInMethod,
  KioskBooking,
  KioskCheckInResult,
  KioskClass,
  KioskClient,
  KioskIdentifyInput,
  KioskPassReason,
  KioskTicket,
} from '../../../../shared/contracts/api/kiosk';
import { parseScannedIdentity } from '../../../../shared/domain/accounts/identity';
import { attendanceRefusal, checkInOpensAt } from '../../../../shared/domain/bookings/timing';
import { foldSearchText } from '../../../../shared/domain/clients/search';
import { choosePassForVisit, localDateOf, type PassCandidate } from '../../../../shared/domain/entitlements';
import { resolveLocaleText } from '../../../../shared/domain/locale-text/locale-text';
import { ClientVisitStatus as V } from '../../../../shared/enums/visits';
import { AppError } from '../../../../shared/errors';
import type { ClientsRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import { clientSchedule } from '../bookings/index';
import {
  bookVisit,
  changeEnrollmentStatus,
  clientTagIds,
  readEvent,
  settingsOf as bookingSettingsOf,
  standingVisit,
  type BookingEventRow,
} from '../bookings/index';
import { passCandidatesFor } from '../catalog/index';
import { findClientByIdentity } from '../client-accounts/index';
import { entryDecisions, kioskEntryServices, recordEntry } from '../entries/index';
import type { Studio } from '../identity/index';
import type { KioskRow } from './kiosk-admin.service';
import { lockTarget, smartLockRow } from './kiosk-admin.service';
import { smartLockDriverFor } from './smart-lock-driver';

type LocaleText = Record<string, { value: string } | undefined>;

/** A client as the kiosk greets them. */
type KioskClientRow = Pick<ClientsRow, 'userId' | 'firstName' | 'lastName'>;

const methodDisabled = () =>
  new AppError('kiosk.methodDisabled', { message: 'this kiosk does not check in that way' });

const clientNotFound = (field: string) =>
  new AppError('kiosk.clientNotFound', {
    message: 'no client found',
    fields: { [field]: ['no client found'] },
  });

/** The client a card, a QR code or a name with a birth date names: a live client of this studio. */
async function findKioskClient(
  db: Db,
  studio: Studio,
  kiosk: KioskRow,
  input: KioskIdentifyInput,
): Promise<{ client: KioskClientRow; by: CheckInMethod }> {
  const allowed = kiosk.settings.checkInMethods;
  if (input.method === 'code') {
    const scanned = parseScannedIdentity(input.code);
    if (!scanned) throw clientNotFound('code');
    if (!allowed.includes(scanned.kind)) throw methodDisabled();
    const found = await findClientByIdentity(db, studio.id, input.code);
    if (!found || found.archived || !(await isLiveClient(db, studio.id, found.userId)))
      throw clientNotFound('code');
    return { client: found, by: scanned.kind };
  }
  if (!allowed.includes('name')) throw methodDisabled();
  // The same folding as the clients table's search keys: case and Polish letters do not matter.
  const rows = (await db('clients as c')
    .join('memberships as m', (j) => j.on('m.studio_id', 'c.studio_id').andOn('m.user_id', 'c.user_id'))
    .where('c.studio_id', studio.id)
    .whereNull('c.archived_at')
    .where('m.is_client', true)
    .whereNull('m.archived_at')
    .where('c.first_key', foldSearchText(input.firstName))
    .where('c.last_key', foldSearchText(input.lastName))
    .where('c.birth_date', input.birthDate)
    .limit(2)
    .select('c.user_id', 'c.first_name', 'c.last_name')) as KioskClientRow[];
  if (rows.length === 0) throw clientNotFound('lastName');
  if (rows.length > 1)
    throw new AppError('kiosk.clientAmbiguous', {
      message: 'more than one client has this name and birth date: please ask at the desk',
    });
  return { client: rows[0]!, by: 'name' };
}

async function isLiveClient(db: Db, studioId: string, userId: string): Promise<boolean> {
  const row = await db('memberships')
    .where({ studioId, userId, isClient: true })
    .whereNull('archived_at')
    .first('id');
  return Boolean(row);
}

async function requireLiveClient(db: Db, studio: Studio, clientId: string): Promise<KioskClientRow> {
  const row = (await db('clients as c')
    .join('memberships as m', (j) => j.on('m.studio_id', 'c.studio_id').andOn('m.user_id', 'c.user_id'))
    .where({ 'c.studio_id': studio.id, 'c.user_id': clientId, 'm.is_client': true })
    .whereNull('c.archived_at')
    .whereNull('m.archived_at')
    .first('c.user_id', 'c.first_name', 'c.last_name')) as KioskClientRow | undefined;
  if (!row) throw AppError.notFound('client');
  return row;
}

/** Why no pass pays: the pass-choice rule's reason, or a counted entry pass (see README). */
function passReason(
  passes: readonly PassCandidate[],
  visit: Parameters<typeof choosePassForVisit>[1],
  timeZone: string,
): { ok: true; passId: string } | { ok: false; reason: KioskPassReason } {
  const choice = choosePassForVisit(passes, visit, timeZone);
  return choice.ok ? { ok: true, passId: choice.passId } : { ok: false, reason: choice.reason };
}

/** Check-in is open from the studio's opening before the start until the end (issue 26: the studio's setting). */
function checkInOpen(event: { startsAt: Date; endsAt: Date }, now: Date, opensMinutes: number): boolean {
  return attendanceRefusal('present', event.startsAt, now, opensMinutes) === null && now < event.endsAt;
}

/**
 * What the kiosk shows a client it has identified: today's bookings (check in), today's classes still
 * to start (book), and whether an entry pass lets them in — each with the reason when not.
 */
export async function identifyClient(
  db: Db,
  studio: Studio,
  kiosk: KioskRow,
  input: KioskIdentifyInput,
  now: Date,
): Promise<KioskClient> {
  const { client, by } = await findKioskClient(db, studio, kiosk, input);
  const today = localDateOf(now, studio.timeZone);
  const schedule = await clientSchedule(db, studio, client.userId, { from: today, to: today }, now);
  const { checkInOpensMinutes } = await bookingSettingsOf(db, studio);
  const eventIds = schedule.items.map((i) => i.scheduleEventId);
  const events = new Map<
    string,
    {
      name: LocaleText;
      startsAt: Date;
      endsAt: Date;
      locationId: string;
      serviceType: BookingEventRow['serviceType'];
      classServiceId: string;
      status: string;
    }
  >();
  if (eventIds.length > 0) {
    const rows = (await db('schedule_events as e')
      .join('class_services as s', 's.id', 'e.class_service_id')
      .where('e.studio_id', studio.id)
      .whereIn('e.id', eventIds)
      .select(
        'e.id',
        's.name',
        's.service_type',
        'e.class_service_id',
        'e.location_id',
        'e.starts_at',
        'e.ends_at',
        'e.status',
      )) as Array<{
      id: string;
      name: LocaleText;
      serviceType: BookingEventRow['serviceType'];
      classServiceId: string;
      locationId: string;
      startsAt: Date;
      endsAt: Date;
      status: string;
    }>;
    for (const r of rows)
      events.set(r.id, { ...r, startsAt: new Date(r.startsAt), endsAt: new Date(r.endsAt) });
  }
  const tags = await clientTagIds(db, studio.id, client.userId);
  const passes = await passCandidatesFor(db, studio, client.userId);

  const bookings: KioskBooking[] = [];
  const classes: KioskClass[] = [];
  for (const item of schedule.items) {
    const event = events.get(item.scheduleEventId);
    if (!event || event.status !== 'scheduled' || event.endsAt <= now) continue;
    if (kiosk.locationId && event.locationId !== kiosk.locationId) continue;
    const base = {
      scheduleEventId: item.scheduleEventId,
      className: event.name,
      startsAt: event.startsAt.toISOString(),
      endsAt: event.endsAt.toISOString(),
    };
    const visit = item.myVisit;
    if (visit && [V.booked, V.present, V.unconfirmed, V.waitingList].includes(visit.status as never)) {
      const state =
        visit.status === V.present
          ? 'present'
          : visit.status === V.unconfirmed
            ? 'unpaid'
            : visit.status === V.waitingList
              ? 'waitingList'
              : 'booked';
      bookings.push({
        ...base,
        visitId: visit.id,
        state,
        canCheckIn: state === 'booked' && checkInOpen(event, now, checkInOpensMinutes),
        checkInOpensAt: checkInOpensAt(event.startsAt, checkInOpensMinutes).toISOString(),
      });
      continue;
    }
    if (visit || event.startsAt <= now) continue;
    let reason: string | null = item.bookOutcome === 'booked' ? null : (item.refusal ?? 'classFull');
    if (item.refusal === 'noPass') {
      const why = passReason(
        passes,
        {
          serviceType: event.serviceType,
          serviceId: event.classServiceId,
          locationId: event.locationId,
          startsAt: event.startsAt,
          clientTagIds: tags,
        },
        studio.timeZone,
      );
      reason = why.ok ? 'noPass' : why.reason;
    }
    classes.push({ ...base, placesLeft: item.placesLeft, canBook: reason === null, reason });
  }
  return {
    client: { id: client.userId, firstName: client.firstName, lastName: client.lastName },
    identifiedBy: by,
    bookings,
    classes,
    entry: await kioskEntryAvailability(db, studio, kiosk, client.userId, passes, tags, now),
  };
}

/**
 * Whether the client may enter now. With entry services at the kiosk's location (issue 22,
 * modules/entries): the first service whose limits and pass rule let them in; else the entry-pass
 * rule with no service (the kiosk's first design, README "Entry passes").
 */
async function kioskEntryAvailability(
  db: Db,
  studio: Studio,
  kiosk: KioskRow,
  clientId: string,
  passes: readonly PassCandidate[],
  tags: readonly string[],
  now: Date,
): Promise<KioskClient['entry']> {
  const services = await kioskEntryServices(db, studio, kiosk.locationId);
  if (services.length > 0) {
    const decisions = await entryDecisions(db, studio, clientId, services, now, {
      locationId: kiosk.locationId,
    });
    const fit = decisions.find((d) => d.refusal === null);
    return fit ? { available: true, reason: null } : { available: false, reason: decisions[0]!.refusal };
  }
  const e = entryDecision(passes, kiosk, tags, studio, now);
  return e.available ? { available: true, reason: null } : { available: false, reason: e.reason };
}

export function entryDecision(
  passes: readonly PassCandidate[],
  kiosk: KioskRow,
  tags: readonly string[],
  studio: Studio,
  now: Date,
): { available: true; passId: string } | { available: false; reason: KioskPassReason } {
  const why = passReason(
    passes,
    {
      serviceType: 'entry',
      serviceId: null,
      locationId: kiosk.locationId,
      startsAt: now,
      clientTagIds: tags,
    },
    studio.timeZone,
  );
  if (!why.ok) return { available: false, reason: why.reason };
  // Entries of a pass are derived from visits (catalog); an entry at the door is no visit, so a pass
  // that counts entries could not be charged here: such a client goes to the desk (README).
  const pass = passes.find((p) => p.id === why.passId)!;
  if (pass.facts.terms.entries !== null) return { available: false, reason: 'countedEntryPass' };
  return { available: true, passId: why.passId };
}

export interface KioskOutcome {
  result: KioskCheckInResult;
  /** Opens the kiosk's lock after the transaction committed and fills in `result.lock`. */
  openLock(db: Db): Promise<void>;
}

function noPassCovers(reason: KioskPassReason, field: string): AppError {
  return new AppError('kiosk.noPassCovers', {
    message: `no pass covers this (${reason})`,
    fields: { [field]: [reason] },
  });
}

async function logAndLock(
  trx: Db,
  studio: Studio,
  kiosk: KioskRow,
  entry: {
    clientId: string;
    kind: 'visit' | 'booking' | 'entry';
    visitId: string | null;
    passId: string | null;
    opens: boolean;
  },
  result: KioskCheckInResult,
): Promise<KioskOutcome> {
  const id = uuidv7();
  const lockRow =
    entry.opens && kiosk.smartLockId ? await smartLockRow(trx, studio.id, kiosk.smartLockId) : null;
  await trx('kiosk_check_ins').insert({
    id,
    studioId: studio.id,
    kioskId: kiosk.id,
    clientId: entry.clientId,
    kind: entry.kind,
    clientVisitId: entry.visitId,
    clientPricingOptionId: entry.passId,
    lockResult: 'none',
  });
  return {
    result,
    async openLock(db) {
      if (!lockRow) return;
      const target = lockTarget(lockRow);
      const answer = await smartLockDriverFor(target).open(target, {
        reason: entry.kind === 'entry' ? 'entry' : 'checkIn',
        clientId: entry.clientId,
      });
      result.lock = answer.ok ? 'opened' : 'failed';
      await db('kiosk_check_ins').where({ id }).update({ lockResult: result.lock });
    },
  };
}

function ticketFor(
  studio: Studio,
  kiosk: KioskRow,
  client: KioskClientRow,
  now: Date,
  event: { name: LocaleText; startsAt: Date } | null,
): KioskTicket | null {
  if (!kiosk.settings.printTicket) return null;
  return {
    kind: 'checkIn',
    studioName: studio.name,
    clientName: `${client.firstName} ${client.lastName}`.trim(),
    checkedInAt: now.toISOString(),
    ...(event
      ? {
          className: resolveLocaleText(event.name, null, studio.defaultLocale),
          startsAt: event.startsAt.toISOString(),
        }
      : {}),
  };
}

/**
 * Check-in at the kiosk: a booked client is marked present (the bookings module's attendance rule);
 * a client not on the class is booked first as a self-booking (online rules and the pass rule bind);
 * when the class is still more than an hour away the booking stands and check-in waits.
 */
export async function kioskCheckIn(
  trx: Db,
  studio: Studio,
  kiosk: KioskRow,
  input: { clientId: string; scheduleEventId: string },
  now: Date,
): Promise<KioskOutcome> {
  const client = await requireLiveClient(trx, studio, input.clientId);
  const event = await readEvent(trx, studio.id, input.scheduleEventId);
  if (kiosk.locationId && event.locationId !== kiosk.locationId) throw AppError.notFound('class');
  let visit = await standingVisit(trx, studio.id, event.id, client.userId);
  let booked = false;
  if (!visit) {
    if (!event.freeOfCharge) {
      const settings = await bookingSettingsOf(trx, studio);
      const why = passReason(
        await passCandidatesFor(trx, studio, client.userId),
        {
          serviceType: event.serviceType,
          serviceId: event.classServiceId,
          locationId: event.locationId,
          startsAt: event.startsAt,
          clientTagIds: await clientTagIds(trx, studio.id, client.userId),
        },
        studio.timeZone,
      );
      if (!why.ok && !settings.payAtDeskAllowed) throw noPassCovers(why.reason, 'scheduleEventId');
    }
    const made = await bookVisit(
      trx,
      studio,
      {
        actor: 'self',
        actorUserId: null,
        clientId: client.userId,
        eventId: event.id,
        override: false,
        waitingListWanted: false,
      },
      now,
    );
    booked = true;
    visit = { id: made.visitId, status: made.outcome === 'booked' ? V.booked : V.unconfirmed };
  }
  const name = event.serviceName as LocaleText;
  const base = {
    className: name,
    startsAt: event.startsAt.toISOString(),
    lock: 'none' as const,
    ticket: null,
  };
  if (visit.status === V.waitingList)
    throw new AppError('visit.statusNotAllowed', {
      message: 'on the waiting list: please ask at the desk',
      fields: { scheduleEventId: ['waitingList'] },
    });
  if (visit.status === V.unconfirmed) {
    // Pay at the desk first: the booking stands, the door stays shut.
    if (booked)
      return logAndLock(
        trx,
        studio,
        kiosk,
        { clientId: client.userId, kind: 'booking', visitId: visit.id, passId: null, opens: false },
        { outcome: 'booked', ...base },
      );
    throw new AppError('visit.statusNotAllowed', {
      message: 'to be paid at the desk',
      fields: { scheduleEventId: ['unpaid'] },
    });
  }
  if (!checkInOpen(event, now, (await bookingSettingsOf(trx, studio)).checkInOpensMinutes)) {
    if (booked)
      return logAndLock(
        trx,
        studio,
        kiosk,
        { clientId: client.userId, kind: 'booking', visitId: visit.id, passId: null, opens: false },
        { outcome: 'booked', ...base },
      );
    throw new AppError('visit.tooEarly', {
      message: 'check-in opens an hour before the class',
      fields: { scheduleEventId: ['tooEarly'] },
    });
  }
  // `present` records no actor (only fees and cancels do); the kiosk id stands in for the desk's user.
  if (visit.status !== V.present)
    await changeEnrollmentStatus(trx, studio, [visit.id], 'present', kiosk.id, false, now);
  const passRow = (await trx('client_visits').where({ id: visit.id }).first('client_pricing_option_id')) as {
    clientPricingOptionId: string | null;
  };
  return logAndLock(
    trx,
    studio,
    kiosk,
    {
      clientId: client.userId,
      kind: 'visit',
      visitId: visit.id,
      passId: passRow.clientPricingOptionId,
      opens: true,
    },
    {
      outcome: 'checkedIn',
      ...base,
      ticket: ticketFor(studio, kiosk, client, now, { name, startsAt: event.startsAt }),
    },
  );
}

/** Entry with an entry pass (no class): the pass rule for an `entry` service at the kiosk's location. */
export async function kioskEntry(
  trx: Db,
  studio: Studio,
  kiosk: KioskRow,
  clientId: string,
  now: Date,
  entryServiceId?: string,
): Promise<KioskOutcome> {
  const client = await requireLiveClient(trx, studio, clientId);
  const services = await kioskEntryServices(trx, studio, kiosk.locationId);
  if (services.length > 0) {
    // Entry services (modules/entries): the chosen one, else the first the client may enter now.
    const decisions = await entryDecisions(trx, studio, client.userId, services, now, {
      locationId: kiosk.locationId,
    });
    const chosen = entryServiceId
      ? decisions.find((d) => d.service.id === entryServiceId)
      : (decisions.find((d) => d.refusal === null) ?? decisions[0]);
    if (!chosen) throw AppError.notFound('entry service');
    if (chosen.refusal) throw noPassCovers(chosen.refusal, 'clientId');
    const entry = await recordEntry(
      trx,
      studio,
      {
        clientId: client.userId,
        entryServiceId: chosen.service.id,
        withoutPass: false,
        source: 'kiosk',
        enrolledByUserId: null,
        kioskId: kiosk.id,
        kioskLocationId: kiosk.locationId,
      },
      now,
    );
    return logAndLock(
      trx,
      studio,
      kiosk,
      { clientId: client.userId, kind: 'entry', visitId: null, passId: entry.passId, opens: true },
      {
        outcome: 'entered',
        className: chosen.service.name as LocaleText,
        startsAt: null,
        lock: 'none',
        ticket: ticketFor(studio, kiosk, client, now, null),
      },
    );
  }
  if (entryServiceId) throw AppError.notFound('entry service');
  const passes = await passCandidatesFor(trx, studio, client.userId);
  const tags = await clientTagIds(trx, studio.id, client.userId);
  const decision = entryDecision(passes, kiosk, tags, studio, now);
  if (!decision.available) throw noPassCovers(decision.reason, 'clientId');
  return logAndLock(
    trx,
    studio,
    kiosk,
    { clientId: client.userId, kind: 'entry', visitId: null, passId: decision.passId, opens: true },
    {
      outcome: 'entered',
      className: null,
      startsAt: null,
      lock: 'none',
      ticket: ticketFor(studio, kiosk, client, now, null),
    },
  );
}
