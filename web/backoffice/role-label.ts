import type { TFunction } from 'i18next';

/**
 * Role names are not in the spec; the server sends a role string (or null). Known ones are
 * translated, unknown ones shown as sent, a missing one as "staff member".
 */
export function roleLabel(t: TFunction, role: string | null): string {
  if (!role) return t('roles.none');
  return t(`roles.${role}`, { defaultValue: role });
}
