import { StudioScopedModel } from '../../db/base.model';

/** A studio's tag for clients (type 0) or members of staff (type 1), spec §3. */
export class Tag extends StudioScopedModel {
  static override tableName = 'tags';
  name!: string;
  type!: number;
}
