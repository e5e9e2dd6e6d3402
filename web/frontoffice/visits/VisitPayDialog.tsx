import { Alert, Button, Divider, Group, Loader, Modal, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { MyVisitView } from '../../../shared/contracts/api/bookings';
import {
  type CoveringPricingOption,
  type HeldEntitlement,
} from '../../../shared/contracts/api/visit-payment';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { PricingOptionExpirationType } from '../../../shared/enums/pricing-options';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors, type FormErrorOptions } from '../../lib/form-errors';
import { formatDay, formatTime, serviceName } from '../../features/schedule/week';
import { cartInputs, usePrepareCart } from '../cart/sales.api';
import { useStudioUuid } from '../studio';
import { clientBookingKeys, useInvalidateClientBookings } from './client-bookings.api';
import { VisitPaymentApi } from '../../../shared/contracts/http/visit-payment';
import { formatMoney } from '../../lib/money';

/** How paying a visit's refusals read (README bookings "Paying a visit online"). */
const PAY_ERROR_OPTIONS: FormErrorOptions = {
  unexpected: 'withCode',
  messagesByKey: {
    'visit.alreadyPaid': 'bookings-ui:client.pay.errors.alreadyPaid',
    'visit.notPayable': 'bookings-ui:client.pay.errors.notPayable',
    'visit.passDoesNotCover': 'bookings-ui:client.pay.errors.passDoesNotCover',
    'resource.notFound': 'bookings-ui:client.pay.errors.notFound',
    'payment.providerUnavailable': 'bookings-ui:client.pay.errors.noOnline',
  },
};

function usePayOptions(visitId: string | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: [...clientBookingKeys.all(studio), 'pay-options', visitId],
    queryFn: ({ signal }) =>
      api.call(VisitPaymentApi.postClientVisitsPayOptions, {
        params: { uuid: studio },
        body: { clientVisitId: visitId! }, // enabled only with a visit
        signal,
      }),
    enabled: visitId !== null,
    retry: false,
    staleTime: 0,
  });
}

/**
 * The "Pay" choice of a visit owed at the desk: a pass or membership the client holds that covers it
 * ("Use"), or a pricing option sold online that would (into the cart, then the normal checkout; the
 * order's fulfilment pays the visit with the new pass).
 */
export function VisitPayDialog({
  visit,
  tz,
  onClose,
}: {
  visit: MyVisitView | null;
  tz: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('bookings-ui');
  const api = useApiClient();
  const studio = useStudioUuid();
  const navigate = useNavigate();
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const options = usePayOptions(visit?.id ?? null);
  const invalidate = useInvalidateClientBookings();
  const prepare = usePrepareCart(studio);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const name = (text: Parameters<typeof serviceName>[0]) => serviceName(text, i18n.language, null);

  const fail = (err: unknown) => {
    const errors = toFormErrors(err, t, PAY_ERROR_OPTIONS);
    setError([...errors.form, ...Object.values(errors.fields)].join(' ') || t('client.failed'));
  };

  const close = () => {
    setError(null);
    setBusy(null);
    onClose();
  };

  const payWithHeld = async (held: HeldEntitlement) => {
    if (!visit) return;
    setBusy(held.id);
    setError(null);
    try {
      await api.call(VisitPaymentApi.postClientVisitsPayWithPass, {
        params: { uuid: studio },
        body: {
          clientVisitId: visit.id,
          ...(held.kind === 'pass' ? { clientPricingOptionId: held.id } : {}),
        },
      });
      await invalidate();
      close();
    } catch (err) {
      fail(err);
      setBusy(null);
    }
  };

  const buy = async (option: CoveringPricingOption) => {
    if (!visit) return;
    setBusy(option.id);
    setError(null);
    try {
      const cart = await api.get<Parameters<typeof cartInputs>[0]>(`${studio}/shopping-cart/status`);
      // One pass per visit: an earlier choice for this visit is replaced.
      const items = cartInputs(cart).filter(
        (i) => !(i.type === 'pricingOption' && i.forVisitId === visit.id),
      );
      await prepare.mutateAsync([...items, { type: 'pricingOption', id: option.id, forVisitId: visit.id }]);
      void navigate('/cart');
    } catch (err) {
      fail(err);
      setBusy(null);
    }
  };

  const event = visit?.event;
  const data = options.data;
  return (
    <Modal
      opened={visit !== null}
      onClose={close}
      title={t('client.pay.title')}
      fullScreen={phone}
      size="lg"
      data-testid="visit-pay-dialog"
    >
      {event && (
        <Stack gap="md">
          <div>
            <Text fw={600}>{name(event.classService.name)}</Text>
            <Text size="sm">
              {formatDay(localDateOf(new Date(event.startsAt), tz), i18n.language, 'long')},{' '}
              {formatTime(event.startsAt, i18n.language, tz)}–{formatTime(event.endsAt, i18n.language, tz)} ·{' '}
              {event.room?.name ?? event.location.name}
            </Text>
          </div>
          {options.isPending && <Loader size="sm" aria-label={t('staff.loading')} />}
          {options.error && (
            <Alert color="red" variant="light" data-testid="visit-pay-load-error">
              {(() => {
                const errors = toFormErrors(options.error, t, PAY_ERROR_OPTIONS);
                return [...errors.form, ...Object.values(errors.fields)].join(' ') || t('client.failed');
              })()}
            </Alert>
          )}
          {data && data.held.length > 0 && (
            <Stack gap="xs" data-testid="visit-pay-held">
              <Text fw={600} size="sm">
                {t('client.pay.heldTitle')}
              </Text>
              {data.held.map((held) => (
                <Paper key={held.id} withBorder radius="md" p="sm" data-testid="visit-pay-held-item">
                  <Group justify="space-between" wrap="nowrap" gap="sm">
                    <div style={{ minWidth: 0 }}>
                      <Text fw={500}>{name(held.name)}</Text>
                      <Text size="xs" c="dimmed">
                        {held.kind === 'contract'
                          ? t('client.pay.membership')
                          : [
                              held.entriesLeft === null
                                ? t('client.pay.unlimited')
                                : t('client.pay.entriesLeft', { count: held.entriesLeft }),
                              held.expiresAt
                                ? t('client.pay.validUntil', {
                                    date: formatDay(
                                      localDateOf(new Date(new Date(held.expiresAt).getTime() - 1), tz),
                                      i18n.language,
                                      'long',
                                    ),
                                  })
                                : null,
                            ]
                              .filter(Boolean)
                              .join(' · ')}
                      </Text>
                    </div>
                    <Button
                      size="compact-md"
                      loading={busy === held.id}
                      disabled={busy !== null && busy !== held.id}
                      onClick={() => void payWithHeld(held)}
                      data-testid="visit-pay-use"
                    >
                      {held.kind === 'contract' ? t('client.pay.useMembership') : t('client.pay.usePass')}
                    </Button>
                  </Group>
                </Paper>
              ))}
            </Stack>
          )}
          {data && data.held.length > 0 && data.pricingOptions.length > 0 && <Divider />}
          {data && data.pricingOptions.length > 0 && (
            <Stack gap="xs" data-testid="visit-pay-options">
              <Text fw={600} size="sm">
                {t('client.pay.buyTitle')}
              </Text>
              {!data.onlinePayment && (
                <Text size="sm" c="dimmed">
                  {t('client.pay.errors.noOnline')}
                </Text>
              )}
              {data.pricingOptions.map((option) => (
                <Paper key={option.id} withBorder radius="md" p="sm" data-testid="visit-pay-option">
                  <Group justify="space-between" wrap="nowrap" gap="sm">
                    <div style={{ minWidth: 0 }}>
                      <Text fw={500}>{name(option.name)}</Text>
                      <Text size="xs" c="dimmed">
                        {[
                          option.entries === null
                            ? t('client.pay.unlimited')
                            : t('client.pay.entries', { count: option.entries }),
                          validityText(option, t, i18n.language),
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                    </div>
                    <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
                      <Text fw={700} data-testid="visit-pay-price">
                        {formatMoney(option.price, option.currency)}
                      </Text>
                      <Button
                        size="compact-md"
                        variant="light"
                        loading={busy === option.id}
                        disabled={!data.onlinePayment || (busy !== null && busy !== option.id)}
                        onClick={() => void buy(option)}
                        data-testid="visit-pay-choose"
                      >
                        {t('client.pay.choose')}
                      </Button>
                    </Stack>
                  </Group>
                </Paper>
              ))}
            </Stack>
          )}
          {data && data.held.length === 0 && data.pricingOptions.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="visit-pay-none">
              {t('client.pay.none')}
            </Text>
          )}
          {error && (
            <Alert color="red" variant="light" role="alert" data-testid="visit-pay-error">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('client.pay.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** "valid 1 month", "valid until 31 Dec", … in the client's words. */
function validityText(
  option: CoveringPricingOption,
  t: (key: string, o?: Record<string, unknown>) => string,
  language: string,
) {
  if (option.expirationType === PricingOptionExpirationType.specificDate && option.validUntil)
    return t('client.pay.validUntil', { date: formatDay(option.validUntil, language, 'long') });
  if (option.validityCount && option.validityUnit)
    return t(`client.pay.validFor.${option.validityUnit}`, { count: option.validityCount });
  if (option.expirationType === PricingOptionExpirationType.calendarMonth)
    return t('client.pay.validFor.month', { count: option.validityCount ?? 1 });
  return null;
}
