import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { CenteredMessage } from '../../ui/CenteredMessage';
import { GeneralLoadError, ListLoading } from '../list-frame';
import { isNoPermission } from '../staff/StaffStates';

export function ClientsLoading() {
  const { t } = useTranslation('clients');
  return <ListLoading label={t('states.loading')} />;
}

/** A failed load: no permission (spec §8), not found, or the general message with a retry. */
export function ClientsLoadError({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation('clients');
  if (isNoPermission(error))
    return (
      <CenteredMessage title={t('states.noPermissionTitle')} testId="clients-no-permission">
        {t('common:errors.noPermission')}
      </CenteredMessage>
    );
  if (error instanceof ApiError && error.status === 404)
    return (
      <CenteredMessage title={t('states.notFoundTitle')} testId="clients-not-found">
        {t('states.notFound')}
      </CenteredMessage>
    );
  return (
    <GeneralLoadError
      title={t('states.loadFailed')}
      testId="clients-load-failed"
      error={error}
      onRetry={onRetry}
    />
  );
}

/**
 * The clients API words its own field refusals in English (shared schemas, services); the ones a
 * user meets here are translated before the form shows them.
 */
const FIELD_MESSAGES: Record<string, string> = {
  'a client with this email address already exists': 'clients:errors.emailTaken',
  'another client of the studio has this email address': 'clients:errors.emailTaken',
  'a tag with this name already exists': 'clients:errors.tagTaken',
  'invalid phone number (6 to 15 digits, + ( ) - . / and spaces)': 'clients:errors.invalidPhone',
  'invalid date (YYYY-MM-DD)': 'clients:errors.invalidDate',
  'too far in the past': 'clients:errors.birthDateTooOld',
  'cannot be in the future': 'clients:errors.birthDateFuture',
  'choose at least one client': 'clients:errors.chooseClients',
};

export function localiseClientError(error: unknown, t: TFunction): unknown {
  if (!(error instanceof ApiError) || !error.envelope?.error.fields) return error;
  const fields = Object.fromEntries(
    Object.entries(error.envelope.error.fields).map(([path, messages]) => [
      path,
      messages.map((m) => (FIELD_MESSAGES[m] ? t(FIELD_MESSAGES[m]) : m)),
    ]),
  );
  return new ApiError(error.status, { error: { ...error.envelope.error, fields } });
}
