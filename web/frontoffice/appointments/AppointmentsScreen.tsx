import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ClientAppointmentView } from '../../../shared/contracts/api/appointments';
import { addLocalDays, localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { formatMoney } from '../../lib/money';
import { ApiError } from '../../lib/api-client';
import { CalendarFeedButton } from '../../features/appointments/CalendarFeedButton';
import { useStudioUuid } from '../studio';
import { useSignedIn, useStudioTimeZone } from '../visits/client-bookings.api';
import {
  useClientAppointmentActions,
  useClientAppointmentsInit,
  useFreeTimes,
  useMyAppointments,
} from './appointments.api';
import { formatDateTimeLong, formatTime } from '../../../shared/i18n/dates';

type Payment = 'pass' | 'wallet' | 'online';

/**
 * Booking an appointment (issue 21): choose a service, a member of staff or anyone, a day and a free
 * time, then pay with a pass, the wallet or online (the time is held while paying); below, my
 * appointments to come, each cancellable while the studio allows.
 */
export function AppointmentsScreen() {
  const { t, i18n } = useTranslation('appointments');
  const signedIn = useSignedIn();
  const init = useClientAppointmentsInit();
  const actions = useClientAppointmentActions();
  const data = init.data;
  const tz = data?.timeZone ?? 'Europe/Warsaw';
  const [serviceId, setServiceId] = useState<string | null>(null);
  const [memberId, setMemberId] = useState<string | null>(null);
  const [day, setDay] = useState(() => addLocalDays(localDateOf(new Date(), tz), 1));
  const [slot, setSlot] = useState<{ startsAt: string; memberIds: string[] } | null>(null);
  const [payment, setPayment] = useState<Payment>('pass');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const times = useFreeTimes(serviceId, memberId, day);
  const service = data?.services.find((s) => s.id === serviceId) ?? null;
  const label = (n: Record<string, { value: string } | undefined>) =>
    n[i18n.language]?.value ?? n.en?.value ?? Object.values(n)[0]?.value ?? '';
  const time = useMemo(
    () => ({ format: (at: Date) => formatTime(at, i18n.language, tz) }),
    [i18n.language, tz],
  );
  const members = (data?.members ?? []).filter((m) => service?.memberIds.includes(m.id));
  const errorText = (e: unknown) =>
    e instanceof ApiError && e.key
      ? t(`errors.${e.key.replace('.', '_')}`, { defaultValue: e.message })
      : t('errors.unknown');

  if (!signedIn)
    return (
      <Stack>
        <Title order={1} size="h2">
          {t('front.title')}
        </Title>
        <Text>{t('front.signIn')}</Text>
        <Button component={Link} to="../login" w="fit-content">
          {t('front.signInButton')}
        </Button>
      </Stack>
    );

  const book = async () => {
    if (!service || !slot) return;
    setBusy(true);
    setMessage(null);
    try {
      const out = await actions.book({
        serviceId: service.id,
        memberId,
        startsAt: slot.startsAt,
        payment,
        returnPath: window.location.pathname,
      });
      if (out.redirectUrl) {
        window.location.assign(out.redirectUrl);
        return;
      }
      setSlot(null);
      setMessage({
        ok: true,
        text: t(out.appointment.status === 'pending' ? 'front.requested' : 'front.booked'),
      });
    } catch (e) {
      setMessage({ ok: false, text: errorText(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="lg" maw={900}>
      <Title order={1} size="h2">
        {t('front.title')}
      </Title>
      <Card withBorder>
        <Stack gap="sm">
          <Text fw={600}>{t('front.chooseService')}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {(data?.services ?? []).map((s) => (
              <UnstyledButton
                key={s.id}
                onClick={() => {
                  setServiceId(s.id);
                  setMemberId(null);
                  setSlot(null);
                }}
                data-testid="appointment-service"
              >
                <Card
                  withBorder
                  padding="sm"
                  style={{ borderColor: s.id === serviceId ? 'var(--mantine-color-blue-6)' : undefined }}
                >
                  <Text fw={500}>{label(s.name)}</Text>
                  <Group gap={6}>
                    <Text size="sm" c="dimmed">
                      {s.durationMinutes} min
                    </Text>
                    {s.price !== null && <Badge variant="light">{formatMoney(s.price, s.currency)}</Badge>}
                    {s.online && <Badge variant="outline">{t('services.online')}</Badge>}
                    {s.confirmation === 'manual' && (
                      <Badge color="orange" variant="light">
                        {t('front.needsConfirmation')}
                      </Badge>
                    )}
                  </Group>
                </Card>
              </UnstyledButton>
            ))}
          </SimpleGrid>
          {service && (
            <Group align="end" wrap="wrap">
              <Select
                label={t('front.staff')}
                data={[
                  { value: '', label: t('front.anyone') },
                  ...members.map((m) => ({ value: m.id, label: `${m.firstName} ${m.lastName}` })),
                ]}
                value={memberId ?? ''}
                onChange={(v) => {
                  setMemberId(v || null);
                  setSlot(null);
                }}
                allowDeselect={false}
                data-testid="appointment-staff"
              />
              <TextInput
                type="date"
                label={t('front.day')}
                value={day}
                onChange={(e) => {
                  setDay(e.currentTarget.value);
                  setSlot(null);
                }}
                data-testid="appointment-day"
              />
            </Group>
          )}
          {service && (
            <Group gap="xs" data-testid="appointment-times">
              {times.data?.items.length === 0 && <Text c="dimmed">{t('front.noTimes')}</Text>}
              {times.data?.items.map((s) => (
                <Button
                  key={s.startsAt}
                  size="xs"
                  variant={slot?.startsAt === s.startsAt ? 'filled' : 'default'}
                  onClick={() => setSlot(s)}
                  data-testid="appointment-time"
                >
                  {time.format(new Date(s.startsAt))}
                </Button>
              ))}
            </Group>
          )}
          {service && slot && (
            <Stack gap="xs" data-testid="appointment-pay">
              <Radio.Group value={payment} onChange={(v) => setPayment(v as Payment)} label={t('front.pay')}>
                <Stack gap={4} mt={4}>
                  <Radio
                    value="pass"
                    label={
                      (data?.contracts.length ?? 0) > 0
                        ? t('front.payPassOrContract')
                        : t('front.payPass', { count: data?.passes.length ?? 0 })
                    }
                    disabled={(data?.passes.length ?? 0) + (data?.contracts.length ?? 0) === 0}
                    data-testid="pay-pass"
                  />
                  {service.price !== null && (
                    <Radio
                      value="wallet"
                      label={t('front.payWallet', {
                        balance: formatMoney(data?.walletBalance ?? 0, data?.currency ?? 'PLN'),
                      })}
                      data-testid="pay-wallet"
                    />
                  )}
                  {service.price !== null && data?.onlinePayment && (
                    <Radio
                      value="online"
                      label={t('front.payOnline', { price: formatMoney(service.price, service.currency) })}
                      data-testid="pay-online"
                    />
                  )}
                </Stack>
              </Radio.Group>
              <Button
                onClick={() => void book()}
                loading={busy}
                w="fit-content"
                data-testid="appointment-book"
              >
                {t('front.book')}
              </Button>
            </Stack>
          )}
          {message && (
            <Alert color={message.ok ? 'green' : 'red'} data-testid="appointment-message">
              {message.text}
            </Alert>
          )}
        </Stack>
      </Card>
      <MyAppointments />
    </Stack>
  );
}

function MyAppointments() {
  const { t, i18n } = useTranslation('appointments');
  const mine = useMyAppointments();
  const studio = useStudioUuid();
  const actions = useClientAppointmentActions();
  const [error, setError] = useState<string | null>(null);
  const tz = useStudioTimeZone();
  const when = { format: (at: Date) => formatDateTimeLong(at, i18n.language, tz) };
  const label = (a: ClientAppointmentView) =>
    a.service.name[i18n.language]?.value ?? a.service.name.en?.value ?? '';
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h3">
          {t('front.mine')}
        </Title>
        <CalendarFeedButton studio={studio} />
      </Group>
      {mine.data?.items.length === 0 && <Text c="dimmed">{t('front.noneYet')}</Text>}
      {error && <Alert color="red">{error}</Alert>}
      {mine.data?.items.map((a) => (
        <Card key={a.id} withBorder padding="sm" data-testid="my-appointment">
          <Group justify="space-between" wrap="wrap">
            <Stack gap={2}>
              <Text fw={500}>{label(a)}</Text>
              <Text size="sm">{when.format(new Date(a.startsAt))}</Text>
              <Text size="sm" c="dimmed">
                {a.member.firstName} {a.member.lastName}
              </Text>
            </Stack>
            <Group gap="xs">
              <Badge data-testid="my-appointment-status">{t(`status.${a.status}`)}</Badge>
              {['pending', 'booked'].includes(a.status) && new Date(a.startsAt) > new Date() && (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() =>
                    void actions
                      .cancel(a.id)
                      .catch((e: unknown) =>
                        setError(
                          e instanceof ApiError
                            ? t(`errors.${(e.key ?? '').replace('.', '_')}`, { defaultValue: e.message })
                            : t('errors.unknown'),
                        ),
                      )
                  }
                  data-testid="my-appointment-cancel"
                >
                  {new Date(a.cancellationCutoffAt) > new Date() ? t('front.cancel') : t('front.cancelLate')}
                </Button>
              )}
            </Group>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
