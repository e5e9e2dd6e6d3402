import { Alert, Badge, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PublicScheduleEvent } from '../../../shared/contracts/api/schedule';
import { ScheduleApi } from '../../../shared/contracts/http/schedule';
import { resolveLocaleText } from '../../../shared/domain/locale-text';
import { useApiClient } from '../../lib/app-context';
import { formatTime, serviceName } from '../../features/schedule/week';
import { useStudioUuid } from '../studio';
import { formatDateLong } from '../../../shared/i18n/dates';

/**
 * A class of the timetable in full (issue 26): what it is (the class service's description), for
 * whom (its level), who teaches, where and when. The card already shows the name, time and place,
 * so the dialog opens with them while the rest loads.
 */
export function ClassDetailsDialog({
  event,
  tz,
  onClose,
}: {
  event: PublicScheduleEvent;
  tz: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('schedule');
  const api = useApiClient();
  const studio = useStudioUuid();
  const details = useQuery({
    queryKey: ['timetable', studio, 'details', event.id],
    queryFn: ({ signal }) =>
      api.call(ScheduleApi.publicEventDetails, {
        params: { uuid: studio, scheduleEvent: event.id },
        signal,
      }),
    staleTime: 60_000,
  });
  const lang = i18n.language;
  const day = formatDateLong(event.startsAt, lang, tz);
  const description = details.data ? resolveLocaleText(details.data.description, lang, null) : '';
  const row = (label: string, value: string, testId: string) => (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" w={110} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
  return (
    <Modal
      opened
      onClose={onClose}
      title={<Text fw={700}>{serviceName(event.classService.name, lang, null)}</Text>}
      data-testid="class-details"
    >
      <Stack gap="sm" data-testid="class-details-body">
        {event.cancelled && (
          <Badge color="red" w="fit-content">
            {t('status.cancelled')}
          </Badge>
        )}
        {row(
          t('classDetails.when'),
          `${day}, ${formatTime(event.startsAt, lang, tz)}–${formatTime(event.endsAt, lang, tz)}`,
          'class-details-when',
        )}
        {row(
          t('classDetails.where'),
          [event.location.name, event.room?.name].filter(Boolean).join(' · '),
          'class-details-where',
        )}
        {row(
          t('classDetails.instructor'),
          event.instructors.map((p) => `${p.firstName} ${p.lastName}`).join(', ') || '—',
          'class-details-instructor',
        )}
        {details.error ? (
          <Alert color="red">{t('classDetails.loadFailed')}</Alert>
        ) : !details.data ? (
          <Loader size="sm" aria-label={t('loading')} />
        ) : (
          <>
            {row(
              t('classDetails.level'),
              details.data.level ?? t('classDetails.anyLevel'),
              'class-details-level',
            )}
            <Text size="sm" style={{ whiteSpace: 'pre-line' }} data-testid="class-details-description">
              {description || t('classDetails.noDescription')}
            </Text>
          </>
        )}
      </Stack>
    </Modal>
  );
}
