import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { MyVisitView } from '../../../shared/contracts/api/bookings';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { ClientVisitStatus } from '../../../shared/enums/visits';
import { formatDay, formatTime, serviceName } from '../../features/schedule/week';
import { visitPaymentLabel } from '../../features/schedule/visit-payment';
import { useOrderStatus } from '../cart/sales.api';
import { paymentOutcome, RetryPayment } from '../purchases/PurchasesScreen';
import { useStudioUuid } from '../studio';
import { useBookingAction } from '../timetable/BookingControls';
import {
  loginPath,
  useInvalidateClientBookings,
  useMyVisits,
  useSignedIn,
  useStudioTimeZone,
} from './client-bookings.api';
import { VisitPayDialog } from './VisitPayDialog';

const STATUS_COLOR: Record<number, string> = {
  [ClientVisitStatus.booked]: 'teal',
  [ClientVisitStatus.present]: 'teal',
  [ClientVisitStatus.absent]: 'orange',
  [ClientVisitStatus.unconfirmed]: 'yellow',
  [ClientVisitStatus.waitingList]: 'grape',
};

/** "My visits": the client's upcoming and past classes with their status and waiting-list place. */
export function VisitsScreen() {
  const { t } = useTranslation('bookings-ui');
  const signedIn = useSignedIn();
  const [when, setWhen] = useState<'upcoming' | 'past'>('upcoming');
  const [paying, setPaying] = useState<MyVisitView | null>(null);
  const tz = useStudioTimeZone();
  if (!signedIn)
    return (
      <Paper withBorder p="xl" radius="md" maw={480} mx="auto" data-testid="visits-signed-out">
        <Stack gap="md">
          <Text>{t('client.visitsSignedOut')}</Text>
          <Group>
            <Button component={Link} to={loginPath('visits')} data-testid="visits-sign-in">
              {t('client.signIn')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    );
  return (
    <Stack gap="md" data-testid="visits-screen">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2}>{t('client.visitsTitle')}</Title>
        <SegmentedControl
          value={when}
          onChange={(v) => setWhen(v as 'upcoming' | 'past')}
          data={[
            { value: 'upcoming', label: t('client.upcoming') },
            { value: 'past', label: t('client.past') },
          ]}
          data-testid="visits-when"
        />
      </Group>
      <PayResult />
      <VisitList when={when} tz={tz} onPay={setPaying} />
      <VisitPayDialog visit={paying} tz={tz} onClose={() => setPaying(null)} />
    </Stack>
  );
}

/** Back from paying a pass bought for a visit (`?order=…&payment=…`): the outcome, polled while pending. */
function PayResult() {
  const { t } = useTranslation('bookings-ui');
  const studio = useStudioUuid();
  const [params] = useSearchParams();
  const status = useOrderStatus(studio, params.get('order'));
  const invalidate = useInvalidateClientBookings();
  const outcome = status.data ? paymentOutcome(status.data) : null;
  useEffect(() => {
    // Paid: the order's fulfilment paid the visit with the new pass — show the list as it is now.
    if (outcome && outcome !== 'pending') void invalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [outcome]);
  if (!outcome) return null;
  const color = outcome === 'succeeded' ? 'green' : outcome === 'pending' ? 'blue' : 'red';
  return (
    <Alert
      color={color}
      variant="light"
      data-testid="visit-pay-result"
      data-outcome={outcome}
      icon={outcome === 'pending' ? <Loader size="xs" /> : undefined}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t(`client.pay.result.${outcome}`)}</Text>
        {outcome === 'failed' || outcome === 'cancelled' ? <RetryPayment /> : null}
      </Stack>
    </Alert>
  );
}

function VisitList({
  when,
  tz,
  onPay,
}: {
  when: 'upcoming' | 'past';
  tz: string;
  onPay: (visit: MyVisitView) => void;
}) {
  const { t } = useTranslation('bookings-ui');
  const visits = useMyVisits(when);
  if (visits.error) return <Alert color="red">{t('client.visitsLoadFailed')}</Alert>;
  if (!visits.data) return <Loader aria-label={t('staff.loading')} />;
  if (visits.data.items.length === 0)
    return (
      <Stack gap="xs" data-testid="visits-empty">
        <Text c="dimmed">{when === 'upcoming' ? t('client.noUpcoming') : t('client.noPast')}</Text>
        {when === 'upcoming' && (
          <Group>
            <Button component={Link} to="/timetable" variant="light">
              {t('client.toTimetable')}
            </Button>
          </Group>
        )}
      </Stack>
    );
  return (
    <Stack gap="xs" data-testid="visits-list">
      {visits.data.items.map((visit) => (
        <VisitCard key={visit.id} visit={visit} tz={tz} onPay={() => onPay(visit)} />
      ))}
    </Stack>
  );
}

function VisitCard({ visit, tz, onPay }: { visit: MyVisitView; tz: string; onPay: () => void }) {
  const { t, i18n } = useTranslation('bookings-ui');
  const { busy, feedback, run, calls } = useBookingAction();
  const [confirming, setConfirming] = useState(false);
  const waiting = visit.status === ClientVisitStatus.waitingList;
  const event = visit.event;
  const paidWith = visitPaymentLabel(visit, t, i18n.language, 'client');
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      style={{ borderLeft: `4px solid ${event.classService.color}` }}
      data-testid="visit-card"
    >
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text fw={600} td={event.cancelled ? 'line-through' : undefined} data-testid="visit-class">
            {serviceName(event.classService.name, i18n.language, null)}
          </Text>
          <Text size="sm">
            {formatDay(localDateOf(new Date(event.startsAt), tz), i18n.language, 'long')},{' '}
            {formatTime(event.startsAt, i18n.language, tz)}–{formatTime(event.endsAt, i18n.language, tz)}
          </Text>
          <Text size="xs" c="dimmed">
            {[
              event.room?.name ?? event.location.name,
              event.instructors.map((p) => `${p.firstName} ${p.lastName}`).join(', '),
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          {paidWith && (
            <Text size="xs" c="dimmed" data-testid="visit-payment">
              {paidWith}
            </Text>
          )}
          {visit.fees
            .filter((f) => !f.forgiven)
            .map((f) => (
              <Text key={f.id} size="xs" c="orange">
                {t(`bookings:fee.${f.kind}`)}
              </Text>
            ))}
        </div>
        <Stack gap={4} align="flex-end">
          <Badge color={STATUS_COLOR[visit.status] ?? 'gray'} variant="light" data-testid="visit-status">
            {waiting
              ? t('client.waitingPosition', { position: visit.waitingPosition ?? '?' })
              : t(`enums:clientVisitStatus.${visit.status}`)}
          </Badge>
          {!confirming && (visit.payable || visit.canCancel) && (
            <Group gap="xs" wrap="nowrap">
              {visit.payable && (
                <Button size="compact-sm" onClick={onPay} data-testid="visit-pay">
                  {t('client.pay.button')}
                </Button>
              )}
              {visit.canCancel && (
                <Button
                  size="compact-sm"
                  variant="default"
                  loading={busy}
                  onClick={() =>
                    waiting ? void run(() => calls.leaveWaitingList(event.id)) : setConfirming(true)
                  }
                  data-testid="visit-cancel"
                >
                  {waiting ? t('client.leaveWaiting') : t('client.cancel')}
                </Button>
              )}
            </Group>
          )}
        </Stack>
      </Group>
      {confirming && (
        <Group justify="flex-end" gap="xs" mt="xs" wrap="wrap">
          <Text size="xs" c={visit.cancelIsLate ? 'orange' : 'dimmed'} style={{ flex: 1, minWidth: 160 }}>
            {visit.cancelIsLate
              ? t(visit.pass ? 'client.lateWarning' : 'client.lateNoPass')
              : t(visit.pass ? 'client.earlyNote' : 'client.earlyNoPass')}
          </Text>
          <Button size="compact-sm" variant="subtle" onClick={() => setConfirming(false)}>
            {t('client.keep')}
          </Button>
          <Button
            size="compact-sm"
            color="red"
            loading={busy}
            onClick={() => void run(() => calls.cancel(visit.id)).then(() => setConfirming(false))}
            data-testid="visit-cancel-confirm"
          >
            {t('client.confirmCancel')}
          </Button>
        </Group>
      )}
      {feedback && (
        <Text size="xs" c={feedback.color} mt={4} role="status">
          {feedback.text}
        </Text>
      )}
    </Paper>
  );
}
