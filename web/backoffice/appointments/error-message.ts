import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api-client';

/** An API error in the screen's language: the module's text for its key, else the server's message. */
export function errorMessageOf(e: unknown, t: TFunction): string {
  if (e instanceof ApiError && e.key) {
    return t(`errors.${e.key.replace('.', '_')}`, { defaultValue: e.envelope?.error.message ?? e.key });
  }
  return t('errors.unknown');
}
