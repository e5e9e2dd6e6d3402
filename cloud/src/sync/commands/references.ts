import type { Knex } from 'knex';
import { AppError } from '../../../../shared/errors';
import type { Outcome } from '../../../../shared/contracts/sync';

/**
 * The ids a sync command names, checked against the station's studio before its handler runs — the
 * same rule as the HTTP routes' studio scope (another studio's id is 404). A station of studio A that
 * names a client, class, pass or product of studio B gets the command rejected (even a fact, which is
 * otherwise never rejected: it is not a fact of this studio) and nothing is stored.
 *
 * An id no studio has is left to the handler (a new id the station chose, or its own rules' 404).
 */
const TABLES = {
  scheduleEvent: 'schedule_events',
  pass: 'client_pricing_options',
  visit: 'client_visits',
  kiosk: 'studio_kiosks',
  kioskEntry: 'kiosk_check_ins',
  entryService: 'entry_services',
  clientEntry: 'client_entries',
  clientAppointment: 'client_appointments',
  product: 'products',
  pricingOption: 'pricing_options',
  contract: 'contracts',
  sale: 'retail_sales',
  receipt: 'retail_receipts',
  shift: 'pos_shifts',
} as const;

export type ReferenceKind = 'client' | keyof typeof TABLES;

export interface StudioReference {
  kind: ReferenceKind;
  id: string | null | undefined;
  /** The argument's path, for the rejection's field errors (`lines.2.id`). */
  field: string;
}

/** A person is the studio's client when they have a standing (membership) in it. */
async function isForeign(
  trx: Knex,
  studioId: string,
  ref: StudioReference & { id: string },
): Promise<boolean> {
  if (ref.kind === 'client') {
    const person = await trx('users').where({ id: ref.id }).first('id');
    if (!person) return false;
    const standing = await trx('memberships').where({ studioId: studioId, userId: ref.id }).first('id');
    return !standing;
  }
  const row: { studioId: string } | undefined = await trx(TABLES[ref.kind])
    .where({ id: ref.id })
    .first('studio_id');
  return row !== undefined && row.studioId !== studioId;
}

/** The rejection for a command naming another studio's ids, or null when every id may be used. */
export async function foreignReferenceOutcome(
  trx: Knex,
  studioId: string,
  refs: StudioReference[],
): Promise<Outcome | null> {
  const fields: Record<string, string[]> = {};
  for (const ref of refs) {
    if (!ref.id) continue;
    if (await isForeign(trx, studioId, { ...ref, id: ref.id }))
      fields[ref.field] = ['not found in this studio'];
  }
  if (Object.keys(fields).length === 0) return null;
  const error = new AppError('resource.notFound', { message: 'the command names records of another studio' });
  return { status: 'rejected', code: error.code, key: error.key, message: error.message, fields };
}
