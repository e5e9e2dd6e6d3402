import { StudioScopedModel } from '../../db/base.model';

/** The record that a client's account in a studio was erased (see the identity README). */
export class AccountErasure extends StudioScopedModel {
  static override tableName = 'account_erasures';
  userId!: string;
  erasedAt!: Date;
  /** The user row was anonymised too (no live membership left in any studio). */
  anonymised!: boolean;
}
