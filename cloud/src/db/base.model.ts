import { Model, type QueryContext } from 'objection';
import { v7 as uuidv7 } from 'uuid';

/**
 * Every table: UUIDv7 primary key (assigned by whoever creates the row, so offline devices can create
 * too), created/updated timestamps. Column names are mapped to camelCase by the knex instance.
 */
export class BaseModel extends Model {
  id!: string;
  createdAt!: Date;
  updatedAt!: Date;

  static override get modelPaths() {
    return [];
  }

  override $beforeInsert(_ctx: QueryContext): void {
    if (!this.id) this.id = uuidv7();
    const now = new Date();
    this.createdAt ??= now;
    this.updatedAt ??= now;
  }

  override $beforeUpdate(): void {
    this.updatedAt = new Date();
  }
}

/** A row that belongs to one studio; every query on it is scoped by `studioId`. */
export class StudioScopedModel extends BaseModel {
  studioId!: string;
}
