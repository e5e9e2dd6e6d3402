import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useApiClient } from '../../lib/app-context';
import { recordCalls, useEmailBounce, useInvalidateRecords } from './client-records.api';
import type { ClientRecordProps } from './DocumentsTab';
import { useStudioDates } from '../use-studio-date-time';

/** "Emails to this address bounce" with the reason and a Clear button; nothing when none. */
export function EmailBounceNotice({
  studioUuid,
  clientId,
  canClear = true,
}: ClientRecordProps & { canClear?: boolean }) {
  const { t } = useTranslation('client-records');
  const dates = useStudioDates();
  const api = useApiClient();
  const bounce = useEmailBounce(studioUuid, clientId).data?.emailBounce;
  const invalidate = useInvalidateRecords(studioUuid, clientId);
  if (!bounce) return null;
  return (
    <Alert color="orange" title={t('bounce.title')} data-testid="client-email-bounce">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm">
          {t('bounce.text', {
            email: bounce.emailAddress,
            reason: t(bounce.reasonLabelKey),
            date: dates.date(bounce.at),
          })}
        </Text>
        {canClear ? (
          <Button
            size="xs"
            variant="light"
            color="orange"
            onClick={async () => {
              await recordCalls.clearBounce(api, studioUuid, clientId).catch(() => undefined);
              await invalidate();
            }}
          >
            {t('bounce.clear')}
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
