import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ScheduleEventView } from '../../../shared/contracts/api/schedule';

/** A class's state where it is not the usual: cancelled or removed, hidden, not bookable online. */
export function EventStatusBadges({ event }: { event: ScheduleEventView }) {
  const { t } = useTranslation('schedule');
  return (
    <>
      {event.status !== 'scheduled' && (
        <Badge size="xs" color={event.status === 'cancelled' ? 'red' : 'gray'} variant="filled">
          {t(`status.${event.status}`)}
        </Badge>
      )}
      {event.hidden && (
        <Badge size="xs" color="gray" variant="outline">
          {t('hidden')}
        </Badge>
      )}
      {!event.bookableOnline && event.status === 'scheduled' && (
        <Badge size="xs" color="orange" variant="light">
          {t('notBookable')}
        </Badge>
      )}
    </>
  );
}
