import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { BulkChargeResult, OrderView } from '../../../shared/contracts/api/sales';
import { isOrderPayable } from '../../../shared/domain/orders';
import { OrderStatus } from '../../../shared/enums';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';
import { usePrice } from '../../features/pos/use-price';
import { orderCalls, useInvalidateOrders, useOrders, useStudioUuid } from './orders.api';
import { ListLoading } from '../list-frame';
import { useStudioDates } from '../use-studio-date-time';

/** Spec §9: table search waits 600 ms after the last key. */
const SEARCH_DELAY_MS = 600;

export const STATUS_COLOR: Partial<Record<number, string>> = {
  [OrderStatus.paid]: 'teal',
  [OrderStatus.unpaid]: 'orange',
  [OrderStatus.scheduled]: 'blue',
  [OrderStatus.suspended]: 'gray',
  [OrderStatus.failed]: 'red',
  [OrderStatus.chargeback]: 'red',
  [OrderStatus.cancelled]: 'gray',
};

export function OrderStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation('orders');
  return (
    <Badge variant="light" color={STATUS_COLOR[status] ?? 'gray'} data-testid="order-status">
      {t(`enums:orderStatus.${status}`)}
    </Badge>
  );
}

export function clientName(order: Pick<OrderView, 'client'>, walkIn: string): string {
  return order.client ? `${order.client.firstName} ${order.client.lastName}`.trim() : walkIn;
}

/** Orders, newest first, filtered by status and a search (client name, email or reference). */
export function OrdersScreen() {
  const { t } = useTranslation('orders');
  const dates = useStudioDates();
  const price = usePrice();
  const navigate = useNavigate();
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const [params, setParams] = useSearchParams();
  const [q, setQ] = useState(params.get('q') ?? '');
  const [debouncedQ] = useDebouncedValue(q, SEARCH_DELAY_MS);
  const status = params.get('status') ?? 'all';
  const orders = useOrders({ q: debouncedQ, status });
  const items = orders.data?.pages.flatMap((p) => p.items) ?? [];
  const bulk = useBulkCharge(items);
  const date = (iso: string) => dates.dateTime(iso);

  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        <Group gap="xs">
          <Button component={Link} to="/pos/batch-print" variant="default" data-testid="orders-batch-print">
            {t('batchPrint.open')}
          </Button>
          <Button component={Link} to="/pos" variant="light">
            {t('newSale')}
          </Button>
        </Group>
      </Group>
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('search')}
          placeholder={t('searchPlaceholder')}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 200 }}
          data-testid="orders-search"
        />
        <NativeSelect
          label={t('status')}
          value={status}
          onChange={(e) => {
            const next = new URLSearchParams(params);
            if (e.currentTarget.value === 'all') next.delete('status');
            else next.set('status', e.currentTarget.value);
            setParams(next, { replace: true });
          }}
          data={[
            { value: 'all', label: t('allStatuses') },
            ...Object.values(OrderStatus).map((s) => ({
              value: String(s),
              label: t(`enums:orderStatus.${s}`),
            })),
          ]}
          data-testid="orders-status"
        />
      </Group>
      {bulk.bar}
      {orders.isPending ? (
        <ListLoading label={t('loading')} />
      ) : orders.isError ? (
        <Alert color="red" title={t('loadError')}>
          <Button variant="light" mt="sm" onClick={() => void orders.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : items.length === 0 ? (
        <Text c="dimmed" data-testid="orders-empty">
          {t('empty')}
        </Text>
      ) : phone ? (
        <Stack gap="xs" data-testid="orders-list">
          {items.map((o) => (
            <Group key={o.id} wrap="nowrap" align="flex-start" gap="xs">
              {bulk.enabled ? (
                <Box w={24} pt="md">
                  {bulk.checkbox(o)}
                </Box>
              ) : null}
              <Card
                withBorder
                padding="sm"
                component={Link}
                to={`/orders/${o.id}`}
                data-testid="order-row"
                style={{ flex: 1, minWidth: 0 }}
              >
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={600}>{o.reference}</Text>
                  <OrderStatusBadge status={o.status} />
                </Group>
                <Text size="sm">{clientName(o, t('walkIn'))}</Text>
                <Text size="xs" c="dimmed" lineClamp={1}>
                  {o.summary}
                </Text>
                <Group justify="space-between">
                  <Text size="xs" c="dimmed">
                    {date(o.createdAt)}
                  </Text>
                  <Text fw={600}>{price(o.total, o.currency)}</Text>
                </Group>
              </Card>
            </Group>
          ))}
        </Stack>
      ) : (
        <Table highlightOnHover data-testid="orders-list">
          <Table.Thead>
            <Table.Tr>
              {bulk.enabled ? (
                <Table.Th w={40}>
                  <VisuallyHidden>{t('columns.select')}</VisuallyHidden>
                </Table.Th>
              ) : null}
              <Table.Th>{t('columns.reference')}</Table.Th>
              <Table.Th>{t('columns.date')}</Table.Th>
              <Table.Th>{t('columns.client')}</Table.Th>
              <Table.Th>{t('columns.items')}</Table.Th>
              <Table.Th ta="right">{t('columns.total')}</Table.Th>
              <Table.Th>{t('columns.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((o) => (
              <Table.Tr
                key={o.id}
                style={{ cursor: 'pointer' }}
                onClick={() => navigate(`/orders/${o.id}`)}
                data-testid="order-row"
              >
                {bulk.enabled ? (
                  <Table.Td onClick={(e) => e.stopPropagation()}>{bulk.checkbox(o)}</Table.Td>
                ) : null}
                <Table.Td>
                  <Link to={`/orders/${o.id}`} onClick={(e) => e.stopPropagation()}>
                    {o.reference}
                  </Link>
                </Table.Td>
                <Table.Td>{date(o.createdAt)}</Table.Td>
                <Table.Td>{clientName(o, t('walkIn'))}</Table.Td>
                <Table.Td maw={320}>
                  <Text size="sm" truncate>
                    {o.summary}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{price(o.total, o.currency)}</Table.Td>
                <Table.Td>
                  <OrderStatusBadge status={o.status} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {orders.hasNextPage && (
        <Button
          variant="subtle"
          loading={orders.isFetchingNextPage}
          onClick={() => void orders.fetchNextPage()}
        >
          {t('more')}
        </Button>
      )}
    </Stack>
  );
}

/** Why bulk charge could not take an order, as the server's error key says. */
const CHARGE_FAILURE_KEYS: Record<string, string> = {
  'wallet.insufficientFunds': 'bulkCharge.reason.insufficientFunds',
  'payment.cardDeclined': 'bulkCharge.reason.cardDeclined',
  'order.notPayable': 'bulkCharge.reason.notPayable',
  'payment.methodNotAllowed': 'bulkCharge.reason.methodNotAllowed',
};

/**
 * Bulk charge (spec §7 `client-order/bulk/charge`) for staff with `sales.sell`: orders still waiting
 * for money and belonging to a client can be ticked; one press charges each to the client's saved
 * card, else their wallet. The answer lists what was charged and why the rest was not.
 */
function useBulkCharge(items: OrderView[]) {
  const { t } = useTranslation('orders');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateOrders();
  const { member } = useBackoffice();
  const enabled = member.abilities.includes('sales.sell');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<BulkChargeResult | 'error' | null>(null);
  const chargeable = (o: OrderView) => o.client !== null && isOrderPayable(o.status);
  const chosen = items.filter((o) => selected.has(o.id) && chargeable(o));
  const reference = (id: string) => items.find((o) => o.id === id)?.reference ?? id.slice(-8).toUpperCase();

  const charge = async () => {
    setBusy(true);
    setResult(null);
    try {
      const res = await orderCalls.bulkCharge(
        api,
        studio,
        chosen.map((o) => o.id),
      );
      setResult(res);
      setSelected(new Set());
    } catch {
      setResult('error');
    } finally {
      setBusy(false);
      await invalidate();
    }
  };

  const checkbox = (o: OrderView) =>
    chargeable(o) ? (
      <Checkbox
        checked={selected.has(o.id)}
        onChange={() =>
          setSelected((prev) => {
            const next = new Set(prev);
            if (next.has(o.id)) next.delete(o.id);
            else next.add(o.id);
            return next;
          })
        }
        aria-label={t('bulkCharge.choose', { reference: o.reference })}
        data-testid="order-charge-select"
      />
    ) : null;

  const bar = !enabled ? null : (
    <>
      {chosen.length > 0 ? (
        <Card withBorder padding="sm" data-testid="bulk-charge-bar">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{t('bulkCharge.selected', { count: chosen.length })}</Text>
            <Group gap="xs">
              <Button variant="default" size="xs" onClick={() => setSelected(new Set())}>
                {t('bulkCharge.clear')}
              </Button>
              <Button size="xs" loading={busy} onClick={() => void charge()} data-testid="bulk-charge-submit">
                {t('bulkCharge.submit', { count: chosen.length })}
              </Button>
            </Group>
          </Group>
          <Text size="xs" c="dimmed" mt={4}>
            {t('bulkCharge.hint')}
          </Text>
        </Card>
      ) : null}
      {result ? (
        <Alert
          color={result === 'error' || result.failed.length > 0 ? 'orange' : 'green'}
          withCloseButton
          onClose={() => setResult(null)}
          data-testid="bulk-charge-result"
        >
          {result === 'error' ? (
            t('bulkCharge.error')
          ) : (
            <Stack gap={4}>
              {result.charged.length > 0 ? (
                <Text size="sm">{t('bulkCharge.charged', { count: result.charged.length })}</Text>
              ) : null}
              {result.failed.map((f) => (
                <Text size="sm" key={f.id}>
                  {t('bulkCharge.failed', {
                    reference: reference(f.id),
                    reason: t(CHARGE_FAILURE_KEYS[f.key] ?? 'bulkCharge.reason.other'),
                  })}
                </Text>
              ))}
            </Stack>
          )}
        </Alert>
      ) : null}
    </>
  );
  return { enabled, checkbox, bar };
}
