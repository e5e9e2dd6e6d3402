import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { KioskCheckInResult, KioskClient, KioskDevice } from '../../../shared/contracts/api/kiosk';
import { nameOf, timeOf } from './format';

/** Seconds the success screen stays before the kiosk is ready for the next person. */
export const DONE_SECONDS = 8;

/**
 * Success: checked in, booked, or let in; whether the door opened. The web kiosk prints nothing
 * (README: a browser cannot reach the ESC/POS printer); the desktop app prints the ticket and says
 * so (`ticketPrinted`), and says when the check-in was saved at the station without the cloud.
 */
export function DoneScreen({
  client,
  result,
  kiosk,
  onBack,
}: {
  client: KioskClient;
  result: KioskCheckInResult;
  kiosk: KioskDevice;
  onBack: () => void;
}) {
  const { t, i18n } = useTranslation('kiosk');
  useEffect(() => {
    const timer = window.setTimeout(onBack, DONE_SECONDS * 1000);
    return () => window.clearTimeout(timer);
  }, [onBack]);
  const className = result.className
    ? nameOf(result.className, i18n.language, kiosk.studio.defaultLocale)
    : null;
  return (
    <Paper withBorder radius="lg" p="xl" shadow="sm" data-testid="kiosk-done">
      <Stack gap="lg" align="center" ta="center">
        <Text fz={72} lh={1} aria-hidden>
          ✓
        </Text>
        <Title order={2} size="h1" data-testid="kiosk-done-title">
          {t(result.provisional ? 'done.requested' : `done.${result.outcome}`, {
            name: client.client.firstName,
          })}
        </Title>
        {className && result.startsAt && (
          <Text size="xl" data-testid="kiosk-done-class">
            {t('done.classAt', {
              name: className,
              time: timeOf(result.startsAt, i18n.language, kiosk.studio.timeZone),
            })}
          </Text>
        )}
        {result.provisional && (
          <Alert color="blue" variant="light" radius="lg" data-testid="kiosk-provisional">
            <Text size="xl" fw={600}>
              {t('done.provisional')}
            </Text>
          </Alert>
        )}
        {result.outcome === 'booked' && <Text size="lg">{t('done.comeBack')}</Text>}
        {result.lock === 'opened' && (
          <Alert color="teal" variant="light" radius="lg" data-testid="kiosk-door">
            <Text size="xl" fw={600}>
              {t('done.doorOpened')}
            </Text>
          </Alert>
        )}
        {result.lock === 'failed' && (
          <Alert color="orange" variant="light" radius="lg" data-testid="kiosk-door">
            <Text size="xl" fw={600}>
              {t('done.doorFailed')}
            </Text>
          </Alert>
        )}
        {result.ticketPrinted !== undefined && (
          <Text
            size="xl"
            fw={600}
            c={result.ticketPrinted ? undefined : 'orange.8'}
            data-testid="kiosk-ticket"
          >
            {result.ticketPrinted ? t('done.ticketPrinted') : t('done.ticketFailed')}
          </Text>
        )}
        {/* Offline the station opens the door itself when it holds the relay; `none` means it could not. */}
        {result.offline && kiosk.hasLock && result.lock === 'none' && result.outcome !== 'booked' && (
          <Alert color="orange" variant="light" radius="lg" data-testid="kiosk-door">
            <Text size="xl" fw={600}>
              {t('done.doorOffline')}
            </Text>
          </Alert>
        )}
        {result.offline && !result.provisional && (
          <Text size="lg" c="dimmed" data-testid="kiosk-offline-note">
            {t('done.offline')}
          </Text>
        )}
        <Button size="xl" h={72} miw={260} onClick={onBack} data-testid="kiosk-done-back">
          {t('common.done')}
        </Button>
      </Stack>
    </Paper>
  );
}
