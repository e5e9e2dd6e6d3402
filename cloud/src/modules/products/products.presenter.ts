import type {
  ProductCategoryView,
  ProductView,
  StockMovementView,
  VoucherRedemption,
  VoucherView,
} from '../../../../shared/contracts/api/products';
import { usageLimitOf, voucherStatus } from '../../../../shared/domain/vouchers';
import type {
  ProductCategoriesRow,
  ProductsRow,
  ProductStockMovementsRow,
  TaxesRow,
  UsersRow,
  VoucherTargetsRow,
  VouchersRow,
} from '../../db/generated/tables';

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

/** A product as `selectProducts` reads it: its row, its category's name, its tax and its stock. */
export type ProductRow = Pick<
  ProductsRow,
  | 'id'
  | 'categoryId'
  | 'name'
  | 'description'
  | 'price'
  | 'taxId'
  | 'trackStock'
  | 'barcode'
  | 'sku'
  | 'archivedAt'
  | 'createdAt'
  | 'updatedAt'
> & {
  categoryName: ProductCategoriesRow['name'] | null;
  taxName: TaxesRow['name'];
  taxRateBp: TaxesRow['rateBp'];
  taxFiscalSlot: TaxesRow['fiscalSlot'];
  /** The sum of the product's stock movements (a subquery). */
  stock: number;
};

export function presentProduct(row: ProductRow, currency: string): ProductView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.categoryId ? { id: row.categoryId, name: row.categoryName ?? '' } : null,
    price: row.price,
    currency,
    tax: { id: row.taxId, name: row.taxName, rateBp: row.taxRateBp, fiscalSlot: row.taxFiscalSlot },
    trackStock: row.trackStock,
    stock: row.trackStock ? Number(row.stock) : null,
    barcode: row.barcode,
    sku: row.sku,
    status: row.archivedAt ? 'archived' : 'active',
    archivedAt: row.archivedAt ? iso(row.archivedAt) : null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A category with the number of its active products (a subquery). */
export type CategoryRow = Pick<ProductCategoriesRow, 'id' | 'name' | 'position'> & { productCount: number };

export function presentCategory(row: CategoryRow): ProductCategoryView {
  return { id: row.id, name: row.name, position: row.position, productCount: Number(row.productCount) };
}

/** A stock movement with the name of who recorded it. */
export type StockMovementRow = Pick<
  ProductStockMovementsRow,
  'id' | 'quantity' | 'note' | 'createdBy' | 'createdAt'
> & {
  reason: StockMovementView['reason'];
  authorFirstName: UsersRow['firstName'] | null;
  authorLastName: UsersRow['lastName'] | null;
};

export function presentStockMovement(row: StockMovementRow): StockMovementView {
  return {
    id: row.id,
    quantity: row.quantity,
    reason: row.reason,
    note: row.note,
    createdBy: row.createdBy
      ? { id: row.createdBy, firstName: row.authorFirstName ?? '', lastName: row.authorLastName ?? '' }
      : null,
    createdAt: iso(row.createdAt),
  };
}

/** A voucher as `selectVouchers` reads it: dates as text (YYYY-MM-DD) and its number of uses. */
export type VoucherRow = Pick<
  VouchersRow,
  | 'id'
  | 'code'
  | 'description'
  | 'type'
  | 'value'
  | 'currency'
  | 'usageLimitTotal'
  | 'usageLimitPerClient'
  | 'archivedAt'
  | 'createdAt'
  | 'updatedAt'
> & {
  discountType: 'amount' | 'percentage';
  appliesTo: 'all' | 'selected';
  /** YYYY-MM-DD (selected as text). */
  validFrom: string | null;
  validTo: string | null;
  usesTotal: number;
};

export type VoucherTargetRow = Pick<VoucherTargetsRow, 'voucherId' | 'targetId'> & {
  targetType: 'productCategory' | 'product' | 'pricingOption';
};

export function presentVoucher(row: VoucherRow, targets: VoucherTargetRow[], today: string): VoucherView {
  const rules = { ...row, archived: row.archivedAt !== null, type: row.type as 0 | 1 };
  const uses = Number(row.usesTotal);
  const limit = usageLimitOf(rules);
  const of = (type: VoucherTargetRow['targetType']) =>
    targets.filter((t) => t.voucherId === row.id && t.targetType === type).map((t) => t.targetId);
  return {
    id: row.id,
    code: row.code,
    description: row.description,
    type: row.type,
    discountType: row.discountType,
    value: row.value,
    currency: row.currency,
    usageLimitTotal: row.usageLimitTotal,
    usageLimitPerClient: row.usageLimitPerClient,
    validFrom: row.validFrom,
    validTo: row.validTo,
    appliesTo: row.appliesTo,
    targets: {
      productCategoryIds: of('productCategory'),
      productIds: of('product'),
      pricingOptionIds: of('pricingOption'),
    },
    usesTotal: uses,
    usesLeft: limit === null ? null : Math.max(0, limit - uses),
    status: voucherStatus(rules, uses, today),
    archivedAt: row.archivedAt ? iso(row.archivedAt) : null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function presentRedemption(r: {
  id: string;
  voucher: Pick<VoucherRow, 'id' | 'code' | 'type' | 'discountType' | 'value'>;
  useNumber: number;
  usesLeft: number | null;
  basketTotal: number;
  eligibleTotal: number;
  discount: number;
  currency: string;
  clientId: string | null;
  createdAt: Date;
}): VoucherRedemption {
  return {
    id: r.id,
    voucher: {
      id: r.voucher.id,
      code: r.voucher.code,
      type: r.voucher.type,
      discountType: r.voucher.discountType,
      value: r.voucher.value,
    },
    useNumber: r.useNumber,
    usesLeft: r.usesLeft,
    basketTotal: r.basketTotal,
    eligibleTotal: r.eligibleTotal,
    discount: r.discount,
    totalAfterDiscount: r.basketTotal - r.discount,
    currency: r.currency,
    clientId: r.clientId,
    createdAt: iso(r.createdAt),
  };
}
