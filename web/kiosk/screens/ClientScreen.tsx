import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  KioskBooking,
  KioskCheckInResult,
  KioskClass,
  KioskClient,
  KioskDevice,
} from '../../../shared/contracts/api/kiosk';
import { CHECK_IN_OPENS_MINUTES } from '../../../shared/domain/bookings/timing';
import type { KioskApiClient } from '../kiosk-api';
import { kioskErrorMessage, reasonMessage } from '../kiosk-messages';
import { nameOf, timeOf } from './format';

/**
 * The identified client: today's bookings (check in), today's classes still to start (book, and check
 * in when it is open), entry with an entry pass, each refusal said in plain words.
 */
export function ClientScreen({
  api,
  kiosk,
  client,
  onDone,
  onBack,
}: {
  api: KioskApiClient;
  kiosk: KioskDevice;
  client: KioskClient;
  onDone: (result: KioskCheckInResult) => void;
  onBack: () => void;
}) {
  const { t, i18n } = useTranslation('kiosk');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const tz = kiosk.studio.timeZone;
  const time = (iso: string) => timeOf(iso, i18n.language, tz);
  const title = (c: { className: unknown }) => nameOf(c.className, i18n.language, kiosk.studio.defaultLocale);

  const act = async (id: string, call: () => Promise<KioskCheckInResult>) => {
    setBusy(id);
    setError(null);
    try {
      onDone(await call());
    } catch (e) {
      setError(kioskErrorMessage(e, t));
      window.scrollTo({ top: 0 });
    } finally {
      setBusy(null);
    }
  };

  const nothing = client.bookings.length === 0 && client.classes.length === 0;

  return (
    <Stack gap="lg" data-testid="kiosk-client">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Title order={2} size="h1" data-testid="kiosk-hello">
          {t('client.hello', { name: client.client.firstName })}
        </Title>
        <Button size="lg" variant="default" onClick={onBack} data-testid="kiosk-back">
          {t('common.done')}
        </Button>
      </Group>
      {error && (
        <Alert color="red" variant="filled" radius="lg" data-testid="kiosk-message">
          <Text size="xl" fw={600}>
            {error}
          </Text>
        </Alert>
      )}

      {client.bookings.length > 0 && (
        <Stack gap="sm">
          <Title order={3}>{t('client.bookings')}</Title>
          {client.bookings.map((b) => (
            <BookingCard
              key={b.visitId}
              booking={b}
              name={title(b)}
              time={time}
              busy={busy === b.visitId}
              onCheckIn={() => act(b.visitId, () => api.checkIn(client.client.id, b.scheduleEventId))}
            />
          ))}
        </Stack>
      )}

      {client.classes.length > 0 && (
        <Stack gap="sm">
          <Title order={3}>{t('client.classes')}</Title>
          {client.classes.map((c) => (
            <ClassCard
              key={c.scheduleEventId}
              item={c}
              name={title(c)}
              time={time}
              busy={busy === c.scheduleEventId}
              onBook={() => act(c.scheduleEventId, () => api.checkIn(client.client.id, c.scheduleEventId))}
            />
          ))}
        </Stack>
      )}

      {client.entry.available ? (
        <Button
          size="xl"
          h={88}
          fz={26}
          color="teal"
          loading={busy === 'entry'}
          onClick={() => act('entry', () => api.entry(client.client.id))}
          data-testid="kiosk-entry"
        >
          {t('client.entry')}
        </Button>
      ) : (
        nothing && (
          <Alert color="orange" variant="light" radius="lg" data-testid="kiosk-nothing">
            <Stack gap={4}>
              <Text size="xl" fw={600}>
                {t('client.nothingToday')}
              </Text>
              {client.entry.reason && client.entry.reason !== 'serviceNotCovered' && (
                <Text size="lg">{reasonMessage(client.entry.reason, t)}</Text>
              )}
            </Stack>
          </Alert>
        )
      )}
    </Stack>
  );
}

function BookingCard({
  booking,
  name,
  time,
  busy,
  onCheckIn,
}: {
  booking: KioskBooking;
  name: string;
  time: (iso: string) => string;
  busy: boolean;
  onCheckIn: () => void;
}) {
  const { t } = useTranslation('kiosk');
  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      data-testid="kiosk-booking"
      data-event-id={booking.scheduleEventId}
    >
      <Group justify="space-between" wrap="wrap" gap="md">
        <Stack gap={2}>
          <Text size="xl" fw={700}>
            {name}
          </Text>
          <Text size="lg" c="dimmed">
            {time(booking.startsAt)}–{time(booking.endsAt)}
          </Text>
        </Stack>
        {booking.state === 'present' ? (
          <Badge size="xl" color="teal">
            {t('client.checkedIn')}
          </Badge>
        ) : booking.state === 'booked' && booking.canCheckIn ? (
          <Button size="xl" h={72} miw={220} loading={busy} onClick={onCheckIn} data-testid="kiosk-check-in">
            {t('client.checkIn')}
          </Button>
        ) : (
          <Text size="lg" fw={600} c="orange.8">
            {booking.state === 'booked'
              ? t('client.opensAt', { time: time(booking.checkInOpensAt) })
              : t(`client.state.${booking.state}`)}
          </Text>
        )}
      </Group>
    </Card>
  );
}

function ClassCard({
  item,
  name,
  time,
  busy,
  onBook,
}: {
  item: KioskClass;
  name: string;
  time: (iso: string) => string;
  busy: boolean;
  onBook: () => void;
}) {
  const { t } = useTranslation('kiosk');
  // When the screen appeared: it lives for a minute or so (the idle reset), so that is "now".
  const [shownAt] = useState(() => Date.now());
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="kiosk-class" data-event-id={item.scheduleEventId}>
      <Group justify="space-between" wrap="wrap" gap="md">
        <Stack gap={2}>
          <Text size="xl" fw={700}>
            {name}
          </Text>
          <Text size="lg" c="dimmed">
            {time(item.startsAt)}–{time(item.endsAt)} · {t('client.placesLeft', { count: item.placesLeft })}
          </Text>
        </Stack>
        {item.canBook ? (
          <Button size="xl" h={72} miw={220} loading={busy} onClick={onBook} data-testid="kiosk-book">
            {shownAt >= new Date(item.startsAt).getTime() - CHECK_IN_OPENS_MINUTES * 60_000
              ? t('client.bookAndCheckIn')
              : t('client.book')}
          </Button>
        ) : (
          <Text size="lg" fw={600} c="red.8" maw={380} data-testid="kiosk-class-reason">
            {reasonMessage(item.reason ?? 'other', t)}
          </Text>
        )}
      </Group>
    </Card>
  );
}
