import { isAbility, type Ability, type DefaultRoleKey } from '../../../../shared/policies/abilities';
import { StudioScopedModel } from '../../db/base.model';

/**
 * A studio's role (`studio_iam_roles`): the five defaults every studio starts with (`key` set) and
 * the ones it creates or replicates (`key` null). `abilities` is a jsonb array of ability names;
 * the owner role (`isOwner`) holds every ability whatever is stored.
 */
export class StudioIamRole extends StudioScopedModel {
  static override tableName = 'studio_iam_roles';
  key!: DefaultRoleKey | null;
  name!: string | null;
  abilities!: Ability[];
  isOwner!: boolean;

  static override get jsonAttributes() {
    return ['abilities'];
  }

  /** Stored names the catalogue no longer knows are dropped rather than trusted. */
  override $parseDatabaseJson(json: Record<string, unknown>) {
    const out = super.$parseDatabaseJson(json);
    if (Array.isArray(out.abilities)) out.abilities = out.abilities.filter(isAbility);
    return out;
  }
}
