import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ReceiptView } from '../../../shared/contracts/api/retail';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useStudioUuid } from './pos.api';
import { RetailApi } from '../../../shared/contracts/http/retail';
import { ListLoading } from '../list-frame';
import { formatMoney } from '../../lib/money';
import { useStudioDates } from '../use-studio-date-time';

type Filter = 'toPrint' | 'needsAttention' | 'all';

const batchKeys = {
  all: (studio: string) => ['fiscal-receipt-batch-print', studio] as const,
  init: (studio: string) => ['fiscal-receipt-batch-print', studio, 'init'] as const,
  list: (studio: string, filter: Filter) => ['fiscal-receipt-batch-print', studio, 'list', filter] as const,
};

/**
 * What a receipt's print job looks like from the desk: the station's fact when it reported one
 * (printed, not printed, needs attention), else "sent to the printer" once a print was requested
 * and the station has not answered yet, else "to print".
 */
export function receiptJobState(receipt: Pick<ReceiptView, 'status' | 'printRequests'>) {
  if (receipt.status === 'toPrint' && receipt.printRequests > 0) return 'sent' as const;
  return receipt.status;
}

const STATE_COLOR: Record<ReturnType<typeof receiptJobState>, string> = {
  toPrint: 'blue',
  sent: 'yellow',
  printed: 'green',
  notPrinted: 'gray',
  needsAttention: 'red',
};

/**
 * Back office "Receipts to print" (spec §7 fiscal-receipt-batch-print: init, collection, print): the
 * desk sales whose fiscal receipt is still to be printed, chosen and sent to a station's printer in
 * one batch. The station prints and reports each receipt; the list shows where every job stands.
 */
export function BatchPrintScreen() {
  const { t } = useTranslation('orders');
  const dates = useStudioDates();
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const phone = useMediaQuery('(max-width: 48em)');
  const [filter, setFilter] = useState<Filter>('toPrint');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [station, setStation] = useState('');
  const [result, setResult] = useState<
    | { kind: 'sent'; count: number; batch: string }
    | { kind: 'alreadyPrinted' | 'orderInvoiced' | 'failed' }
    | null
  >(null);

  const init = useQuery({
    queryKey: batchKeys.init(studio),
    queryFn: ({ signal }) =>
      api.call(RetailApi.getFiscalReceiptBatchPrintInit, { params: { uuid: studio }, signal }),
  });
  const list = useQuery({
    queryKey: batchKeys.list(studio, filter),
    queryFn: ({ signal }) =>
      api.call(RetailApi.getFiscalReceiptBatchPrintCollection, {
        params: { uuid: studio },
        query: { status: filter, limit: 100 },
        signal,
      }),
    // The station reports as it prints: keep the states fresh while the desk watches.
    refetchInterval: 5000,
  });
  const print = useMutation({
    mutationFn: (receiptIds: string[]) =>
      api.call(RetailApi.postFiscalReceiptBatchPrintPrint, {
        params: { uuid: studio },
        body: { receiptIds, stationSlug: station || null },
      }),
    onSuccess: (res) => {
      setSelected(new Set());
      // Kept as data, translated when shown: the desk may switch the language afterwards.
      setResult({ kind: 'sent', count: res.jobs.length, batch: res.batchId.slice(-8).toUpperCase() });
    },
    onError: (error) => {
      const key = error instanceof ApiError ? (error.envelope?.error.key ?? null) : null;
      setResult({
        kind:
          key === 'receipt.alreadyPrinted'
            ? 'alreadyPrinted'
            : key === 'receipt.orderInvoiced'
              ? 'orderInvoiced'
              : 'failed',
      });
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: batchKeys.all(studio) }),
  });

  const items = list.data?.items ?? [];
  // Printed receipts cannot be printed again (a legal problem): they are not selectable.
  const printable = items.filter((r) => r.status !== 'printed');
  const chosen = printable.filter((r) => selected.has(r.id));
  const allChosen = printable.length > 0 && chosen.length === printable.length;
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const when = (iso: string) => dates.dateTime(iso);
  const client = (r: ReceiptView) => (r.client ? `${r.client.firstName} ${r.client.lastName}` : t('walkIn'));
  const state = (r: ReceiptView) => {
    const s = receiptJobState(r);
    return (
      <Badge variant="light" color={STATE_COLOR[s]} data-testid="batch-receipt-state" data-state={s}>
        {t(`batchPrint.state.${s}`)}
      </Badge>
    );
  };
  const requests = (r: ReceiptView) =>
    r.lastPrintRequestedAt
      ? t('batchPrint.requested', { count: r.printRequests, at: when(r.lastPrintRequestedAt) })
      : t('batchPrint.neverRequested');

  return (
    <Stack gap="lg" maw={1200} data-testid="batch-print">
      <Anchor component={Link} to="/orders" size="sm">
        ← {t('batchPrint.back')}
      </Anchor>
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('batchPrint.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('batchPrint.intro')}
        </Text>
      </Stack>

      {init.data ? (
        <Group gap="sm" data-testid="batch-counts">
          <Badge size="lg" variant="light" color="blue">
            {t('batchPrint.counts.toPrint', { count: init.data.counts.toPrint })}
          </Badge>
          <Badge size="lg" variant="light" color={init.data.counts.needsAttention ? 'red' : 'gray'}>
            {t('batchPrint.counts.needsAttention', { count: init.data.counts.needsAttention })}
          </Badge>
        </Group>
      ) : null}

      <Group gap="sm" align="flex-end" justify="space-between">
        <SegmentedControl
          value={filter}
          onChange={(v) => {
            setFilter(v as Filter);
            setSelected(new Set());
          }}
          data={(['toPrint', 'needsAttention', 'all'] as const).map((f) => ({
            value: f,
            label: t(`batchPrint.filter.${f}`),
          }))}
          data-testid="batch-filter"
          fullWidth={phone}
          style={phone ? { width: '100%' } : undefined}
        />
        <NativeSelect
          label={t('batchPrint.station')}
          value={station}
          onChange={(e) => setStation(e.currentTarget.value)}
          data={[
            { value: '', label: t('batchPrint.stationOfSale') },
            ...(init.data?.stations ?? []).map((s) => ({ value: s, label: s })),
          ]}
          data-testid="batch-station"
          w={phone ? '100%' : 260}
        />
      </Group>

      {result ? (
        <Alert
          color={result.kind === 'sent' ? 'green' : 'red'}
          data-testid="batch-result"
          withCloseButton
          onClose={() => setResult(null)}
        >
          {result.kind === 'sent'
            ? t('batchPrint.sent', { count: result.count, batch: result.batch })
            : t(`batchPrint.${result.kind}`)}
        </Alert>
      ) : null}

      {list.isPending ? (
        <ListLoading label={t('loading')} />
      ) : list.isError ? (
        <Alert color="red" title={t('loadError')}>
          <Button variant="light" mt="sm" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : items.length === 0 ? (
        <Paper withBorder radius="md" p="xl" data-testid="batch-empty">
          <Stack gap={4} align="center" ta="center">
            <Text fw={600}>{t(`batchPrint.empty.${filter}`)}</Text>
            <Text size="sm" c="dimmed">
              {t(`batchPrint.emptyHint.${filter}`)}
            </Text>
          </Stack>
        </Paper>
      ) : (
        <>
          {printable.length === 0 ? (
            // Everything listed is printed already: nothing to choose, nothing to send.
            <Text size="sm" c="dimmed" data-testid="batch-nothing-printable">
              {t('batchPrint.nothingPrintable')}
            </Text>
          ) : (
            <Group justify="space-between">
              <Checkbox
                label={t('batchPrint.selectAll', { count: printable.length })}
                checked={allChosen}
                indeterminate={chosen.length > 0 && !allChosen}
                onChange={() => setSelected(allChosen ? new Set() : new Set(printable.map((r) => r.id)))}
                data-testid="batch-select-all"
              />
              <Button
                disabled={chosen.length === 0}
                loading={print.isPending}
                onClick={() => print.mutate(chosen.map((r) => r.id))}
                data-testid="batch-print-submit"
                fullWidth={phone}
              >
                {chosen.length === 0
                  ? t('batchPrint.chooseToPrint')
                  : t('batchPrint.print', { count: chosen.length })}
              </Button>
            </Group>
          )}
          {phone ? (
            <Stack gap="xs">
              {items.map((r) => (
                <Card key={r.id} withBorder padding="sm" data-testid="batch-receipt" data-receipt={r.id}>
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Checkbox
                      checked={selected.has(r.id)}
                      disabled={r.status === 'printed'}
                      onChange={() => toggle(r.id)}
                      aria-label={t('batchPrint.choose', {
                        reference: r.orders.map((o) => o.reference).join(', '),
                      })}
                    />
                    <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                      <Group justify="space-between" wrap="nowrap">
                        <Text fw={600} truncate>
                          {r.orders.map((o) => o.reference).join(', ')}
                        </Text>
                        <Text fw={700}>{formatMoney(r.totals.total, r.currency)}</Text>
                      </Group>
                      <Text size="sm">{client(r)}</Text>
                      <Text size="xs" c="dimmed">
                        {when(r.createdAt)} · {r.stationSlug ?? t('batchPrint.noStation')}
                      </Text>
                      <Group justify="space-between" gap="xs">
                        {state(r)}
                        <Text size="xs" c="dimmed">
                          {requests(r)}
                        </Text>
                      </Group>
                    </Stack>
                  </Group>
                </Card>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={800}>
              <Table highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={40} />
                    <Table.Th>{t('batchPrint.columns.sold')}</Table.Th>
                    <Table.Th>{t('batchPrint.columns.orders')}</Table.Th>
                    <Table.Th>{t('batchPrint.columns.client')}</Table.Th>
                    <Table.Th>{t('batchPrint.columns.station')}</Table.Th>
                    <Table.Th ta="right">{t('batchPrint.columns.total')}</Table.Th>
                    <Table.Th>{t('batchPrint.columns.state')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((r) => (
                    <Table.Tr key={r.id} data-testid="batch-receipt" data-receipt={r.id}>
                      <Table.Td>
                        <Checkbox
                          checked={selected.has(r.id)}
                          disabled={r.status === 'printed'}
                          onChange={() => toggle(r.id)}
                          aria-label={t('batchPrint.choose', {
                            reference: r.orders.map((o) => o.reference).join(', '),
                          })}
                        />
                      </Table.Td>
                      <Table.Td>{when(r.createdAt)}</Table.Td>
                      <Table.Td>
                        <Group gap={6}>
                          {r.orders.map((o) => (
                            <Anchor key={o.id} component={Link} to={`/orders/${o.id}`} size="sm">
                              {o.reference}
                            </Anchor>
                          ))}
                        </Group>
                      </Table.Td>
                      <Table.Td>{client(r)}</Table.Td>
                      <Table.Td>{r.stationSlug ?? t('batchPrint.noStation')}</Table.Td>
                      <Table.Td ta="right" fw={600}>
                        {formatMoney(r.totals.total, r.currency)}
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={2}>
                          {state(r)}
                          <Text size="xs" c="dimmed">
                            {requests(r)}
                          </Text>
                        </Stack>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
    </Stack>
  );
}
