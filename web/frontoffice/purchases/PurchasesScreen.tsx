import { Alert, Badge, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { ClientInvoice } from '../../../shared/contracts/api/invoices';
import type { OrderStatusView, PurchasesView } from '../../../shared/contracts/api/sales';
import { InvoicesApi } from '../../../shared/contracts/http/invoices';
import { OrderStatus } from '../../../shared/enums';
import { useApiClient, useSession } from '../../lib/app-context';
import { LoadError } from '../cart/CartScreen';
import { useOrderStatus } from '../cart/sales.api';
import { useStudioUuid } from '../studio';
import { SignInFirst } from '../cart/SignInFirst';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../../shared/i18n/dates';
import { useStudioTimeZone } from '../visits/client-bookings.api';

type Outcome = 'pending' | 'succeeded' | 'failed' | 'cancelled' | 'chargeback';

/** What the client should be told about an order they just paid (or tried to). */
export function paymentOutcome(view: OrderStatusView): Outcome {
  if (view.payment) return view.payment.status;
  return view.status === OrderStatus.paid || view.status === OrderStatus.freeOfCharge
    ? 'succeeded'
    : 'pending';
}

const OUTCOME_COLOR: Record<Outcome, string> = {
  pending: 'blue',
  succeeded: 'green',
  failed: 'red',
  cancelled: 'gray',
  chargeback: 'red',
};

/** The banner after a checkout or a return from the bank (`?order=…&payment=…`), polling while pending. */
export function PaymentResult({ orderId, messages }: { orderId: string; messages: 'purchases' | 'wallet' }) {
  const { t } = useTranslation('sales');
  const studio = useStudioUuid();
  const status = useOrderStatus(studio, orderId);
  if (!status.data) return null;
  const outcome = paymentOutcome(status.data);
  // A purchase that did not go through is back in the cart (the server put its items back).
  const retry = messages === 'purchases' && (outcome === 'failed' || outcome === 'cancelled');
  return (
    <Alert
      color={OUTCOME_COLOR[outcome]}
      variant="light"
      data-testid="payment-result"
      data-outcome={outcome}
      icon={outcome === 'pending' ? <Loader size="xs" /> : undefined}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t(`${messages}.result.${outcome}`)}</Text>
        {retry ? <RetryPayment /> : null}
      </Stack>
    </Alert>
  );
}

/** After a declined or cancelled payment: the items wait in the cart, "Try again" goes there to pay. */
export function RetryPayment() {
  const { t } = useTranslation('sales');
  return (
    <>
      <Text size="sm" data-testid="payment-retry-hint">
        {t('purchases.retry.hint')}
      </Text>
      <Button component={Link} to="/cart" size="sm" data-testid="payment-retry">
        {t('purchases.retry.button')}
      </Button>
    </>
  );
}

/** "My purchases" (front office `POST purchases`): the signed-in client's orders, newest first. */
export function PurchasesScreen() {
  const { t } = useTranslation('sales');
  const session = useSession();
  if (!(session.userId && session.sessionId)) {
    return <SignInFirst back="purchases" text={t('cart.signIn')} signIn={t('cart.signInButton')} />;
  }
  return <Purchases />;
}

function Purchases() {
  const { t, i18n } = useTranslation('sales');
  const tz = useStudioTimeZone();
  const { t: te } = useTranslation('enums');
  const api = useApiClient();
  const studio = useStudioUuid();
  const [params] = useSearchParams();
  const orderId = params.get('order');
  const returned = useOrderStatus(studio, orderId);
  const list = useInfiniteQuery({
    queryKey: ['purchases', studio],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.post<PurchasesView>(`${studio}/purchases`, pageParam ? { cursor: pageParam } : {}, { signal }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
  // The client's own invoices, shown on the purchase they were issued for (newest 200).
  const invoices = useQuery({
    queryKey: ['purchases', studio, 'invoices'],
    queryFn: ({ signal }) =>
      api.call(InvoicesApi.getPurchasesInvoices, { params: { uuid: studio }, query: { limit: 200 }, signal }),
  });
  const invoicesByOrder = new Map<string, ClientInvoice[]>();
  for (const invoice of invoices.data?.items ?? [])
    if (invoice.orderId)
      invoicesByOrder.set(invoice.orderId, [...(invoicesByOrder.get(invoice.orderId) ?? []), invoice]);
  // The order's state changed (the bank answered): show the list as it is now.
  const settled = returned.data ? paymentOutcome(returned.data) : null;
  const { refetch } = list;
  useEffect(() => {
    if (settled && settled !== 'pending') void refetch();
  }, [settled, refetch]);

  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack gap="lg" data-testid="purchases">
      <Title order={2}>{t('purchases.title')}</Title>
      {orderId ? <PaymentResult orderId={orderId} messages="purchases" /> : null}
      {list.error ? (
        <LoadError error={list.error} retry={() => void list.refetch()} />
      ) : list.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : items.length === 0 ? (
        <Paper withBorder p="lg" radius="md">
          <Stack gap="sm" align="flex-start">
            <Text c="dimmed">{t('purchases.empty')}</Text>
            <Button component={Link} to="/pricing/pricing-options" variant="default">
              {t('cart.seePrices')}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <Stack gap="sm">
          {items.map((p) => (
            <Paper
              key={p.id}
              withBorder
              p="md"
              radius="md"
              data-testid="purchase"
              data-order={p.id}
              style={p.id === orderId ? { borderColor: 'var(--mantine-color-blue-5)' } : undefined}
            >
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Stack gap={4} style={{ minWidth: 0 }}>
                  {p.lines.map((l, i) => (
                    <Text key={i} fw={600} truncate>
                      {l.quantity > 1 ? `${l.quantity} × ` : ''}
                      {l.name}
                    </Text>
                  ))}
                  <Text size="sm" c="dimmed">
                    {t('purchases.reference', { reference: p.reference })} ·{' '}
                    <span data-testid="purchase-date">{formatDate(p.createdAt, i18n.language, tz)}</span>
                  </Text>
                  {p.payment ? (
                    <Text size="sm" c="dimmed">
                      {t('purchases.paidWith', { method: te(`paymentMethod.${p.payment.method}`) })}
                    </Text>
                  ) : null}
                  <PurchaseInvoices invoices={invoicesByOrder.get(p.id) ?? []} />
                </Stack>
                <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
                  <Text fw={700}>{formatMoney(p.total, p.currency)}</Text>
                  <Badge
                    variant="light"
                    color={
                      p.status === OrderStatus.paid || p.status === OrderStatus.freeOfCharge
                        ? 'green'
                        : p.status === OrderStatus.awaiting || p.status === OrderStatus.pending
                          ? 'blue'
                          : 'gray'
                    }
                    data-testid="purchase-status"
                  >
                    {te(`orderStatus.${p.status}`)}
                  </Badge>
                </Stack>
              </Group>
            </Paper>
          ))}
          {list.hasNextPage ? (
            <Button
              variant="default"
              data-testid="purchases-more"
              onClick={() => void list.fetchNextPage()}
              loading={list.isFetchingNextPage}
            >
              {t('purchases.more')}
            </Button>
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}

/** Download links of the invoices issued for one purchase (the client's own PDF route). */
function PurchaseInvoices({ invoices }: { invoices: ClientInvoice[] }) {
  const { t } = useTranslation('invoices');
  if (invoices.length === 0) return null;
  return (
    <Group gap="xs" mt={4}>
      {invoices.map((invoice) => (
        <Button
          key={invoice.id}
          component="a"
          href={invoice.downloadPath}
          download
          size="compact-sm"
          variant="light"
          data-testid="purchase-invoice"
          data-number={invoice.number}
          aria-label={t('client.download', { number: invoice.number })}
        >
          {t(invoice.kind === 'corrective' ? 'client.corrective' : 'client.invoice', {
            number: invoice.number,
          })}
        </Button>
      ))}
    </Group>
  );
}
