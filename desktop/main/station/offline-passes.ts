import type { ClientPricingOptionView } from '../../../shared/contracts/api/catalog';
import {
  choosePassForVisit,
  derivePassState,
  localDateOf,
  localDaysBetween,
  visitHoldsEntry,
  type PassCandidate,
  type PassFacts,
  type PassVisit,
  type ValidityUnit,
} from '../../../shared/domain/entitlements';
import type { PricingOptionExpirationType } from '../../../shared/enums/pricing-options';
import type { ServiceType } from '../../../shared/enums/services';
import type { ClientVisitStatus } from '../../../shared/enums/visits';
import type { LocalStore, Row } from '../sync/local-store';

/**
 * A client's passes as the desk knows them without the cloud: the Passes tab's
 * `GET client/{user}/client-pricing-option/all`, read from the station's SQLite copy.
 *
 * The state is derived as the cloud derives it (`derivePassState`: nothing is a stored counter), from
 * the facts the copy holds: the pass as sold, its visits, and what this desk did that the cloud has
 * not confirmed yet:
 * - a pass sold here offline (`recordSale`) is listed, provisional;
 * - a visit recorded here offline (booking, check-in, cancellation, absence) changes the entries of
 *   the pass it is paid with. A new visit has no pass yet (the cloud allocates one); it is counted on
 *   the pass the cloud's rule would choose (`choosePassForVisit`: valid at the visit's time, the
 *   earliest to expire first), provisionally;
 * - such a pass says so (`provisional: true`, "Waiting to sync").
 *
 * What the copy does not hold: staff changes (extend, freeze, entries) and visits older than the
 * device's window. The end of validity is the cloud's own (its `expires_at` projection includes
 * extensions and freezes), and the entries are those the copy can count.
 */
export const offlineClientPasses = passesOf('own');

/** Passes other clients share with this one (`shared-for-me`), derived the same way. */
export const offlineSharedPasses = passesOf('shared');

function passesOf(
  whose: 'own' | 'shared',
): (store: LocalStore, userId: string, now: Date, timeZone: string) => ClientPricingOptionView[] {
  return (store, userId, now, timeZone) =>
    offlinePassesAndAllocations(store, userId, now, timeZone).passes.filter(
      (p) => (p.clientId === userId) === (whose === 'own'),
    );
}

/**
 * The pass rows a client may spend: their own and those shared with them (the mirror's
 * `client_pricing_option_shares`), own first. Literal SQL, so the partial indexes serve it.
 */
export function passRowsUsableBy(store: LocalStore, userId: string): Row[] {
  const own = parsed(
    store.db
      .prepare(
        `select data from rows where tbl = 'client_pricing_options' and json_extract(data, '$.client_id') = ?`,
      )
      .all(userId),
  );
  const shared = parsed(
    store.db
      .prepare(
        `select p.data as data from rows sh
           join rows p on p.tbl = 'client_pricing_options' and p.id = json_extract(sh.data, '$.client_pricing_option_id')
          where sh.tbl = 'client_pricing_option_shares' and json_extract(sh.data, '$.user_id') = ?`,
      )
      .all(userId),
  );
  const seen = new Set(own.map((p) => p.id));
  return [...own, ...shared.filter((p) => !seen.has(p.id))];
}

/** Every visit paid with this pass, whoever's (a shared pass is spent by several clients). */
export function visitRowsOfPass(store: LocalStore, passId: string): Row[] {
  return parsed(
    store.db
      .prepare(
        `select data from rows where tbl = 'client_visits' and json_extract(data, '$.client_pricing_option_id') = ?`,
      )
      .all(passId),
  );
}

function parsed(rows: unknown[]): Row[] {
  return (rows as Array<{ data: string }>).map((r) => JSON.parse(r.data) as Row);
}

/**
 * The visits this desk recorded that the cloud has not given a pass yet, each with the pass the
 * Passes tab counts it on (visit id → pass id): the Visits tab names the same pass, provisionally.
 */
export function offlineVisitAllocations(
  store: LocalStore,
  userId: string,
  now: Date,
  timeZone: string,
): Map<string, string> {
  return offlinePassesAndAllocations(store, userId, now, timeZone).allocated;
}

function offlinePassesAndAllocations(
  store: LocalStore,
  userId: string,
  now: Date,
  timeZone: string,
): { passes: ClientPricingOptionView[]; allocated: Map<string, string> } {
  const allocated = new Map<string, string>();
  const passes = passRowsUsableBy(store, userId);
  const visits = parsed(
    store.db
      .prepare(`select data from rows where tbl = 'client_visits' and json_extract(data, '$.client_id') = ?`)
      .all(userId),
  );
  const options = new Map<string, Row | null>();
  const optionOf = (id: string) => {
    if (!options.has(id)) options.set(id, store.get('pricing_options', id));
    return options.get(id) ?? null;
  };

  const facts = new Map<string, PassFacts>();
  const provisional = new Set<string>();
  for (const pass of passes) {
    const paid = visitRowsOfPass(store, pass.id);
    facts.set(pass.id, factsOf(pass, optionOf(String(pass.pricing_option_id)), paid, timeZone));
    if (isProvisional(store, 'client_pricing_options', pass.id) || pass.provisional === true)
      provisional.add(pass.id);
    // A visit of this pass changed here (cancelled, marked absent…): its entries are the desk's guess.
    if (paid.some((v) => isProvisional(store, 'client_visits', v.id))) provisional.add(pass.id);
  }

  // Visits recorded here that the cloud has not given a pass yet: on the pass its rule would choose.
  const unallocated = visits
    .filter(
      (v) =>
        !v.client_pricing_option_id &&
        v.payment !== 'desk' &&
        visitHoldsEntry(Number(v.status)) &&
        isProvisional(store, 'client_visits', v.id),
    )
    .sort((a, b) => String(a.starts_at).localeCompare(String(b.starts_at)));
  for (const visit of unallocated) {
    const event = store.get('schedule_events', String(visit.schedule_event_id));
    const service = event ? store.get('class_services', String(event.class_service_id)) : null;
    const startsAt = new Date(String(visit.starts_at ?? event?.starts_at ?? now.toISOString()));
    const candidates: PassCandidate[] = passes.map((pass) => ({
      id: pass.id,
      facts: facts.get(pass.id)!,
      coverage: coverageOf(optionOf(String(pass.pricing_option_id))),
    }));
    const choice = choosePassForVisit(
      candidates,
      {
        serviceType: (service?.service_type as ServiceType | undefined) ?? 'classroom',
        serviceId: event ? String(event.class_service_id) : null,
        locationId: event ? String(event.location_id) : null,
        startsAt,
        clientTagIds: tagIdsOf(store, userId),
      },
      timeZone,
    );
    if (!choice.ok) continue;
    allocated.set(visit.id, choice.passId);
    const chosen = facts.get(choice.passId)!;
    facts.set(choice.passId, {
      ...chosen,
      visits: [...chosen.visits, { startsAt, status: Number(visit.status) as ClientVisitStatus }],
    });
    provisional.add(choice.passId);
  }

  const views = passes
    .map((pass) => {
      const option = optionOf(String(pass.pricing_option_id));
      const state = derivePassState(facts.get(pass.id)!, now, timeZone);
      const view: ClientPricingOptionView = {
        id: pass.id,
        clientId: String(pass.client_id),
        pricingOptionId: String(pass.pricing_option_id),
        name: (option?.name as ClientPricingOptionView['name'] | undefined) ?? {},
        status: state.status,
        inactiveReason: state.inactiveReason,
        soldAt: isoOf(pass.sold_at ?? pass.created_at) ?? now.toISOString(),
        pricePaid: pass.price_paid === null || pass.price_paid === undefined ? null : Number(pass.price_paid),
        activatedAt: state.activatedAt ? state.activatedAt.toISOString() : null,
        expiresAt: state.expiresAt ? state.expiresAt.toISOString() : null,
        lastValidDate: state.lastValidDate,
        expirationType: Number(facts.get(pass.id)!.terms.expirationType),
        entriesTotal: state.entriesTotal,
        entriesUsed: state.entriesUsed,
        entriesLeft: state.entriesLeft,
        frozenNow: state.frozenNow,
        freezes: state.freezes,
        serviceTypes: Array.isArray(option?.service_types) ? (option.service_types as string[]) : [],
        sharedWith: sharedWithOf(store, pass.id),
        ...(provisional.has(pass.id) ? { provisional: true } : {}),
      };
      return view;
    })
    .sort((a, b) => b.soldAt.localeCompare(a.soldAt) || b.id.localeCompare(a.id));
  return { passes: views, allocated };
}

/** Whom a pass is shared with, as the cloud lists them (names from the mirror's clients). */
function sharedWithOf(store: LocalStore, passId: string): ClientPricingOptionView['sharedWith'] {
  return parsed(
    store.db
      .prepare(
        `select data from rows where tbl = 'client_pricing_option_shares'
            and json_extract(data, '$.client_pricing_option_id') = ?`,
      )
      .all(passId),
  ).map((share) => {
    const client = store.clientByUser(String(share.user_id));
    return {
      userId: String(share.user_id),
      firstName: String(client?.first_name ?? ''),
      lastName: String(client?.last_name ?? ''),
    };
  });
}

/** A key a pending local command made or changed (its server version is kept in `shadow`). */
function isProvisional(store: LocalStore, tbl: string, id: string): boolean {
  return Boolean(store.db.prepare('select 1 from shadow where tbl = ? and id = ?').get(tbl, id));
}

function isoOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const time = Date.parse(String(value));
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

function dateOnly(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return String(value).slice(0, 10);
}

/**
 * The pass's facts as the copy holds them. Staff changes are not in the copy; the cloud's projection
 * of the end (`expires_at`, which counts extensions and freezes) stands in for them as an extension,
 * so the validity shown is the cloud's.
 */
function factsOf(pass: Row, option: Row | null, visits: Row[], timeZone: string): PassFacts {
  // A pass sold here offline carries only what the sale knew: its option's terms stand in.
  const term = (key: string): unknown => (pass[key] === undefined ? option?.[key] : pass[key]);
  const count = (key: string): number | null => {
    const value = term(key);
    return value === null || value === undefined ? null : Number(value);
  };
  const facts: PassFacts = {
    soldAt: new Date(String(pass.sold_at ?? pass.created_at)),
    terms: {
      expirationType: Number(term('expiration_type') ?? 0) as PricingOptionExpirationType,
      validityCount: count('validity_count'),
      validityUnit: (term('validity_unit') as ValidityUnit | null | undefined) ?? null,
      validUntil: dateOnly(term('valid_until')),
      entries: count('entries'),
    },
    changes: [],
    visits: visits.map((v): PassVisit => ({
      startsAt: new Date(String(v.starts_at)),
      status: Number(v.status) as ClientVisitStatus,
    })),
  };
  const projected = isoOf(pass.expires_at);
  if (!projected) return facts;
  const derived = derivePassState(facts, new Date(projected), timeZone).expiresAt;
  if (!derived) return facts;
  const days = localDaysBetween(localDateOf(derived, timeZone), localDateOf(new Date(projected), timeZone));
  return days > 0 ? { ...facts, changes: [{ kind: 'extend', days }] } : facts;
}

function coverageOf(option: Row | null): PassCandidate['coverage'] {
  const restrictions = (option?.restrictions ?? {}) as Partial<
    Record<'classServiceIds' | 'locationIds' | 'tagIds', string[]> & {
      timeWindows: PassCandidate['coverage']['timeWindows'];
    }
  >;
  return {
    serviceTypes: (Array.isArray(option?.service_types)
      ? option.service_types
      : []) as PassCandidate['coverage']['serviceTypes'],
    classServiceIds: restrictions.classServiceIds ?? [],
    locationIds: restrictions.locationIds ?? [],
    timeWindows: restrictions.timeWindows ?? [],
    tagIds: restrictions.tagIds ?? [],
  };
}

function tagIdsOf(store: LocalStore, userId: string): string[] {
  return (
    store.db
      .prepare(
        `select json_extract(data, '$.tag_id') as tag from rows
          where tbl = 'user_tags' and json_extract(data, '$.user_id') = ?`,
      )
      .all(userId) as Array<{ tag: string }>
  ).map((r) => r.tag);
}
