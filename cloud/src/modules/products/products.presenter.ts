import type {
  ProductCategoryView,
  ProductView,
  StockMovementView,
  VoucherRedemption,
  VoucherView,
} from '../../../../shared/contracts/api/products';
import { usageLimitOf, voucherStatus } from '../../../../shared/domain/vouchers';

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

export interface ProductRow {
  id: string;
  categoryId: string | null;
  categoryName: string | null;
  name: string;
  description: string;
  price: number;
  taxId: string;
  taxName: string;
  taxRateBp: number | null;
  taxFiscalSlot: string;
  trackStock: boolean;
  stock: number;
  barcode: string | null;
  sku: string | null;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

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

export interface CategoryRow {
  id: string;
  name: string;
  position: number;
  productCount: number;
}

export function presentCategory(row: CategoryRow): ProductCategoryView {
  return { id: row.id, name: row.name, position: row.position, productCount: Number(row.productCount) };
}

export interface StockMovementRow {
  id: string;
  quantity: number;
  reason: StockMovementView['reason'];
  note: string;
  createdBy: string | null;
  authorFirstName: string | null;
  authorLastName: string | null;
  createdAt: Date;
}

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

export interface VoucherRow {
  id: string;
  code: string;
  description: string;
  type: number;
  discountType: 'amount' | 'percentage';
  value: number;
  currency: string;
  usageLimitTotal: number | null;
  usageLimitPerClient: number | null;
  /** YYYY-MM-DD (selected as text). */
  validFrom: string | null;
  validTo: string | null;
  appliesTo: 'all' | 'selected';
  archivedAt: Date | null;
  usesTotal: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface VoucherTargetRow {
  voucherId: string;
  targetType: 'productCategory' | 'product' | 'pricingOption';
  targetId: string;
}

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
