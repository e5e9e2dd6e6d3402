import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { CenteredMessage } from '../../ui/CenteredMessage';
import { GeneralLoadError, ListLoading } from '../list-frame';

/** True for the answers spec §8 words as "no permission". */
export function isNoPermission(error: unknown): boolean {
  return error instanceof ApiError && [401, 403, 405].includes(error.status);
}

/** A staff screen whose data the signed-in role may not read (spec §8: 401/403/405). */
export function StaffNoPermission() {
  const { t } = useTranslation('backoffice');
  return (
    <CenteredMessage title={t('staff.noPermission.title')} testId="staff-no-permission">
      {t('common:errors.noPermission')}
    </CenteredMessage>
  );
}

export function StaffLoading() {
  const { t } = useTranslation('backoffice');
  return <ListLoading label={t('status.loading')} />;
}

/** A failed load: no permission, or the general message with its status-errorcode and a retry. */
export function StaffLoadError({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation('backoffice');
  if (isNoPermission(error)) return <StaffNoPermission />;
  return (
    <GeneralLoadError
      title={t('staff.errors.loadFailed')}
      testId="staff-load-failed"
      error={error}
      onRetry={onRetry}
    />
  );
}
