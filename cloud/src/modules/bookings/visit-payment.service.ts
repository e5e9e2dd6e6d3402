import type { PricingOptionView } from '../../../../shared/contracts/api/catalog';
import type {
  CoveringPricingOption,
  HeldEntitlement,
  VisitPayOptions,
} from '../../../../shared/contracts/api/visit-payment';
import { visitPayRefusal } from '../../../../shared/domain/bookings';
import { contractRejection } from '../../../../shared/domain/contracts';
import {
  addLocalDays,
  derivePassState,
  localDateOf,
  passRejection,
  type PassCandidate,
  type VisitToPay,
} from '../../../../shared/domain/entitlements';
import type { PricingOptionExpirationType } from '../../../../shared/enums/pricing-options';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { passCandidatesFor } from '../catalog/index';
import { listPricingOptions } from '../catalog/index';
import { contractEntitlementsFor } from '../contracts/index';
import type { Studio } from '../identity/index';
import { providerViews } from '../sales/index';
import { myVisitsByIds } from './bookings-views.service';
import { clientTagIds, readEvent, type BookingEventRow } from './booking-facts.service';
import { reconcileVisits } from './enrollments.service';

/**
 * A client paying a visit booked "to pay at the desk" (front office "My visits"): what would pay it,
 * paying it with a pass they hold, and checking a pricing option bought for it (the cart). The rules
 * are the booking's (`passRejection`, `contractRejection`, `reconcileVisits` with a named pass).
 * Decisions: README "Paying a visit online".
 */

type LocaleText = Record<string, { value: string }>;

interface VisitRow {
  id: string;
  scheduleEventId: string;
  status: number;
  payment: string;
  paidAt: Date | null;
  startsAt: Date;
  className: LocaleText;
}

const fieldError = (
  key: 'visit.alreadyPaid' | 'visit.notPayable' | 'visit.passDoesNotCover',
  field: string,
) => {
  const message = {
    'visit.alreadyPaid': 'this visit is already paid',
    'visit.notPayable': 'this visit is cancelled or has no place, so there is nothing to pay',
    'visit.passDoesNotCover': 'this pass does not cover the class',
  }[key];
  return new AppError(key, { message, fields: { [field]: [message] } });
};

/** The client's own visit (another client's or another studio's: 404). */
async function visitOf(db: Db, studio: Studio, clientId: string, visitId: string): Promise<VisitRow> {
  const row = (await db('client_visits as v')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    .join('class_services as s', 's.id', 'e.class_service_id')
    .where({ 'v.studio_id': studio.id, 'v.client_id': clientId, 'v.id': visitId })
    .first(
      'v.id',
      'v.schedule_event_id',
      'v.status',
      'v.payment',
      'v.paid_at',
      'e.starts_at',
      's.name as class_name',
    )) as VisitRow | undefined;
  if (!row) throw AppError.notFound('visit');
  return row;
}

/** The refusal as the API's 409, on `field`; null when the visit is owed. */
export function visitPayError(
  visit: Pick<VisitRow, 'status' | 'payment' | 'paidAt'>,
  field: string,
): AppError | null {
  const refusal = visitPayRefusal(visit);
  return refusal === null ? null : fieldError(`visit.${refusal}`, field);
}

const isPayable = (visit: Pick<VisitRow, 'status' | 'payment' | 'paidAt'>) => visitPayRefusal(visit) === null;

const visitToPay = (event: BookingEventRow, tags: readonly string[]): VisitToPay => ({
  serviceType: event.serviceType,
  serviceId: event.classServiceId,
  locationId: event.locationId,
  startsAt: event.startsAt,
  clientTagIds: tags,
});

/** A pricing option as the pass it would become if sold now: its terms, no visits, no changes. */
export function optionAsPass(option: PricingOptionView, now: Date): PassCandidate {
  return {
    id: option.id,
    facts: {
      soldAt: now,
      terms: {
        expirationType: option.expirationType as PricingOptionExpirationType,
        validityCount: option.validityCount,
        validityUnit: option.validityUnit,
        validUntil: option.validUntil,
        entries: option.entries,
      },
      changes: [],
      visits: [],
    },
    coverage: {
      serviceTypes: option.serviceTypes as PassCandidate['coverage']['serviceTypes'],
      classServiceIds: option.restrictions.classServiceIds,
      locationIds: option.restrictions.locationIds,
      timeWindows: option.restrictions.timeWindows,
      tagIds: option.restrictions.tagIds,
    },
  };
}

/** What would pay the client's visit: held passes and memberships covering it, options on sale. */
export async function visitPayOptions(
  db: Db,
  studio: Studio,
  clientId: string,
  visitId: string,
  now: Date,
): Promise<VisitPayOptions> {
  const visit = await visitOf(db, studio, clientId, visitId);
  const refusal = visitPayError(visit, 'clientVisitId');
  if (refusal) throw refusal;
  const event = await readEvent(db, studio.id, visit.scheduleEventId);
  const tags = await clientTagIds(db, studio.id, clientId);
  const toPay = visitToPay(event, tags);
  const held: HeldEntitlement[] = [];

  const contracts = await contractEntitlementsFor(
    db,
    studio,
    clientId,
    addLocalDays(localDateOf(event.startsAt, studio.timeZone), -1),
  );
  const coveringContracts = contracts.filter((c) => contractRejection(c, toPay, studio.timeZone) === null);
  if (coveringContracts.length > 0) {
    const names = (await db('client_contracts')
      .where({ studioId: studio.id })
      .whereIn(
        'id',
        coveringContracts.map((c) => c.id),
      )
      .select('id', 'name')) as Array<{ id: string; name: LocaleText }>;
    for (const c of names) held.push({ kind: 'contract', id: c.id, name: c.name });
  }

  const passes = (await passCandidatesFor(db, studio, clientId)).filter(
    (p) => passRejection(p, toPay, studio.timeZone) === null,
  );
  if (passes.length > 0) {
    const names = new Map(
      (
        (await db('client_pricing_options as cpo')
          .join('pricing_options as po', 'po.id', 'cpo.pricing_option_id')
          .where('cpo.studio_id', studio.id)
          .whereIn(
            'cpo.id',
            passes.map((p) => p.id),
          )
          .select('cpo.id', 'po.name')) as Array<{ id: string; name: LocaleText }>
      ).map((r) => [r.id, r.name]),
    );
    for (const p of passes) {
      const state = derivePassState(p.facts, now, studio.timeZone);
      held.push({
        kind: 'pass',
        id: p.id,
        name: names.get(p.id) ?? {},
        entriesLeft: state.entriesLeft,
        expiresAt: state.expiresAt?.toISOString() ?? null,
      });
    }
  }

  const pricingOptions = await coveringOptionsOnSale(db, studio, clientId, toPay, now, 'online');

  const [view] = await myVisitsByIds(db, studio, [visitId], now);
  return {
    visit: view!,
    held,
    pricingOptions,
    onlinePayment: (await providerViews(db, studio.id)).some((p) => p.enabled),
  };
}

/**
 * The pricing options sold on `channel` that would cover the visit if bought now (the booking's own
 * rule, `passRejection`, on the option as a fresh pass), within each option's limit per client.
 */
async function coveringOptionsOnSale(
  db: Db,
  studio: Studio,
  clientId: string,
  toPay: VisitToPay,
  now: Date,
  channel: 'desk' | 'online',
): Promise<CoveringPricingOption[]> {
  const onSale = await listPricingOptions(db, studio, { archived: 'exclude', channel }, now);
  const limited = onSale.filter((o) => o.limitPerClient !== null).map((o) => o.id);
  const bought = new Map<string, number>();
  if (limited.length > 0)
    for (const r of (await db('client_pricing_options')
      .where({ studioId: studio.id, clientId })
      .whereIn('pricing_option_id', limited)
      .groupBy('pricing_option_id')
      .select('pricing_option_id', db.raw('count(*)::int as n'))) as Array<{
      pricingOptionId: string;
      n: number;
    }>)
      bought.set(r.pricingOptionId, Number(r.n));
  return onSale
    .filter((o) => o.limitPerClient === null || (bought.get(o.id) ?? 0) < o.limitPerClient)
    .filter((o) => passRejection(optionAsPass(o, now), toPay, studio.timeZone) === null)
    .map((o) => ({
      id: o.id,
      name: o.name,
      description: o.description,
      price: o.currentPrice,
      currency: o.currency,
      entries: o.entries,
      expirationType: o.expirationType,
      validityCount: o.validityCount,
      validityUnit: o.validityUnit,
      validUntil: o.validUntil,
    }));
}

/**
 * Pays the client's visit now with a pass they hold (or, without one named, with what the booking
 * rule chooses: a covering membership first). 404 another client's visit; 409 `visit.alreadyPaid`,
 * `visit.notPayable` (cancelled meanwhile), `visit.passDoesNotCover` (nothing changes).
 */
export async function payVisitWithHeldPass(
  trx: Db,
  studio: Studio,
  clientId: string,
  visitId: string,
  passId: string | undefined,
  now: Date,
): Promise<string> {
  const before = await visitOf(trx, studio, clientId, visitId);
  const refusal = visitPayError(before, 'clientVisitId');
  if (refusal) throw refusal;
  const result = await reconcileVisits(trx, studio, clientId, [visitId], now, { passId });
  if (result.reconciled.includes(visitId)) return visitId;
  if (result.unpaid.includes(visitId))
    throw fieldError('visit.passDoesNotCover', passId ? 'clientPricingOptionId' : 'clientVisitId');
  // Changed between the read and the lock (paid or cancelled by someone else): say what it is now.
  throw (
    visitPayError(await visitOf(trx, studio, clientId, visitId), 'clientVisitId') ??
    fieldError('visit.alreadyPaid', 'clientVisitId')
  );
}

/**
 * A pricing option in the cart for a visit: the visit (404 when it is not the client's) and why the
 * option cannot pay it (already paid, cancelled, not covered), or null when it would.
 */
export async function checkOptionForVisit(
  db: Db,
  studio: Studio,
  clientId: string,
  visitId: string,
  option: PricingOptionView,
  field: { visit: string; option: string },
  now: Date,
): Promise<{ visit: { id: string; startsAt: Date; className: LocaleText }; refusal: AppError | null }> {
  const visit = await visitOf(db, studio, clientId, visitId);
  const summary = { id: visit.id, startsAt: visit.startsAt, className: visit.className };
  const refusal = visitPayError(visit, field.visit);
  if (refusal) return { visit: summary, refusal };
  const event = await readEvent(db, studio.id, visit.scheduleEventId);
  const toPay = visitToPay(event, await clientTagIds(db, studio.id, clientId));
  const covers = passRejection(optionAsPass(option, now), toPay, studio.timeZone) === null;
  return { visit: summary, refusal: covers ? null : fieldError('visit.passDoesNotCover', field.option) };
}

/**
 * Fulfilment of a pass bought for a visit (sales): the new pass pays that visit, in the order's
 * transaction, when the visit is still owed and the pass covers it; otherwise the visit stays as it
 * is (the pass is the client's either way). Never throws a refusal: the money was taken for the pass.
 */
export async function payVisitWithBoughtPass(
  trx: Db,
  studio: Studio,
  clientId: string,
  visitId: string,
  passId: string,
  now: Date,
): Promise<boolean> {
  try {
    return await trx.transaction(async (sp) => {
      const visit = (await sp('client_visits')
        .where({ studioId: studio.id, clientId, id: visitId })
        .first('status', 'payment', 'paid_at')) as
        Pick<VisitRow, 'status' | 'payment' | 'paidAt'> | undefined;
      if (!visit || !isPayable(visit)) return false;
      const r = await reconcileVisits(sp, studio, clientId, [visitId], now, { passId });
      return r.reconciled.includes(visitId);
    });
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
}

/**
 * At the desk (issue 26): the passes sold at the desk that would cover this class for this client,
 * offered when enrolling them is refused for want of a pass. The sale itself is the POS's checkout;
 * enrolling again after it books the class with the new pass.
 */
export async function deskCoveringOptions(
  db: Db,
  studio: Studio,
  eventId: string,
  clientId: string,
  now: Date,
): Promise<{ items: CoveringPricingOption[] }> {
  const client = await db('clients').where({ studioId: studio.id, userId: clientId }).first('id');
  if (!client) throw AppError.notFound('client');
  const event = await readEvent(db, studio.id, eventId);
  const toPay = visitToPay(event, await clientTagIds(db, studio.id, clientId));
  return { items: await coveringOptionsOnSale(db, studio, clientId, toPay, now, 'desk') };
}
