import { Model, type QueryContext } from 'objection';
import { v7 as uuidv7 } from 'uuid';

/** A script error reported by a web app (log/post). Append-only, hence no updated_at. */
export class ClientErrorLog extends Model {
  static override tableName = 'client_error_logs';
  id!: string;
  level!: string;
  channel!: number;
  message!: string;
  stack!: string | null;
  version!: string | null;
  userAgent!: string | null;
  ip!: string | null;
  userId!: string | null;
  createdAt!: Date;

  override $beforeInsert(_ctx: QueryContext): void {
    if (!this.id) this.id = uuidv7();
    this.createdAt ??= new Date();
  }
}
