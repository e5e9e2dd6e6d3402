import { v7 as uuidv7 } from 'uuid';
import type {
  ContractInput,
  ContractList,
  ContractPatch,
  ContractView,
  PublicContractPriceList,
} from '../../../../shared/contracts/api/contracts';
import type { PricingOptionRestrictionInit } from '../../../../shared/contracts/api/catalog';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text/locale-text';
import { TagType } from '../../../../shared/enums/clients';
import { pricingOptionServiceTypeOf, type ServiceType } from '../../../../shared/enums/services';
import { AppError, type FieldErrors } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { presentContract, presentOffer, type ContractRow } from './contracts.presenter';
import { readAll } from '../../db/read-all';

/** Contracts (memberships) as the studio sells them: the catalog side. */

function selectContracts(db: Db, studioId: string) {
  return db('contracts as c')
    .leftJoin('taxes as t', 't.id', 'c.tax_id')
    .where('c.studio_id', studioId)
    .select(
      'c.*',
      't.rate_bp as joined_tax_rate_bp',
      db.raw(
        `(select count(*) from client_contracts cc where cc.contract_id = c.id and (cc.ends_on is null or cc.ends_on >= current_date)) as active_client_contracts`,
      ),
    );
}

export async function contractRow(db: Db, studioId: string, id: string, lock = false): Promise<ContractRow> {
  if (lock) await db('contracts').where({ studioId, id }).forUpdate().first('id');
  const row = (await selectContracts(db, studioId).where('c.id', id).first()) as ContractRow | undefined;
  if (!row) throw AppError.notFound('contract');
  return row;
}

export async function listContracts(
  db: Db,
  studio: Studio,
  filter: { archived: 'include' | 'only' | 'exclude'; channel?: 'desk' | 'online' },
): Promise<ContractList> {
  const query = selectContracts(db, studio.id).orderBy([
    { column: 'c.position' },
    { column: 'c.created_at' },
    { column: 'c.id' },
  ]);
  if (filter.archived === 'exclude') query.whereNull('c.archived_at');
  if (filter.archived === 'only') query.whereNotNull('c.archived_at');
  if (filter.channel === 'desk') query.where('c.sell_at_desk', true);
  if (filter.channel === 'online') query.where('c.sell_online', true);
  const rows = (await query.limit(1000)) as ContractRow[];
  return { items: rows.map((r) => presentContract(r, studio.currency)), next: null };
}

export async function getContract(db: Db, studio: Studio, id: string): Promise<ContractView> {
  return presentContract(await contractRow(db, studio.id, id), studio.currency);
}

/** Ids in the body that name nothing of this studio: field errors, every one reported. */
async function referenceErrors(
  db: Db,
  studioId: string,
  input: Partial<ContractInput>,
): Promise<FieldErrors> {
  const fields: FieldErrors = {};
  const missing = async (table: string, field: string, ids: string[], extra?: Record<string, unknown>) => {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return;
    const found = (await db(table)
      .where({ studio_id: studioId, ...extra })
      .whereIn('id', unique)
      .select('id')) as Array<{ id: string }>;
    if (found.length !== unique.length) fields[field] = ['unknown in this studio'];
  };
  if (input.taxId) await missing('taxes', 'taxId', [input.taxId]);
  const r = input.restrictions;
  if (r) {
    await missing('class_services', 'restrictions.classServiceIds', r.classServiceIds);
    await missing('locations', 'restrictions.locationIds', r.locationIds);
    await missing('tags', 'restrictions.tagIds', r.tagIds, { type: TagType.client });
  }
  return fields;
}

export async function createContract(trx: Db, studio: Studio, input: ContractInput): Promise<ContractView> {
  const fields = await referenceErrors(trx, studio.id, input);
  if (Object.keys(fields).length) throw AppError.invalid(fields);
  let taxId = input.taxId;
  if (taxId === undefined) {
    const fallback = (await trx('taxes').where({ studioId: studio.id, isDefault: true }).first('id')) as
      { id: string } | undefined;
    taxId = fallback?.id ?? null;
  }
  const id = uuidv7();
  await trx('contracts').insert({
    id,
    studioId: studio.id,
    name: JSON.stringify(input.name),
    description: JSON.stringify(input.description ?? {}),
    price: input.price,
    periodUnit: input.periodUnit,
    periodLength: input.periodLength,
    durationPeriods: input.durationPeriods,
    activationType: input.activationType,
    proRata: input.proRata ?? false,
    serviceTypes: JSON.stringify(input.serviceTypes),
    restrictions: JSON.stringify(input.restrictions ?? {}),
    noticePeriods: input.noticePeriods ?? 1,
    signUpFee: input.signUpFee ?? 0,
    taxId,
    sellAtDesk: input.sellAtDesk ?? true,
    sellOnline: input.sellOnline ?? true,
    position: input.position ?? 0,
  });
  return getContract(trx, studio, id);
}

export async function updateContract(
  trx: Db,
  studio: Studio,
  id: string,
  patch: ContractPatch,
): Promise<ContractView> {
  await contractRow(trx, studio.id, id, true);
  const fields = await referenceErrors(trx, studio.id, patch);
  if (Object.keys(fields).length) throw AppError.invalid(fields);
  const columns: Record<string, unknown> = {};
  const set = (key: keyof ContractPatch, column: string, value: (v: never) => unknown = (v) => v) => {
    if (patch[key] !== undefined) columns[column] = value(patch[key] as never);
  };
  set('name', 'name', (v) => JSON.stringify(v));
  set('description', 'description', (v) => JSON.stringify(v));
  set('price', 'price');
  set('periodUnit', 'period_unit');
  set('periodLength', 'period_length');
  set('durationPeriods', 'duration_periods');
  set('activationType', 'activation_type');
  set('proRata', 'pro_rata');
  set('serviceTypes', 'service_types', (v) => JSON.stringify(v));
  set('restrictions', 'restrictions', (v) => JSON.stringify(v));
  set('noticePeriods', 'notice_periods');
  set('signUpFee', 'sign_up_fee');
  set('taxId', 'tax_id');
  set('sellAtDesk', 'sell_at_desk');
  set('sellOnline', 'sell_online');
  set('position', 'position');
  if (patch.archived !== undefined) columns.archived_at = patch.archived ? trx.fn.now() : null;
  if (Object.keys(columns).length)
    await trx('contracts')
      .where({ studioId: studio.id, id })
      .update({ ...columns, updatedAt: trx.fn.now() });
  return getContract(trx, studio, id);
}

/** DELETE archives: contracts already sold keep pointing at it, and it can be restored. */
export async function archiveContract(trx: Db, studio: Studio, id: string): Promise<void> {
  await contractRow(trx, studio.id, id, true);
  await trx('contracts')
    .where({ studioId: studio.id, id })
    .update({ archivedAt: trx.fn.now(), updatedAt: trx.fn.now() });
}

/** What a contract's coverage can be narrowed to: the studio's services, locations and client tags. */
export async function restrictionChoices(
  db: Db,
  studio: Studio,
  locale: string | null,
): Promise<PricingOptionRestrictionInit> {
  const [services, locations, tags] = await readAll(db, [
    () =>
      db('class_services').where({ studioId: studio.id }).select('id', 'name', 'service_type').limit(1000),
    () => db('locations').where({ studioId: studio.id }).orderBy('name').select('id', 'name').limit(1000),
    () =>
      db('tags')
        .where({ studioId: studio.id, type: TagType.client })
        .orderByRaw('lower(name)')
        .select('id', 'name')
        .limit(1000),
  ]);
  return {
    classServices: (services as Array<{ id: string; name: LocaleText; serviceType: ServiceType }>)
      .map((s) => ({
        id: s.id,
        name: resolveLocaleText(s.name, locale, studio.defaultLocale),
        serviceType: s.serviceType,
        pricingOptionServiceType: pricingOptionServiceTypeOf(s.serviceType),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    locations: locations as Array<{ id: string; name: string }>,
    tags: tags as Array<{ id: string; name: string }>,
    weekdays: [1, 2, 3, 4, 5, 6, 0],
  };
}

/** The front office's price list: contracts sold online, in the visitor's language. */
export async function publicContractPriceList(
  db: Db,
  studio: Studio,
  locale: string | null,
): Promise<PublicContractPriceList> {
  const rows = (await selectContracts(db, studio.id)
    .whereNull('c.archived_at')
    .where('c.sell_online', true)
    .orderBy([{ column: 'c.position' }, { column: 'c.created_at' }, { column: 'c.id' }])
    .limit(500)) as ContractRow[];
  return {
    items: rows.map((r) => presentOffer(r, studio.currency, locale, studio.defaultLocale)),
    currency: studio.currency,
  };
}
