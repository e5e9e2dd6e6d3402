import { StudioScopedModel } from '../../db/base.model';

/** A product sold at the desk (drinks, mats, towels): price in minor units, a tax, maybe stock. */
export class Product extends StudioScopedModel {
  static override tableName = 'products';
  categoryId!: string | null;
  name!: string;
  description!: string;
  price!: number;
  taxId!: string;
  trackStock!: boolean;
  barcode!: string | null;
  sku!: string | null;
  archivedAt!: Date | null;
}

export class ProductCategory extends StudioScopedModel {
  static override tableName = 'product_categories';
  name!: string;
  position!: number;
}
