import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { gs1CheckDigit } from '../../../../shared/domain/products';
import { VoucherType } from '../../../../shared/enums/payments';

/** A valid EAN-13 in the Polish GS1 range (590), from a product number. */
const ean13 = (n: number) => {
  const body = `5907000${String(n).padStart(5, '0')}`;
  return body + gs1CheckDigit(body);
};

/**
 * The demo studio's desk products (drinks, mats, towels) with stock and barcodes, and two vouchers.
 * Called by the demo seed after the taxes exist.
 */
export async function seedDemoProducts(trx: Knex, studioId: string, currency = 'PLN'): Promise<void> {
  const taxes: Array<{ id: string; rateBp: number | null; isDefault: boolean }> = await trx('taxes')
    .where({ studioId })
    .select('id', 'rate_bp', 'is_default');
  const fallback = taxes.find((t) => t.isDefault) ?? taxes[0];
  if (!fallback) return;
  const tax = (rateBp: number) => (taxes.find((t) => t.rateBp === rateBp) ?? fallback).id;

  const categories = ['Napoje', 'Maty', 'Ręczniki'].map((name, position) => ({
    id: uuidv7(),
    studioId,
    name,
    position,
  }));
  await trx('product_categories').insert(categories);
  const [drinks, mats, towels] = categories.map((c) => c.id);
  const products = [
    { category_id: drinks, name: 'Woda mineralna 0,5 l', price: 500, tax_id: tax(500), stock: 48 },
    { category_id: drinks, name: 'Napój izotoniczny', price: 900, tax_id: tax(2300), stock: 24 },
    { category_id: drinks, name: 'Kombucha', price: 1400, tax_id: tax(2300), stock: 3 },
    { category_id: mats, name: 'Mata do jogi', price: 14900, tax_id: tax(2300), stock: 6 },
    { category_id: mats, name: 'Mata podróżna', price: 9900, tax_id: tax(2300), stock: 0 },
    { category_id: towels, name: 'Ręcznik mały', price: 2500, tax_id: tax(2300), stock: 12 },
    { category_id: towels, name: 'Ręcznik duży', price: 4500, tax_id: tax(2300), stock: 8 },
    { category_id: towels, name: 'Wypożyczenie ręcznika', price: 800, tax_id: tax(2300), stock: null },
  ].map((p, i) => ({
    row: {
      id: uuidv7(),
      studioId,
      categoryId: p.category_id,
      name: p.name,
      description: '',
      price: p.price,
      taxId: p.tax_id,
      trackStock: p.stock !== null,
      barcode: p.stock !== null ? ean13(i + 1) : null,
      sku: `DEMO-${String(i + 1).padStart(3, '0')}`,
    },
    stock: p.stock,
  }));
  await trx('products').insert(products.map((p) => p.row));
  const movements = products
    .filter((p) => p.stock)
    .map((p) => ({
      id: uuidv7(),
      studioId,
      productId: p.row.id,
      quantity: p.stock!,
      reason: 'initial',
    }));
  if (movements.length) await trx('product_stock_movements').insert(movements);

  await trx('vouchers').insert([
    {
      id: uuidv7(),
      studioId,
      code: 'WITAJ-10',
      description: 'Welcome: 10% off / Na dobry początek: 10% rabatu',
      type: VoucherType.multiUse,
      discountType: 'percentage',
      value: 1000,
      currency,
      usageLimitPerClient: 1,
      appliesTo: 'all',
    },
    {
      id: uuidv7(),
      studioId,
      code: 'PREZENT-50',
      description: 'Gift voucher / Bon podarunkowy',
      type: VoucherType.singleUse,
      discountType: 'amount',
      value: 5000,
      currency,
      appliesTo: 'all',
    },
  ]);
}
