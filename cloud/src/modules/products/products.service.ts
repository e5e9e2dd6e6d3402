import { v7 as uuidv7 } from 'uuid';
import type {
  ProductCategorized,
  ProductCategoryInput,
  ProductCategoryPatch,
  ProductCategoryView,
  ProductCreateInput,
  ProductList,
  ProductListQuery,
  ProductPatch,
  ProductView,
  StockMovementInput,
  StockMovementList,
  StockMovementResult,
} from '../../../../shared/contracts/api/products';
import { decodeCursor, encodeCursor } from '../../../../shared/domain/clients/cursor';
import {
  applyStockMovement,
  checkBarcode,
  type StockMovementReason,
} from '../../../../shared/domain/products';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import {
  presentCategory,
  presentProduct,
  presentStockMovement,
  type CategoryRow,
  type ProductRow,
  type StockMovementRow,
} from './products.presenter';
import { readAll } from '../../db/read-all';

/** Turns the unique indexes of products and categories into 409s on the field that clashed. */
export async function savingProduct<T>(work: () => PromiseLike<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const e = err as {
      code?: string;
      constraint?: string;
      nativeError?: { code?: string; constraint?: string };
    };
    const code = e.nativeError?.code ?? e.code;
    const constraint = e.nativeError?.constraint ?? e.constraint ?? '';
    if (code === '23505') {
      const [field, message] = constraint.includes('barcode')
        ? ['barcode', 'another product has this barcode']
        : constraint.includes('sku')
          ? ['sku', 'another product has this SKU']
          : constraint.includes('code')
            ? ['code', 'another voucher has this code']
            : ['name', 'this name is taken'];
      throw new AppError('resource.conflict', { message, fields: { [field]: [message] } });
    }
    throw err;
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function selectProducts(db: Db, studioId: string) {
  return db('products as p')
    .leftJoin('product_categories as c', 'c.id', 'p.category_id')
    .join('taxes as t', 't.id', 'p.tax_id')
    .where('p.studio_id', studioId)
    .select(
      'p.id',
      'p.category_id',
      'c.name as category_name',
      'p.name',
      'p.description',
      'p.price',
      'p.tax_id',
      't.name as tax_name',
      't.rate_bp as tax_rate_bp',
      't.fiscal_slot as tax_fiscal_slot',
      'p.track_stock',
      db.raw(
        '(select coalesce(sum(m.quantity), 0) from product_stock_movements m where m.product_id = p.id) as stock',
      ),
      'p.barcode',
      'p.sku',
      'p.archived_at',
      'p.created_at',
      'p.updated_at',
    );
}

export async function productView(db: Db, studio: Studio, productId: string): Promise<ProductView> {
  const row: ProductRow | undefined = await selectProducts(db, studio.id).where('p.id', productId).first();
  if (!row) throw AppError.notFound('product');
  return presentProduct(row, studio.currency);
}

const SORT = 'name';

/** Name order (any case), keyset pages; search by name (contains), barcode (exact or prefix), SKU. */
export async function listProducts(db: Db, studio: Studio, query: ProductListQuery): Promise<ProductList> {
  const q = selectProducts(db, studio.id).select(db.raw('lower(p.name) as sort_key'));
  if (query.status === 'active') q.whereNull('p.archived_at');
  else if (query.status === 'archived') q.whereNotNull('p.archived_at');
  if (query.categoryId === 'none') q.whereNull('p.category_id');
  else if (query.categoryId) q.where('p.category_id', query.categoryId);
  if (query.q) {
    const term = query.q.toLowerCase();
    const barcode = checkBarcode(term);
    const digits = /^\d{3,}$/.test(term) ? term : null;
    q.where((w) => {
      w.whereRaw(`lower(p.name) like ? escape '\\'`, [`%${escapeLike(term)}%`]).orWhereRaw(
        'lower(p.sku) = ?',
        [term],
      );
      if (barcode.valid) w.orWhere('p.barcode', barcode.barcode);
      if (digits) w.orWhereRaw(`p.barcode like ?`, [`${digits}%`]);
    });
  }
  if (query.outOfStock !== undefined) {
    const stock =
      '(select coalesce(sum(m.quantity), 0) from product_stock_movements m where m.product_id = p.id)';
    q.where('p.track_stock', true).whereRaw(query.outOfStock ? `${stock} <= 0` : `${stock} > 0`);
  }
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor, SORT, 2);
    if (!cursor) throw AppError.invalid({ 'query.cursor': ['invalid cursor'] });
    q.whereRaw('(lower(p.name), p.id) > (?, ?::uuid)', cursor.values as [string, string]);
  }
  const rows: Array<ProductRow & { sortKey: string }> = await q
    .orderByRaw('lower(p.name), p.id')
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => presentProduct(row, studio.currency)),
    next:
      rows.length > query.limit && last
        ? encodeCursor({ sort: SORT, values: [last.sortKey, last.id] })
        : null,
  };
}

/** Active products by category (category order: position, then name), for the desk's product picker. */
export async function categorizedProducts(db: Db, studio: Studio): Promise<ProductCategorized> {
  const [categories, rows] = await readAll(db, [
    () =>
      db('product_categories')
        .where('studio_id', studio.id)
        .orderByRaw('position, lower(name), id')
        .select('id', 'name'),
    () =>
      selectProducts(db, studio.id).whereNull('p.archived_at').orderByRaw('lower(p.name), p.id').limit(5000),
  ]);
  const products = (rows as ProductRow[]).map((row) => presentProduct(row, studio.currency));
  return {
    categories: (categories as Array<{ id: string; name: string }>).map((c) => ({
      id: c.id,
      name: c.name,
      products: products.filter((p) => p.category?.id === c.id),
    })),
    uncategorized: products.filter((p) => p.category === null),
  };
}

async function assertCategory(db: Db, studioId: string, categoryId: string): Promise<void> {
  const found = await db('product_categories').where({ studioId, id: categoryId }).first('id');
  if (!found) throw AppError.notFound('product category');
}

/** The given tax (of this studio), else the studio's default; a studio with neither cannot price. */
async function resolveTax(db: Db, studioId: string, taxId: string | undefined): Promise<string> {
  if (taxId) {
    const found = await db('taxes').where({ studioId, id: taxId }).first('id');
    if (!found) throw AppError.notFound('tax');
    return taxId;
  }
  const fallback = await db('taxes')
    .where({ studioId })
    .orderByRaw('is_default desc, created_at, id')
    .first('id');
  if (!fallback) throw AppError.invalid({ taxId: ['required: the studio has no tax rates yet'] });
  return (fallback as { id: string }).id;
}

async function addMovement(
  trx: Db,
  studioId: string,
  productId: string,
  quantity: number,
  reason: StockMovementReason,
  note: string,
  userId: string | null,
): Promise<string> {
  const id = uuidv7();
  await trx('product_stock_movements').insert({
    id,
    studioId,
    productId,
    quantity,
    reason,
    note,
    createdBy: userId,
  });
  return id;
}

export async function createProduct(
  trx: Db,
  studio: Studio,
  input: ProductCreateInput,
  userId: string,
): Promise<ProductView> {
  if (input.categoryId) await assertCategory(trx, studio.id, input.categoryId);
  const taxId = await resolveTax(trx, studio.id, input.taxId);
  const trackStock = input.trackStock ?? false;
  if (!trackStock && input.initialStock)
    throw AppError.invalid({ initialStock: ['stock is not tracked for this product'] });
  const id = uuidv7();
  await savingProduct(() =>
    trx('products').insert({
      id,
      studioId: studio.id,
      categoryId: input.categoryId ?? null,
      name: input.name,
      description: input.description ?? '',
      price: input.price,
      taxId,
      trackStock,
      barcode: input.barcode ?? null,
      sku: input.sku ?? null,
    }),
  );
  if (trackStock && input.initialStock)
    await addMovement(trx, studio.id, id, input.initialStock, 'initial', '', userId);
  return productView(trx, studio, id);
}

/**
 * Locks the products a sale takes from stock, in id order (sales README, "Lock order"), so the stock
 * check that follows counts every sale committed before it and a parallel sale waits: tracked stock
 * is never oversold. Unknown ids are skipped (the caller's own checks report them).
 */
export async function lockProductsForSale(trx: Db, studioId: string, productIds: string[]): Promise<void> {
  const ids = [...new Set(productIds)].sort();
  if (ids.length === 0) return;
  await trx('products')
    .where('studio_id', studioId)
    .whereIn('id', ids)
    .orderBy('id')
    .forUpdate()
    .select('id');
}

async function lockProduct(trx: Db, studioId: string, productId: string) {
  const row = await trx('products').where({ studioId, id: productId }).forUpdate().first();
  if (!row) throw AppError.notFound('product');
  return row as { id: string; trackStock: boolean; archivedAt: Date | null };
}

export async function updateProduct(
  trx: Db,
  studio: Studio,
  productId: string,
  input: ProductPatch,
): Promise<ProductView> {
  await lockProduct(trx, studio.id, productId);
  const patch: Record<string, unknown> = {};
  if (input.categoryId) await assertCategory(trx, studio.id, input.categoryId);
  if (input.taxId) patch.tax_id = await resolveTax(trx, studio.id, input.taxId);
  if (input.categoryId !== undefined) patch.category_id = input.categoryId;
  for (const key of ['name', 'description', 'price', 'barcode', 'sku'] as const)
    if (input[key] !== undefined) patch[key] = input[key];
  if (input.trackStock !== undefined) patch.track_stock = input.trackStock;
  if (input.archived !== undefined) patch.archived_at = input.archived ? trx.fn.now() : null;
  if (Object.keys(patch).length > 0)
    await savingProduct(() =>
      trx('products')
        .where({ id: productId })
        .update({ ...patch, updatedAt: trx.fn.now() }),
    );
  const view = await productView(trx, studio, productId);
  // Tracking turned on over movements that sum below zero (sales while untracked) is refused.
  if (view.trackStock && view.stock !== null && view.stock < 0)
    throw new AppError('product.stockNegative', {
      message: 'the recorded stock movements add up below zero: record a delivery or adjustment first',
      fields: { trackStock: ['the recorded stock movements add up below zero'] },
    });
  return view;
}

/** Archives (it stays on past sales and in stock history); PATCH `{archived:false}` restores. */
export async function archiveProduct(trx: Db, studio: Studio, productId: string): Promise<void> {
  const product = await lockProduct(trx, studio.id, productId);
  if (!product.archivedAt)
    await trx('products')
      .where({ id: productId })
      .update({ archivedAt: trx.fn.now(), updatedAt: trx.fn.now() });
}

/**
 * Records a stock movement under the product's row lock, so two movements at once cannot both pass
 * the "not below zero" check against the same stock.
 */
export async function recordStockMovement(
  trx: Db,
  studio: Studio,
  productId: string,
  input: StockMovementInput,
  userId: string,
): Promise<StockMovementResult> {
  const product = await lockProduct(trx, studio.id, productId);
  const [sum]: Array<{ stock: number | null }> = await trx('product_stock_movements')
    .where({ productId })
    .sum({ stock: 'quantity' });
  const stock = sum?.stock ?? 0;
  const change = applyStockMovement(
    { trackStock: product.trackStock, stock: Number(stock ?? 0) },
    input.quantity,
  );
  if (!change.ok) {
    if (change.reason === 'untracked')
      throw new AppError('product.stockUntracked', {
        message: 'stock is not tracked for this product',
        fields: { quantity: ['stock is not tracked for this product'] },
      });
    throw new AppError('product.stockNegative', {
      message: `only ${change.stock} in stock`,
      fields: { quantity: [`only ${change.stock} in stock`] },
    });
  }
  const id = await addMovement(
    trx,
    studio.id,
    productId,
    input.quantity,
    input.reason,
    input.note ?? '',
    userId,
  );
  const [movement]: StockMovementRow[] = await selectMovements(trx, studio.id, productId).where('m.id', id);
  return { product: await productView(trx, studio, productId), movement: presentStockMovement(movement!) };
}

function selectMovements(db: Db, studioId: string, productId: string) {
  return db('product_stock_movements as m')
    .leftJoin('users as u', 'u.id', 'm.created_by')
    .where({ 'm.studio_id': studioId, 'm.product_id': productId })
    .select(
      'm.id',
      'm.quantity',
      'm.reason',
      'm.note',
      'm.created_by',
      'u.first_name as author_first_name',
      'u.last_name as author_last_name',
      'm.created_at',
    );
}

/** Newest first (ids are UUIDv7: time-ordered), keyset pages by id. */
export async function listStockMovements(
  db: Db,
  studio: Studio,
  productId: string,
  page: { limit: number; cursor?: string },
): Promise<StockMovementList> {
  const product = await db('products').where({ studioId: studio.id, id: productId }).first('id');
  if (!product) throw AppError.notFound('product');
  const q = selectMovements(db, studio.id, productId);
  if (page.cursor) {
    const cursor = decodeCursor(page.cursor, 'movements', 1);
    if (!cursor) throw AppError.invalid({ 'query.cursor': ['invalid cursor'] });
    q.whereRaw('m.id < ?::uuid', [String(cursor.values[0])]);
  }
  const rows: StockMovementRow[] = await q.orderBy('m.id', 'desc').limit(page.limit + 1);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    items: items.map(presentStockMovement),
    next: rows.length > page.limit && last ? encodeCursor({ sort: 'movements', values: [last.id] }) : null,
  };
}

// ------------------------------------------------------------------------------------ categories

export async function listCategories(db: Db, studioId: string): Promise<ProductCategoryView[]> {
  const rows: CategoryRow[] = await db('product_categories as c')
    .where('c.studio_id', studioId)
    .select(
      'c.id',
      'c.name',
      'c.position',
      db('products as p')
        .whereRaw('p.category_id = c.id')
        .whereNull('p.archived_at')
        .count('*')
        .as('product_count'),
    )
    .orderByRaw('c.position, lower(c.name), c.id')
    .limit(1000);
  return rows.map(presentCategory);
}

async function categoryView(db: Db, studioId: string, id: string): Promise<ProductCategoryView> {
  const found = (await listCategories(db, studioId)).find((c) => c.id === id);
  if (!found) throw AppError.notFound('product category');
  return found;
}

export async function createCategory(trx: Db, studioId: string, input: ProductCategoryInput) {
  const id = uuidv7();
  await savingProduct(() =>
    trx('product_categories').insert({
      id,
      studioId,
      name: input.name,
      position: input.position ?? 0,
    }),
  );
  return categoryView(trx, studioId, id);
}

export async function updateCategory(trx: Db, studioId: string, id: string, input: ProductCategoryPatch) {
  const found = await trx('product_categories').where({ studioId, id }).forUpdate().first('id');
  if (!found) throw AppError.notFound('product category');
  const patch: Record<string, unknown> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.position !== undefined) patch.position = input.position;
  if (Object.keys(patch).length > 0)
    await savingProduct(() =>
      trx('product_categories')
        .where({ id })
        .update({ ...patch, updatedAt: trx.fn.now() }),
    );
  return categoryView(trx, studioId, id);
}

/** A category with active products is kept (409); archived products in it become uncategorized. */
export async function deleteCategory(trx: Db, studioId: string, id: string): Promise<void> {
  const found = await trx('product_categories').where({ studioId, id }).forUpdate().first('id');
  if (!found) throw AppError.notFound('product category');
  const active = await trx('products').where({ categoryId: id }).whereNull('archived_at').first('id');
  if (active)
    throw new AppError('resource.conflict', {
      message: 'the category has products: move or archive them first',
    });
  await trx('voucher_targets').where({ targetType: 'productCategory', targetId: id }).delete();
  await trx('product_categories').where({ id }).delete();
}
