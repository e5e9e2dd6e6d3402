import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ClientVisitView } from '../../../shared/contracts/api/bookings';
import { DESK_PAYMENT_METHODS } from '../../../shared/contracts/api/sales';
import { resolveLocaleText } from '../../../shared/domain/locale-text';
import { ClientVisitStatus, PaymentMethod } from '../../../shared/enums';
import { toFormErrors } from '../../lib/form-errors';
import { useApiClient } from '../../lib/app-context';
import { PaymentCardList } from '../../features/sales/PaymentCardList';
import { useBackoffice } from '../backoffice.api';
import type { ClientProfileTabProps } from '../clients/profile-tabs';
import { OrderStatusBadge } from './OrdersScreen';
import { useStudioUuid } from './orders.api';
import { BookingsApi } from '../../../shared/contracts/http/bookings';
import { SalesApi } from '../../../shared/contracts/http/sales';
import { PaymentCardsApi } from '../../../shared/contracts/http/payment-cards';
import { ListLoading } from '../list-frame';
import { formatMoney } from '../../lib/money';
import { useStudioDates } from '../use-studio-date-time';

const clientKeys = {
  all: (studio: string, client: string) => ['client-payments', studio, client] as const,
  wallet: (studio: string, client: string) => ['client-payments', studio, client, 'wallet'] as const,
  cards: (studio: string, client: string) => ['client-payments', studio, client, 'cards'] as const,
  orders: (studio: string, client: string) => ['client-payments', studio, client, 'orders'] as const,
  visits: (studio: string, client: string) => ['client-payments', studio, client, 'visits'] as const,
};

/**
 * The client profile's "Payments" tab: wallet balance (`client-wallet/{user}/init`), the cards the
 * client saved at an online checkout (read-only; removable at the client's request with
 * `sales.sell`), and the client's latest orders (`client/{user}/client-order/all`), each opening
 * the order.
 */
export function ClientPaymentsTab({ clientId }: ClientProfileTabProps) {
  const { t } = useTranslation('orders');
  const dates = useStudioDates();
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const { member } = useBackoffice();
  const canRemove = member.abilities.includes('sales.sell');
  const wallet = useQuery({
    queryKey: clientKeys.wallet(studio, clientId),
    queryFn: ({ signal }) =>
      api.call(SalesApi.getClientWalletInit, { params: { uuid: studio, user: clientId }, signal }),
    enabled: member.abilities.includes('clients.view'),
  });
  const cards = useQuery({
    queryKey: clientKeys.cards(studio, clientId),
    queryFn: ({ signal }) =>
      api.call(PaymentCardsApi.getClientPaymentCards, { params: { uuid: studio, user: clientId }, signal }),
  });
  const orders = useQuery({
    queryKey: clientKeys.orders(studio, clientId),
    queryFn: ({ signal }) =>
      api.call(SalesApi.getClientClientOrderAll, {
        params: { uuid: studio, user: clientId },
        query: { limit: 20 },
        signal,
      }),
  });
  const failed = [wallet, cards, orders].find((q) => q.isError);
  if (failed)
    return (
      <Alert color="red" title={t('loadError')} data-testid="client-payments-error">
        <Button variant="light" mt="sm" onClick={() => void failed.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  if (!cards.data || !orders.data) return <ListLoading label={t('loading')} />;
  const when = (iso: string) => dates.date(iso);

  return (
    <Stack gap="lg" data-testid="client-payments">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {wallet.data ? (
          <Paper withBorder p="md" radius="md">
            <Text size="sm" c="dimmed">
              {t('clientPayments.wallet')}
            </Text>
            <Text fw={700} fz={28} data-testid="client-wallet-balance">
              {formatMoney(wallet.data.wallet.balance, wallet.data.wallet.currency)}
            </Text>
            {wallet.data.wallet.entries.slice(0, 5).map((e) => (
              <Group key={e.id} justify="space-between" gap="xs" data-testid="client-wallet-entry">
                <Text size="xs" c="dimmed">
                  {when(e.createdAt)} · {t(`sales:wallet.kind.${e.kind}`)}
                </Text>
                <Text size="xs" fw={600} c={e.amount < 0 ? 'red' : 'teal'}>
                  {e.amount > 0 ? '+' : ''}
                  {formatMoney(e.amount, e.currency)}
                </Text>
              </Group>
            ))}
          </Paper>
        ) : null}
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('clientPayments.cards')}
          </Title>
          {cards.data.items.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="client-cards-empty">
              {t('clientPayments.noCards')}
            </Text>
          ) : (
            <div data-testid="client-cards">
              <PaymentCardList
                cards={cards.data.items}
                canRemove={canRemove}
                onRemove={async (card) => {
                  await api.call(PaymentCardsApi.deleteClientPaymentCard, {
                    params: { uuid: studio, user: clientId, card: card.id },
                  });
                  await queryClient.invalidateQueries({ queryKey: clientKeys.cards(studio, clientId) });
                }}
              />
            </div>
          )}
        </Stack>
      </SimpleGrid>

      {member.abilities.includes('schedule.view') && canRemove ? <VisitsToPay clientId={clientId} /> : null}

      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('clientPayments.orders')}
        </Title>
        {orders.data.items.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="client-orders-empty">
            {t('clientPayments.noOrders')}
          </Text>
        ) : (
          <Paper withBorder radius="md">
            {orders.data.items.map((o, i) => (
              <Group
                key={o.id}
                justify="space-between"
                wrap="nowrap"
                gap="sm"
                p="sm"
                style={{ borderTop: i > 0 ? '1px solid var(--mantine-color-gray-3)' : undefined }}
                data-testid="client-order"
              >
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Anchor component={Link} to={`/orders/${o.id}`} fw={600} size="sm">
                    {o.reference}
                  </Anchor>
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {when(o.createdAt)} · {o.summary}
                  </Text>
                </Stack>
                <Group gap="sm" wrap="nowrap">
                  <OrderStatusBadge status={o.status} />
                  <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {formatMoney(o.total, o.currency)}
                  </Text>
                </Group>
              </Group>
            ))}
          </Paper>
        )}
      </Stack>
    </Stack>
  );
}

/** The methods the desk takes for visits ("none" is for gifts of a whole order, not here). */
const VISIT_METHODS = DESK_PAYMENT_METHODS.filter((m) => m !== PaymentMethod.none);

/**
 * Visits booked "pay at the desk" (status unconfirmed, payment `desk`) and paid here with
 * `client-visits/pay` (spec §7 private v2): the visits chosen, a price per visit (the spec names no
 * drop-in price, so staff give it), a desk method. Paying books them (unconfirmed → booked) and
 * records one order of visit lines.
 */
function VisitsToPay({ clientId }: { clientId: string }) {
  const { t, i18n } = useTranslation('orders');
  const dates = useStudioDates();
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const { studio: studioInfo } = useBackoffice();
  const visits = useQuery({
    queryKey: clientKeys.visits(studio, clientId),
    queryFn: ({ signal }) =>
      api.call(BookingsApi.getClientClientVisitCollection, {
        params: { uuid: studio, user: clientId },
        query: { when: 'all', limit: 100 },
        signal,
      }),
  });
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [price, setPrice] = useState<number | ''>('');
  const [method, setMethod] = useState<number>(PaymentMethod.cash);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [paidOrder, setPaidOrder] = useState<string | null>(null);
  const toPay = (visits.data?.items ?? []).filter(
    (v: ClientVisitView) => v.status === ClientVisitStatus.unconfirmed && v.payment === 'desk',
  );
  if (!visits.data || (toPay.length === 0 && !paidOrder)) return null;
  const picked = toPay.filter((v) => chosen.has(v.id));
  const unitPrice = typeof price === 'number' ? Math.round(price * 100) : null;
  // Translated when shown: a language switch re-words an error already on screen.
  const errors = error ? toFormErrors(error, t, { unexpected: 'withCode' }) : null;

  const pay = async () => {
    if (unitPrice === null || picked.length === 0) return;
    setBusy(true);
    setError(null);
    try {
      const res = await api.post<{ orderId: string }>(`../v2/${studio}/client-visits/pay`, {
        userId: clientId,
        visitIds: picked.map((v) => v.id),
        unitPrice,
        method,
      });
      setPaidOrder(res.orderId);
      setChosen(new Set());
      await queryClient.invalidateQueries({ queryKey: clientKeys.all(studio, clientId) });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs" data-testid="visits-to-pay">
      <Title order={3} size="h5">
        {t('clientPayments.visits')}
      </Title>
      {paidOrder ? (
        <Alert color="green" withCloseButton onClose={() => setPaidOrder(null)} data-testid="visits-paid">
          {t('clientPayments.visitsPaid')}{' '}
          <Anchor component={Link} to={`/orders/${paidOrder}`}>
            {paidOrder.slice(-8).toUpperCase()}
          </Anchor>
        </Alert>
      ) : null}
      {toPay.length > 0 ? (
        <Paper withBorder radius="md" p="sm">
          <Stack gap="xs">
            {toPay.map((v) => (
              <Checkbox
                key={v.id}
                checked={chosen.has(v.id)}
                onChange={() =>
                  setChosen((prev) => {
                    const next = new Set(prev);
                    if (next.has(v.id)) next.delete(v.id);
                    else next.add(v.id);
                    return next;
                  })
                }
                label={`${resolveLocaleText(v.event.classService.name, i18n.language, null)} · ${dates.dateTime(v.event.startsAt)}`}
                data-testid="visit-to-pay"
              />
            ))}
            <Group align="flex-end" gap="sm">
              <NumberInput
                label={t('clientPayments.visitPrice')}
                value={price}
                onChange={(v) => setPrice(typeof v === 'number' ? v : '')}
                min={0}
                decimalScale={2}
                w={140}
                error={errors?.fields.unitPrice}
                data-testid="visit-price"
              />
              <NativeSelect
                label={t('clientPayments.visitMethod')}
                value={String(method)}
                onChange={(e) => setMethod(Number(e.currentTarget.value))}
                data={VISIT_METHODS.map((m) => ({ value: String(m), label: t(`enums:paymentMethod.${m}`) }))}
                w={180}
                data-testid="visit-method"
              />
              <Button
                onClick={() => void pay()}
                loading={busy}
                disabled={picked.length === 0 || unitPrice === null}
                data-testid="visits-pay"
              >
                {picked.length === 0 || unitPrice === null
                  ? t('clientPayments.visitsChoose')
                  : t('clientPayments.visitsPay', {
                      count: picked.length,
                      amount: formatMoney(unitPrice * picked.length, studioInfo.currency),
                    })}
              </Button>
            </Group>
            {errors?.form.map((m) => (
              <Text size="sm" c="red" key={m}>
                {m}
              </Text>
            ))}
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}
