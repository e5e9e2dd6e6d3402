import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudioDates } from '../use-studio-date-time';

/**
 * "Times are shown in Europe/Warsaw: it is 14:05 there now." under the studio's time zone field:
 * the zone every back-office screen formats with (the saved one, from the init call), so a manager
 * sees at once that a new zone took effect. Ticks every 15 s.
 */
export function StudioTimeNow({ testId }: { testId: string }) {
  const { t } = useTranslation('studio-admin');
  const dates = useStudioDates();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 15_000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <Text size="xs" c="dimmed" data-testid={testId}>
      {t('zoneNow', { zone: dates.timeZone, time: dates.time(now.toISOString()) })}
    </Text>
  );
}
