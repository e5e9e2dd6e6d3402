import { TagType } from '../enums/clients';
import { can, type Ability } from './abilities';

/** What a bulk action on clients asks of the caller's role. */
export type ClientBulkAction = 'tag' | 'untag' | 'message' | 'export';

export const CLIENT_BULK_ACTIONS: readonly ClientBulkAction[] = ['tag', 'untag', 'message', 'export'];

const BULK_ABILITY: Record<ClientBulkAction, Ability> = {
  tag: 'clients.edit',
  untag: 'clients.edit',
  message: 'clients.message',
  export: 'clients.export',
};

export function bulkActionAbility(action: ClientBulkAction): Ability {
  return BULK_ABILITY[action];
}

export function allowedBulkActions(abilities: ReadonlySet<Ability>): ClientBulkAction[] {
  return CLIENT_BULK_ACTIONS.filter((a) => can(abilities, BULK_ABILITY[a]));
}

/**
 * Tags belong to an area: client tags to the clients area, member (staff) tags to the staff area.
 * Seeing tags needs that area's view, creating, changing, deleting and (un)assigning them its edit.
 */
export function tagAbility(type: TagType, action: 'view' | 'edit'): Ability {
  if (type === TagType.member) return action === 'view' ? 'staff.view' : 'staff.edit';
  return action === 'view' ? 'clients.view' : 'clients.edit';
}

export function canSeeTagType(abilities: ReadonlySet<Ability>, type: TagType): boolean {
  return can(abilities, tagAbility(type, 'view'));
}

/** The switches the client screens show or hide. */
export function clientScreenAbilities(abilities: ReadonlySet<Ability>) {
  return {
    canView: can(abilities, 'clients.view'),
    canEdit: can(abilities, 'clients.edit'),
    canDelete: can(abilities, 'clients.delete'),
    canExport: can(abilities, 'clients.export'),
    canMessage: can(abilities, 'clients.message'),
    canDecryptFields: can(abilities, 'clients.decryptFields'),
  };
}
