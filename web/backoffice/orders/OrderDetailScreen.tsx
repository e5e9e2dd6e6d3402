import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { OrderDetail, PaymentView } from '../../../shared/contracts/api/sales';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { failureText } from '../../lib/form-errors';
import { amountText, parseAmount } from '../pos/pos.api';
import { usePrice } from '../../features/pos/use-price';
import { PaymentSplitText } from '../invoices/PaymentSplitText';
import { orderCalls, useInvalidateOrders, useOrder, useStudioUuid } from './orders.api';
import { clientName, OrderStatusBadge } from './OrdersScreen';
import { ListLoading } from '../list-frame';
import { useStudioDates } from '../use-studio-date-time';

/** One order: lines, payments, refunds, the §4 status actions and its receipt. */
export function OrderDetailScreen() {
  const { orderId = '' } = useParams();
  const { t } = useTranslation('orders');
  const order = useOrder(orderId);
  return (
    <Stack gap="lg" maw={1000}>
      <Anchor component={Link} to="/orders" size="sm">
        ← {t('back')}
      </Anchor>
      {order.isPending ? (
        <ListLoading label={t('loading')} />
      ) : order.isError ? (
        <Alert
          color="red"
          title={
            order.error instanceof ApiError && order.error.status === 404 ? t('notFound') : t('loadError')
          }
        />
      ) : (
        <OrderView order={order.data} />
      )}
    </Stack>
  );
}

/**
 * An order paid several ways (part cash, part card; wallet and card): what each method paid, less
 * its refunds, largest first — as the invoice prints it. Null when one method paid it all.
 */
export function paymentSplitOf(
  payments: Pick<PaymentView, 'method' | 'amount' | 'refunded' | 'status'>[],
): { method: number; amount: number }[] | null {
  const byMethod = new Map<number, number>();
  for (const p of payments)
    if (p.status === 'succeeded')
      byMethod.set(p.method, (byMethod.get(p.method) ?? 0) + p.amount - p.refunded);
  const split = [...byMethod]
    .map(([method, amount]) => ({ method, amount }))
    .filter((p) => p.amount > 0)
    .sort((a, b) => b.amount - a.amount || a.method - b.method);
  return split.length > 1 ? split : null;
}

function OrderView({ order }: { order: OrderDetail }) {
  const { t, i18n } = useTranslation('orders');
  const dates = useStudioDates();
  const price = usePrice();
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateOrders();
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ color: string; text: string } | null>(null);
  const [refunding, setRefunding] = useState<PaymentView | null>(null);
  const date = (iso: string) => dates.dateTime(iso);
  const split = paymentSplitOf(order.payments);

  const run = async (name: string, call: () => Promise<unknown>, success: string) => {
    setBusy(name);
    setMessage(null);
    try {
      await call();
      await invalidate();
      setMessage({ color: 'teal', text: success });
    } catch (error) {
      const key = error instanceof ApiError ? error.envelope?.error.key : undefined;
      setMessage({
        color: 'red',
        text:
          key && i18n.exists(`orders:errors.${key}`)
            ? t(`errors.${key}`)
            : failureText(error, t, 'errors.general'),
      });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="md" data-testid="order-detail">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('detail.title', { reference: order.reference })}
          </Title>
          <Text c="dimmed" size="sm">
            <span data-testid="order-created">{date(order.createdAt)}</span> · {t(`sources.${order.source}`)}
          </Text>
        </Stack>
        <OrderStatusBadge status={order.status} />
      </Group>

      {message && (
        <Alert color={message.color} data-testid="order-message">
          {message.text}
        </Alert>
      )}

      <Card withBorder padding="md">
        <Group justify="space-between">
          <Stack gap={0}>
            <Text size="sm" c="dimmed">
              {t('detail.client')}
            </Text>
            <Text fw={600}>{clientName(order, t('walkIn'))}</Text>
            {order.client?.email && <Text size="sm">{order.client.email}</Text>}
          </Stack>
          <Group gap="xs">
            {order.abilities.changeStatus &&
              order.actions.map((action) => (
                <Button
                  key={action}
                  variant="light"
                  loading={busy === action}
                  onClick={() =>
                    void run(
                      action,
                      () => orderCalls.status(api, studio, order.id, { action }),
                      t(`actions.done.${action}`),
                    )
                  }
                  data-testid={`order-action-${action}`}
                >
                  {t(`actions.${action}`)}
                </Button>
              ))}
            {order.abilities.changeStatus && order.paid > 0 && (
              <Button
                variant="default"
                loading={busy === 'print'}
                onClick={() =>
                  void run('print', () => orderCalls.printReceipt(api, studio, order.id), t('receipt.sent'))
                }
                data-testid="order-print-receipt"
              >
                {t('receipt.print')}
              </Button>
            )}
            {order.paid > 0 && (
              <Button
                component={Link}
                to={`/invoices/new?order=${order.id}`}
                variant="default"
                data-testid="order-issue-invoice"
              >
                {t('invoice.issue')}
              </Button>
            )}
          </Group>
        </Group>
      </Card>

      <Card withBorder padding="md">
        <Title order={2} size="h4" mb="sm">
          {t('detail.lines')}
        </Title>
        <Table.ScrollContainer minWidth={340}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('detail.item')}</Table.Th>
                <Table.Th ta="right">{t('detail.quantity')}</Table.Th>
                <Table.Th ta="right">{t('detail.unitPrice')}</Table.Th>
                <Table.Th ta="right">{t('detail.total')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {order.lines.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td>
                    {l.name}{' '}
                    <Badge size="xs" variant="outline" color="gray">
                      {t(`kinds.${l.kind}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{l.quantity}</Table.Td>
                  <Table.Td ta="right">{price(l.unitPrice, order.currency)}</Table.Td>
                  <Table.Td ta="right">{price(l.total, order.currency)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Stack gap={2} mt="sm" align="flex-end">
          {order.discount > 0 && (
            <Text size="sm">
              {t('detail.discount')}: −{price(order.discount, order.currency)}
            </Text>
          )}
          <Text fw={700} data-testid="order-total">
            {t('detail.orderTotal')}: {price(order.total, order.currency)}
          </Text>
          <Text size="sm">
            {t('detail.paid')}: {price(order.paid, order.currency)}
            {order.refunded > 0 && ` · ${t('detail.refunded')}: ${price(order.refunded, order.currency)}`}
          </Text>
          {split ? (
            <PaymentSplitText split={split} currency={order.currency} testId="order-payment-split" />
          ) : null}
        </Stack>
      </Card>

      <Card withBorder padding="md">
        <Title order={2} size="h4" mb="sm">
          {t('detail.payments')}
        </Title>
        {order.payments.length === 0 ? (
          <Text c="dimmed">{t('detail.noPayments')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={340}>
            <Table data-testid="order-payments">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('detail.method')}</Table.Th>
                  <Table.Th>{t('detail.paymentStatus')}</Table.Th>
                  <Table.Th ta="right">{t('detail.amount')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('detail.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {order.payments.map((p) => (
                  <Table.Tr key={p.id} data-testid="order-payment">
                    <Table.Td>{t(`enums:paymentMethod.${p.method}`)}</Table.Td>
                    <Table.Td>{t(`paymentStatus.${p.status}`)}</Table.Td>
                    <Table.Td ta="right">
                      {price(p.amount, p.currency)}
                      {p.refunded > 0 && (
                        <Text size="xs" c="dimmed">
                          {t('detail.refunded')}: {price(p.refunded, p.currency)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">
                      {order.abilities.refund && p.status === 'succeeded' && p.amount > p.refunded && (
                        <Button size="xs" variant="subtle" color="red" onClick={() => setRefunding(p)}>
                          {t('refund.action')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {order.refunds.length > 0 && (
          <Stack gap={4} mt="sm">
            <Text fw={600} size="sm">
              {t('detail.refunds')}
            </Text>
            {order.refunds.map((r) => (
              <Text key={r.id} size="sm" data-testid="order-refund">
                {date(r.createdAt)} · {price(r.amount, order.currency)} ·{' '}
                {t(`enums:clientOrderRefundStatus.${r.status}`)}
                {r.error && ` · ${t(`enums:clientOrderRefundError.${r.error}`)}`}
                {r.reason && ` · ${r.reason}`}
              </Text>
            ))}
          </Stack>
        )}
      </Card>

      {refunding && (
        <RefundDialog
          payment={refunding}
          onClose={() => setRefunding(null)}
          onRefund={async (amount, reason) => {
            await orderCalls.refund(api, studio, order.id, { paymentId: refunding.id, amount, reason });
            await invalidate();
            setRefunding(null);
            setMessage({ color: 'teal', text: t('refund.done') });
          }}
        />
      )}
    </Stack>
  );
}

function RefundDialog({
  payment,
  onClose,
  onRefund,
}: {
  payment: PaymentView;
  onClose(): void;
  onRefund(amount: number, reason: string): Promise<void>;
}) {
  const { t, i18n } = useTranslation('orders');
  const price = usePrice();
  const left = payment.amount - payment.refunded;
  const [text, setText] = useState(amountText(left, i18n.language));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const amount = parseAmount(text);
  const submit = async () => {
    if (amount === null || amount < 1 || amount > left) {
      setError(t('refund.invalidAmount', { max: price(left, payment.currency) }));
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onRefund(amount, reason.trim());
    } catch (e) {
      const key = e instanceof ApiError ? e.envelope?.error.key : undefined;
      const refundKey = key?.startsWith('refund.') ? key.slice('refund.'.length) : null;
      setError(
        refundKey ? t(`enums:clientOrderRefundError.${refundKey}`) : failureText(e, t, 'errors.general'),
      );
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('refund.title')} centered>
      <Stack gap="sm">
        <Text size="sm">
          {t('refund.payment', {
            method: t(`enums:paymentMethod.${payment.method}`),
            amount: price(payment.amount, payment.currency),
          })}
        </Text>
        <TextInput
          label={t('refund.amount')}
          inputMode="decimal"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          data-testid="refund-amount"
        />
        <TextInput
          label={t('refund.reason')}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        {error && (
          <Text c="red" size="sm" data-testid="refund-error">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('refund.cancel')}
          </Button>
          <Button color="red" loading={saving} onClick={() => void submit()} data-testid="refund-submit">
            {t('refund.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
