import { Alert, Button, Group, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VisitPaymentApi } from '../../../../shared/contracts/http/visit-payment';
import { formatPriceIn } from '../../../../shared/domain/money/format-price';
import { useApiClient } from '../../../lib/app-context';
import { failureText, toFormErrors } from '../../../lib/form-errors';
import { serviceName } from '../../../features/schedule/week';
import { checkout, posKeys, useLocale } from '../../pos/pos.api';
import { useStudioUuid } from '../schedule.api';
import { BOOKING_ERROR_OPTIONS, eventBookingCalls } from './event-bookings.api';
import {
  COVERING_SALE_METHODS,
  coveringSaleInput,
  sellAndEnrol,
  type CoveringSaleMethod,
} from './sell-covering-pass';

const newKey = () => crypto.randomUUID();

/**
 * Shown when enrolling a client was refused for want of a covering pass (issue 26): the passes sold
 * at the desk that cover this class, the payment taken now, and "Sell and book" — the POS's checkout,
 * then the same enrolment again, so the class is booked once the pass is paid.
 */
export function SellCoveringPass({
  eventId,
  client,
  onResult,
  onClose,
}: {
  eventId: string;
  client: { id: string; name: string };
  onResult(message: { color: string; text: string }): void;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation('bookings-ui');
  const api = useApiClient();
  const studio = useStudioUuid();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const [method, setMethod] = useState<CoveringSaleMethod>(COVERING_SALE_METHODS[0]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // One key per sale attempt: a retry after a lost answer charges once; a refused sale gets a new one.
  const [attemptKey, setAttemptKey] = useState(newKey);
  const options = useQuery({
    queryKey: ['event-bookings', studio, eventId, 'covering', client.id],
    queryFn: ({ signal }) =>
      api.call(VisitPaymentApi.getScheduleEventCoveringPricingOptions, {
        params: { uuid: studio, scheduleEvent: eventId },
        query: { clientId: client.id },
        signal,
      }),
  });

  const sell = async (option: { id: string; price: number; name: string }) => {
    setBusy(option.id);
    setError(null);
    try {
      const outcome = await sellAndEnrol({
        checkout: () =>
          checkout(api, studio, coveringSaleInput(client.id, option, method), attemptKey, locale),
        enroll: () => eventBookingCalls(api, studio, eventId).enroll({ clientId: client.id }),
      });
      setAttemptKey(newKey());
      await queryClient.invalidateQueries({ queryKey: posKeys.all(studio) });
      if (outcome.stage === 'booked')
        onResult({
          color: 'teal',
          text: t('sellCovering.booked', { pass: option.name, name: client.name }),
        });
      else {
        const errors = toFormErrors(outcome.error, t, BOOKING_ERROR_OPTIONS);
        onResult({
          color: 'orange',
          text: `${t('sellCovering.soldNotBooked', { pass: option.name, name: client.name })} ${[
            ...errors.form,
            ...Object.values(errors.fields),
          ].join(' ')}`.trim(),
        });
      }
      onClose();
    } catch (err) {
      setAttemptKey(newKey());
      setError(failureText(err, t, 'sellCovering.saleFailed'));
    } finally {
      setBusy(null);
    }
  };

  const items = options.data?.items ?? [];
  return (
    <Alert color="yellow" title={t('sellCovering.title', { name: client.name })} data-testid="sell-covering">
      <Stack gap="xs">
        <Text size="sm">{t('sellCovering.text')}</Text>
        {options.error ? (
          <Text size="sm" c="red">
            {t('sellCovering.loadFailed')}
          </Text>
        ) : !options.data ? (
          <Loader size="xs" />
        ) : items.length === 0 ? (
          <Text size="sm" data-testid="sell-covering-none">
            {t('sellCovering.none')}
          </Text>
        ) : (
          <>
            <SegmentedControl
              size="xs"
              value={String(method)}
              onChange={(v) => setMethod(Number(v) as CoveringSaleMethod)}
              data={COVERING_SALE_METHODS.map((m) => ({
                value: String(m),
                label: t(`enums:paymentMethod.${m}`),
              }))}
              aria-label={t('sellCovering.method')}
              data-testid="sell-covering-method"
            />
            {items.map((o) => {
              const name = serviceName(o.name, i18n.language, null);
              return (
                <Button
                  key={o.id}
                  size="xs"
                  variant="light"
                  loading={busy === o.id}
                  disabled={busy !== null && busy !== o.id}
                  onClick={() => void sell({ id: o.id, price: o.price, name })}
                  styles={{ label: { whiteSpace: 'normal', textAlign: 'start' } }}
                  h="auto"
                  py={6}
                  data-testid="sell-covering-option"
                >
                  {t('sellCovering.sell', {
                    pass: name,
                    price: formatPriceIn(i18n.language, o.price, o.currency),
                  })}
                </Button>
              );
            })}
          </>
        )}
        {error ? (
          <Text size="sm" c="red" data-testid="sell-covering-error">
            {error}
          </Text>
        ) : null}
        <Group>
          <Button size="compact-xs" variant="subtle" color="gray" onClick={onClose}>
            {t('sellCovering.close')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
