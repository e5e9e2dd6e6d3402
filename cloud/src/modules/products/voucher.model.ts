import { StudioScopedModel } from '../../db/base.model';

/** A studio's voucher (spec §3 type: 0 single use, 1 multi use). */
export class Voucher extends StudioScopedModel {
  static override tableName = 'vouchers';
  code!: string;
  description!: string;
  type!: number;
  discountType!: 'amount' | 'percentage';
  value!: number;
  currency!: string;
  usageLimitTotal!: number | null;
  usageLimitPerClient!: number | null;
  validFrom!: string | null;
  validTo!: string | null;
  appliesTo!: 'all' | 'selected';
  archivedAt!: Date | null;
}
