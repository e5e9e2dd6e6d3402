import { v7 as uuidv7 } from 'uuid';
import type { TaxInput, TaxPatch, TaxView } from '../../../../shared/contracts/api/catalog';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { presentTax, type TaxRow } from './catalog.presenter';

/** Unique clashes become field errors the form can show next to the field. */
async function saving<T>(work: () => PromiseLike<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const e = err as { code?: string; constraint?: string; nativeError?: { constraint?: string } };
    if (e.code !== '23505') throw err;
    const constraint = e.constraint ?? e.nativeError?.constraint ?? '';
    const field = constraint.includes('slot') ? 'fiscalSlot' : 'name';
    const message =
      field === 'fiscalSlot'
        ? 'another tax already uses this fiscal slot'
        : 'a tax with this name already exists';
    throw new AppError('resource.conflict', { message, fields: { [field]: [message] } });
  }
}

export async function listTaxes(db: Db, studioId: string): Promise<TaxView[]> {
  const rows: TaxRow[] = await db('taxes')
    .where({ studioId })
    .orderBy([{ column: 'fiscal_slot' }, { column: 'id' }]);
  return rows.map(presentTax);
}

/** The tax row of the studio, or 404 (unknown or another studio's). */
export async function taxRow(db: Db, studioId: string, taxId: string, lock = false): Promise<TaxRow> {
  const query = db('taxes').where({ studioId, id: taxId }).first();
  const row: TaxRow | undefined = await (lock ? query.forUpdate() : query);
  if (!row) throw AppError.notFound('tax');
  return row;
}

async function clearDefault(trx: Db, studioId: string, exceptId: string): Promise<void> {
  await trx('taxes')
    .where({ studioId, isDefault: true })
    .whereNot('id', exceptId)
    .update({ isDefault: false, updatedAt: trx.fn.now() });
}

export async function createTax(trx: Db, studioId: string, input: TaxInput): Promise<TaxView> {
  const id = uuidv7();
  if (input.isDefault) await clearDefault(trx, studioId, id);
  await saving(() =>
    trx('taxes').insert({
      id,
      studioId,
      name: input.name,
      rateBp: input.rateBp,
      fiscalSlot: input.fiscalSlot,
      isDefault: input.isDefault ?? false,
    }),
  );
  return presentTax(await taxRow(trx, studioId, id));
}

export async function updateTax(trx: Db, studioId: string, taxId: string, patch: TaxPatch): Promise<TaxView> {
  await taxRow(trx, studioId, taxId, true);
  if (patch.isDefault) await clearDefault(trx, studioId, taxId);
  const changes: Record<string, unknown> = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.rateBp !== undefined) changes.rate_bp = patch.rateBp;
  if (patch.fiscalSlot !== undefined) changes.fiscal_slot = patch.fiscalSlot;
  if (patch.isDefault !== undefined) changes.is_default = patch.isDefault;
  if (Object.keys(changes).length > 0)
    await saving(() =>
      trx('taxes')
        .where({ studioId, id: taxId })
        .update({ ...changes, updatedAt: trx.fn.now() }),
    );
  return presentTax(await taxRow(trx, studioId, taxId));
}

/** A tax still used by a pricing option (or a product) cannot go: 409, the rows keep their rate. */
export async function deleteTax(trx: Db, studioId: string, taxId: string): Promise<void> {
  await taxRow(trx, studioId, taxId, true);
  try {
    await trx('taxes').where({ studioId, id: taxId }).delete();
  } catch (err) {
    if ((err as { code?: string }).code === '23503')
      throw new AppError('resource.referenceInvalid', {
        message: 'this tax is still used by the catalog',
      });
    throw err;
  }
}
