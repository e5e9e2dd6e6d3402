import { v7 as uuidv7 } from 'uuid';
import type {
  SetupStep,
  SetupStepKey,
  StudioConfigureInput,
  StudioSetupView,
  StudioTypeKey,
} from '../../../../shared/contracts/api/studio-setup';
import { SETUP_STEPS, STUDIO_TYPE_KEYS } from '../../../../shared/contracts/api/studio-setup';
import { StudioType } from '../../../../shared/enums/studios';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { findStudio, type Studio } from '../identity/index';
import { insertLocation, insertRooms, placeNamed } from '../place-records/index';
import { providerViews, switchOffOnlinePayments } from '../sales/index';

/**
 * The studio's first-run setup (issue 25, spec §7 PATCH configure; README "First-run setup"). The
 * checklist is derived from the studio's own records every time it is read, so a step done on its
 * own screen ticks without anyone telling the setup; only the dismissal and the answer "we take
 * payments at the desk only" are stored (`studios.settings.setup.dismissedAt`,
 * `studios.settings.payments`). The first location and room are written through
 * `place-records`, the row writes the places module uses too: importing places itself (which
 * imports schedule, which imports this module) would close a module cycle.
 */

/** Where each step is done in the back office (its hash routes). */
const STEP_PATHS: Record<SetupStepKey, string> = {
  profile: '/settings/studio',
  location: '/places/locations',
  classes: '/schedule',
  pricing: '/catalog',
  payments: '/settings/payment-providers',
  team: '/staff',
};

const object = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const filled = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

/** The studio's stored answer "we take payments at the desk only" (`studios.settings.payments`). */
const atDeskOnly = (studio: Studio): boolean => object(studio.settings.payments).atDeskOnly === true;

const exists = async (query: PromiseLike<unknown[]>): Promise<boolean> => (await query).length > 0;

/** Each step's state, from the studio's data (one small indexed query per step). */
async function stepsOf(db: Db, studio: Studio): Promise<SetupStep[]> {
  const studioId = studio.id;
  const profile = object(studio.settings.profile);
  // One after another: on a request's transaction the queries share one connection.
  const location = await exists(
    db('locations as l')
      .join('location_rooms as r', function () {
        this.on('r.location_id', 'l.id').andOn('r.studio_id', 'l.studio_id');
      })
      .where('l.studio_id', studioId)
      .whereNull('l.archived_at')
      .whereNull('r.archived_at')
      .select('l.id')
      .limit(1),
  );
  // A class service with a class on the timetable (a series or a single class, not removed).
  const classes = await exists(
    db('class_services as s')
      .where('s.studio_id', studioId)
      .whereNull('s.archived_at')
      .where((q) =>
        q
          .whereExists(
            db('schedule_events as e')
              .whereRaw('e.studio_id = s.studio_id and e.class_service_id = s.id')
              .whereNull('e.removed_at')
              .select(db.raw('1')),
          )
          .orWhereExists(
            db('schedule_metas as m')
              .whereRaw('m.studio_id = s.studio_id and m.class_service_id = s.id')
              .select(db.raw('1')),
          ),
      )
      .select('s.id')
      .limit(1),
  );
  const pricing = await exists(
    db('pricing_options')
      .where({ studioId })
      .whereNull('archived_at')
      .where((q) => q.where('sell_online', true).orWhere('sell_at_desk', true))
      .select('id')
      .limit(1),
  );
  // Configured or decided: the studio said it takes payments at the desk only, or made any saved
  // choice on Payment providers (enabling one, or switching one off).
  const payments =
    atDeskOnly(studio) ||
    (await exists(db('studio_payment_providers').where({ studioId }).select('id').limit(1)));
  const [staff] = await db('memberships')
    .where({ studioId, isMember: true })
    .whereNull('archived_at')
    .count<{ count: string | number }[]>('id as count');
  const team = Number(staff?.count ?? 0) >= 2;
  const done: Record<SetupStepKey, boolean> = {
    profile:
      filled(profile.legalName) &&
      filled(studio.addressLine) &&
      filled(studio.postalCode) &&
      filled(studio.city),
    location,
    classes,
    pricing,
    payments,
    team,
  };
  return SETUP_STEPS.map((key) => ({
    key,
    done: done[key],
    path: STEP_PATHS[key],
  }));
}

const LOCATION_COLUMNS = ['id', 'name', 'address_line', 'postal_code', 'city'] as const;

/** The studio's first location (the oldest one not archived) and that location's first room. */
async function firstPlace(db: Db, studioId: string, lock = false) {
  const locationQuery = db('locations')
    .where({ studioId })
    .whereNull('archived_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first(...LOCATION_COLUMNS);
  const location = (await (lock ? locationQuery.forUpdate() : locationQuery)) as
    { id: string; name: string; addressLine: string; postalCode: string; city: string } | undefined;
  if (!location) return { location: null, room: null };
  const roomQuery = db('location_rooms')
    .where({ studioId, locationId: location.id })
    .whereNull('archived_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first('id', 'name', 'capacity');
  const room = (await (lock ? roomQuery.forUpdate() : roomQuery)) as
    { id: string; name: string; capacity: number } | undefined;
  return { location, room: room ?? null };
}

const typeKeyOf = (value: number): StudioTypeKey =>
  STUDIO_TYPE_KEYS.find((key) => StudioType[key] === value) ?? 'other';

export async function setupView(db: Db, studio: Studio): Promise<StudioSetupView> {
  const steps = await stepsOf(db, studio);
  const place = await firstPlace(db, studio.id);
  const setup = object(studio.settings.setup);
  // The choice stands while no online provider is on: one switched on later supersedes it.
  const deskOnly =
    atDeskOnly(studio) && !(await providerViews(db, studio.id)).some((provider) => provider.enabled);
  return {
    setup: {
      dismissedAt: typeof setup.dismissedAt === 'string' ? setup.dismissedAt : null,
      complete: steps.every((step) => step.done),
      steps,
    },
    values: {
      studioType: typeKeyOf(studio.studioType),
      timeZone: studio.timeZone,
      currency: studio.currency,
      defaultLanguage: studio.defaultLocale,
      location: place.location,
      room: place.room,
      paymentsAtDeskOnly: deskOnly,
    },
  };
}

/** PATCH configure: everything in the request's transaction, the studio row locked first. */
export async function configureStudio(
  trx: Db,
  studio: Studio,
  input: StudioConfigureInput,
  now: Date,
): Promise<StudioSetupView> {
  // Settings are read-modified-written: the lock keeps a concurrent PATCH studio from losing either.
  const locked = await trx('studios').where({ id: studio.id }).forUpdate().first('settings');
  const settings = object(locked?.settings);
  const columns: Record<string, unknown> = {};
  if (input.studioType !== undefined) columns.studioType = StudioType[input.studioType];
  if (input.timeZone !== undefined) columns.timeZone = input.timeZone;
  if (input.currency !== undefined) columns.currency = input.currency;
  if (input.defaultLanguage !== undefined) columns.defaultLocale = input.defaultLanguage;
  if (input.dismissed !== undefined)
    settings.setup = { ...object(settings.setup), dismissedAt: input.dismissed ? now.toISOString() : null };
  if (input.paymentsAtDeskOnly !== undefined)
    settings.payments = input.paymentsAtDeskOnly
      ? { ...object(settings.payments), atDeskOnly: true, decidedAt: now.toISOString() }
      : { ...object(settings.payments), atDeskOnly: false };
  if (input.dismissed !== undefined || input.paymentsAtDeskOnly !== undefined)
    columns.settings = JSON.stringify(settings);
  if (Object.keys(columns).length > 0)
    await trx('studios')
      .where({ id: studio.id })
      .update({ ...columns, updatedAt: now });

  // Honest: "at the desk only" means no client is offered an online payment from now on.
  if (input.paymentsAtDeskOnly) await switchOffOnlinePayments(trx, studio.id);

  if (input.location || input.room) {
    const place = await firstPlace(trx, studio.id, true);
    let locationId = place.location?.id ?? null;
    if (input.location) {
      const { name, addressLine = '', postalCode = '', city = '' } = input.location;
      if (locationId) {
        const id = locationId;
        await placeNamed('location.name', () =>
          trx('locations')
            .where({ studioId: studio.id, id })
            .update({ name, addressLine, postalCode, city, updatedAt: now }),
        );
      } else {
        const id = uuidv7();
        await insertLocation(trx, studio.id, { id, name, addressLine, postalCode, city }, 'location.name');
        locationId = id;
      }
    }
    if (input.room) {
      if (!locationId)
        throw AppError.invalid({ room: ['add the first location with the room, or create one first'] });
      const { name, capacity } = input.room;
      const room = locationId === place.location?.id ? place.room : null;
      if (room)
        await placeNamed('room.name', () =>
          trx('location_rooms')
            .where({ studioId: studio.id, id: room.id })
            .update({ name, capacity, updatedAt: now }),
        );
      else await insertRooms(trx, studio.id, [{ id: uuidv7(), locationId, name, capacity }], 'room.name');
    }
  }

  const fresh = await findStudio(trx, studio.id);
  if (!fresh) throw AppError.notFound('studio');
  return setupView(trx, fresh);
}
