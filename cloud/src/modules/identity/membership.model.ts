import { StudioScopedModel } from '../../db/base.model';

/** A user's place in a studio: a client, a member of staff with a role, or both. */
export class Membership extends StudioScopedModel {
  static override tableName = 'memberships';
  userId!: string;
  isClient!: boolean;
  isMember!: boolean;
  role!: string | null;
  /** The studio role (studio_iam_roles) held as staff; `role` mirrors its default key, if any. */
  iamRoleId!: string | null;
  archivedAt!: Date | null;
}
