import { StudioScopedModel } from '../../db/base.model';

/** A studio's tax rate mapped to a fiscal VAT slot (A–G); `rateBp` null means VAT-exempt. */
export class Tax extends StudioScopedModel {
  static override tableName = 'taxes';
  name!: string;
  rateBp!: number | null;
  fiscalSlot!: string;
  isDefault!: boolean;
}
