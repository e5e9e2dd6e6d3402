import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  CloseButton,
  Divider,
  Grid,
  Group,
  Loader,
  NativeSelect,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type {
  RetailBasketInput,
  RetailCatalogItem,
  RetailCheckoutResult,
  RetailQuote,
} from '../../../shared/contracts/api/retail';
import { formatPriceIn } from '../../../shared/domain/money';
import { PaymentMethod, RetailItemStatus } from '../../../shared/enums';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { failureText } from '../../lib/form-errors';
import { useBarcodeScanner } from './barcode';
import { OpenShiftCard, ShiftBar, StationPicker } from './ShiftPanel';
import { usePosStation } from './station-sink';
import { StationPosScreen } from './StationPosScreen';
import { stationKeys, useChosenStation, useCurrentShift, useStations } from './stations.api';
import {
  amountText,
  checkout,
  parseAmount,
  posKeys,
  useClientSearch,
  useRetailInit,
  useRetailQuote,
  useLocale,
  useStudioUuid,
} from './pos.api';
import { ListLoading } from '../list-frame';

interface BasketLine {
  key: string;
  type: RetailCatalogItem['type'];
  id: string;
  name: string;
  quantity: number;
  status: number;
}

interface PaymentLine {
  key: string;
  method: number;
  text: string;
}

const newKey = () => crypto.randomUUID();

export function usePrice() {
  const { i18n } = useTranslation();
  return (amount: number, currency: string) => formatPriceIn(i18n.language, amount, currency);
}

function vatLabel(rate: number | 'exempt', t: (key: string) => string, language: string): string {
  if (rate === 'exempt') return t('retail:vat.exempt');
  const text = (rate / 100).toString();
  return `${language.startsWith('pl') ? text.replace('.', ',') : text}%`;
}

/**
 * The point of sale. One screen, two sinks chosen by where it runs: in the desktop app the station's
 * (sales recorded locally, fiscal receipt, drawer, offline: StationPosScreen), in the browser the
 * cloud's retail checkout.
 */
export function PosScreen() {
  const station = usePosStation();
  return station ? <StationPosScreen sink={station} /> : <CloudPosScreen />;
}

/** The browser's point of sale: search, basket, client or walk-in, split payment, done. */
function CloudPosScreen() {
  const { t } = useTranslation('retail');
  const init = useRetailInit();
  const [done, setDone] = useState<RetailCheckoutResult | null>(null);
  const [saleNumber, setSaleNumber] = useState(0);
  // The till this screen sells at, chosen once on this device: its shift counts the sales. Without
  // one (a manager's browser) the sale belongs to no station and no shift.
  const stations = useStations();
  const [chosen, choose] = useChosenStation();
  const stationList = stations.data?.items ?? [];
  const pos = stationList.find((s) => s.id === chosen) ?? null;
  const shift = useCurrentShift(pos?.id ?? null);

  if (init.isPending || stations.isPending || (pos && shift.isPending))
    return <ListLoading label={t('loading')} />;
  if (init.isError)
    return (
      <Alert color="red" title={t('loadError')}>
        <Button variant="light" mt="sm" onClick={() => void init.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );

  return (
    <Stack gap="lg" maw={1200}>
      <Title order={1} size="h2">
        {t('title')}
      </Title>
      {stationList.length > 0 && (
        <StationPicker stations={stationList} chosen={pos?.id ?? null} onChoose={choose} />
      )}
      {pos && shift.data?.shift && !done && <ShiftBar pos={pos} shift={shift.data.shift} />}
      {pos && shift.data && !shift.data.shift ? (
        <OpenShiftCard pos={pos} currency={init.data.currency} />
      ) : done ? (
        <DoneScreen
          result={done}
          currency={init.data.currency}
          onNewSale={() => {
            if (init.isStale) void init.refetch();
            setDone(null);
            setSaleNumber((n) => n + 1);
          }}
        />
      ) : (
        <SaleForm
          key={saleNumber}
          catalog={init.data.items}
          currency={init.data.currency}
          stationSlug={pos?.slug}
          onSold={setDone}
        />
      )}
    </Stack>
  );
}

function SaleForm({
  catalog,
  currency,
  stationSlug,
  onSold,
}: {
  catalog: RetailCatalogItem[];
  currency: string;
  stationSlug?: string | undefined;
  onSold(result: RetailCheckoutResult): void;
}) {
  const { t, i18n } = useTranslation('retail');
  const price = usePrice();
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const locale = useLocale();
  const [search, setSearch] = useState('');
  const [scanMiss, setScanMiss] = useState<string | null>(null);
  const [lines, setLines] = useState<BasketLine[]>([]);
  const [client, setClient] = useState<{ id: string; name: string } | null>(null);
  const [voucherInput, setVoucherInput] = useState('');
  const [voucherCode, setVoucherCode] = useState<string | null>(null);
  const [scheduledFor, setScheduledFor] = useState('');
  const [payments, setPayments] = useState<PaymentLine[]>([
    { key: newKey(), method: PaymentMethod.cash, text: '' },
  ]);
  const [attemptKey, setAttemptKey] = useState(newKey);
  const [selling, setSelling] = useState(false);
  const [sellError, setSellError] = useState<string | null>(null);

  const parsedPayments = payments
    .map((p) => ({ method: p.method, amount: parseAmount(p.text) }))
    .filter((p): p is { method: number; amount: number } => p.amount !== null && p.amount > 0);
  const basket: RetailBasketInput | null =
    lines.length === 0
      ? null
      : {
          clientId: client?.id ?? null,
          items: lines.map((l) => ({ type: l.type, id: l.id, quantity: l.quantity, status: l.status })),
          voucherCode,
          payments: parsedPayments,
          scheduledFor: scheduledFor || null,
          // The till's printer VAT table letters the receipt preview and flags rates it cannot print.
          ...(stationSlug ? { stationSlug } : {}),
        };
  const [debounced] = useDebouncedValue(basket, 250);
  const quote = useRetailQuote(debounced);
  const current = basket && quote.data ? quote.data : null;

  const found = useMemo(() => {
    const q = search.trim().toLowerCase();
    const list = q
      ? catalog.filter((i) => i.name.toLowerCase().includes(q) || (i.barcode ?? '').startsWith(q))
      : catalog;
    return list.slice(0, 30);
  }, [catalog, search]);

  const add = (item: RetailCatalogItem) => {
    setSellError(null);
    setLines((prev) => {
      const same = prev.find((l) => l.type === 'product' && l.id === item.id && item.type === 'product');
      if (same) return prev.map((l) => (l === same ? { ...l, quantity: Math.min(99, l.quantity + 1) } : l));
      return [
        ...prev,
        {
          key: newKey(),
          type: item.type,
          id: item.id,
          name: item.name,
          quantity: 1,
          status: RetailItemStatus.payNow,
        },
      ];
    });
  };
  // A scanned barcode (keyboard wedge) adds its product; in the search field, Enter does the same.
  const addByBarcode = (code: string): boolean => {
    const item = catalog.find((i) => i.barcode !== null && i.barcode === code.trim());
    setScanMiss(item ? null : code.trim());
    if (item) add(item);
    return Boolean(item);
  };
  useBarcodeScanner((code) => addByBarcode(code));
  const update = (key: string, patch: Partial<BasketLine>) =>
    setLines((prev) => prev.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  const fillRest = (key: string) => {
    if (!current) return;
    const others = payments
      .filter((p) => p.key !== key)
      .reduce((sum, p) => sum + (parseAmount(p.text) ?? 0), 0);
    const rest = Math.max(0, current.due - others);
    setPayments((prev) =>
      prev.map((p) => (p.key === key ? { ...p, text: amountText(rest, i18n.language) } : p)),
    );
  };

  const sell = async () => {
    if (!basket) return;
    setSelling(true);
    setSellError(null);
    try {
      const result = await checkout(
        api,
        studio,
        { ...basket, note: '', ...(stationSlug ? { stationSlug } : {}) },
        attemptKey,
        locale,
      );
      // The receipt panel shows the sale's answer at once (issue 26: it used to wait for retail/init
      // and studio-pos/collection again). What the sale changed is refreshed behind it: the till's
      // shift (its cash) now, the catalog (stock, receipts to print) when the next sale starts.
      onSold(result);
      void queryClient.invalidateQueries({ queryKey: posKeys.all(studio), refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: stationKeys.all(studio), refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: [...stationKeys.all(studio), 'shift'] });
      void queryClient.invalidateQueries({ queryKey: ['orders', studio] });
    } catch (error) {
      // A refused sale charged nothing: the next attempt is a new request.
      if (error instanceof ApiError && error.status < 500) setAttemptKey(newKey());
      if (error instanceof ApiError && error.fields && Object.keys(error.fields).length > 0)
        setSellError(t('errors.basket'));
      else setSellError(failureText(error, t, 'errors.general'));
    } finally {
      setSelling(false);
    }
  };

  const scheduledNeeded = lines.some((l) => l.status === RetailItemStatus.scheduled);

  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Card withBorder padding="md">
          <Stack gap="sm">
            <TextInput
              label={t('search.label')}
              placeholder={t('search.placeholder')}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter' || !search.trim()) return;
                const exact = catalog.find((i) => i.barcode !== null && i.barcode === search.trim());
                setScanMiss(null);
                if (exact) {
                  e.preventDefault();
                  add(exact);
                  setSearch('');
                } else if (found.length === 1) {
                  add(found[0]!);
                  setSearch('');
                }
              }}
              data-testid="pos-search"
            />
            {scanMiss && (
              <Text size="sm" c="red" data-testid="pos-scan-miss">
                {t('search.noBarcode', { code: scanMiss })}
              </Text>
            )}
            <Stack gap={4} mah={420} style={{ overflowY: 'auto' }} data-testid="pos-results">
              {found.length === 0 && (
                <Text c="dimmed" size="sm">
                  {t('search.none')}
                </Text>
              )}
              {found.map((item) => (
                <UnstyledButton
                  key={`${item.type}-${item.id}`}
                  onClick={() => add(item)}
                  data-testid="pos-result"
                  aria-label={t('search.add', { name: item.name })}
                  p="xs"
                  style={{
                    borderRadius: 'var(--mantine-radius-sm)',
                    border: '1px solid var(--mantine-color-gray-3)',
                  }}
                >
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text fw={500} truncate>
                        {item.name}
                      </Text>
                      <Group gap={6}>
                        <Badge size="xs" variant="light" color={item.type === 'product' ? 'gray' : 'teal'}>
                          {t(`types.${item.type}`)}
                        </Badge>
                        {item.stock !== null && (
                          <Text size="xs" c={item.stock > 0 ? 'dimmed' : 'red'}>
                            {t('search.stock', { count: item.stock })}
                          </Text>
                        )}
                      </Group>
                    </Stack>
                    <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                      {price(item.price, currency)}
                    </Text>
                  </Group>
                </UnstyledButton>
              ))}
            </Stack>
          </Stack>
        </Card>
      </Grid.Col>

      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack gap="md">
          <ClientPicker client={client} onChange={setClient} />

          <Card withBorder padding="md">
            <Title order={2} size="h4" mb="sm">
              {t('basket.title')}
            </Title>
            {lines.length === 0 ? (
              <Text c="dimmed" data-testid="pos-basket-empty">
                {t('basket.empty')}
              </Text>
            ) : (
              <Stack gap="xs" data-testid="pos-basket">
                {lines.map((line, index) => {
                  const priced = current?.items[index];
                  const problems = Object.entries(current?.problems ?? {})
                    .filter(([path]) => path.startsWith(`items.${index}.`))
                    .flatMap(([, codes]) => codes);
                  return (
                    <Card key={line.key} withBorder padding="xs" data-testid="pos-basket-line">
                      <Group justify="space-between" wrap="nowrap" align="flex-start">
                        <Stack gap={2} style={{ minWidth: 0 }}>
                          <Text fw={500}>{priced?.name ?? line.name}</Text>
                          {priced && (
                            <Text size="xs" c="dimmed">
                              {price(priced.unitPrice, currency)} · {t('vat.label')}{' '}
                              {vatLabel(priced.vatRate, t, i18n.language)}
                            </Text>
                          )}
                        </Stack>
                        <Group gap="xs" wrap="nowrap">
                          <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                            {priced ? price(priced.total, currency) : '…'}
                          </Text>
                          <CloseButton
                            aria-label={t('basket.remove', { name: line.name })}
                            onClick={() => setLines((prev) => prev.filter((l) => l.key !== line.key))}
                          />
                        </Group>
                      </Group>
                      <Group gap="xs" mt={6} wrap="wrap">
                        {line.type === 'product' && (
                          <NumberInput
                            aria-label={t('basket.quantity')}
                            size="xs"
                            w={90}
                            min={1}
                            max={99}
                            clampBehavior="strict"
                            allowDecimal={false}
                            value={line.quantity}
                            onChange={(v) => update(line.key, { quantity: Math.max(1, Number(v) || 1) })}
                          />
                        )}
                        <NativeSelect
                          aria-label={t('basket.status')}
                          size="xs"
                          value={String(line.status)}
                          onChange={(e) => update(line.key, { status: Number(e.currentTarget.value) })}
                          data={Object.values(RetailItemStatus).map((s) => ({
                            value: String(s),
                            label: t(`enums:retailItemStatus.${s}`),
                          }))}
                        />
                      </Group>
                      {problems.map((code) => (
                        <Text key={code} size="xs" c="red" mt={4}>
                          {t(`problems.${code}`)}
                        </Text>
                      ))}
                    </Card>
                  );
                })}
              </Stack>
            )}
            {lines.length > 0 && (
              <Stack gap="xs" mt="sm">
                <Group align="flex-end" gap="xs">
                  <TextInput
                    label={t('voucher.label')}
                    size="sm"
                    value={voucherInput}
                    onChange={(e) => setVoucherInput(e.currentTarget.value)}
                    style={{ flex: 1 }}
                    error={
                      current?.problems.voucherCode
                        ? t(`problems.${current.problems.voucherCode[0]}`)
                        : undefined
                    }
                  />
                  <Button variant="light" onClick={() => setVoucherCode(voucherInput.trim() || null)}>
                    {t('voucher.apply')}
                  </Button>
                </Group>
                {scheduledNeeded && (
                  <TextInput
                    type="date"
                    label={t('scheduledFor')}
                    value={scheduledFor}
                    onChange={(e) => setScheduledFor(e.currentTarget.value)}
                    error={
                      current?.problems.scheduledFor
                        ? t(`problems.${current.problems.scheduledFor[0]}`)
                        : undefined
                    }
                  />
                )}
              </Stack>
            )}
          </Card>

          {lines.length > 0 && (
            <Card withBorder padding="md">
              <Title order={2} size="h4" mb="sm">
                {t('payment.title')}
              </Title>
              <Stack gap="xs">
                {payments.map((p, index) => (
                  <Group key={p.key} gap="xs" align="flex-end" wrap="wrap">
                    <NativeSelect
                      label={index === 0 ? t('payment.method') : undefined}
                      aria-label={t('payment.method')}
                      value={String(p.method)}
                      onChange={(e) =>
                        setPayments((prev) =>
                          prev.map((x) =>
                            x.key === p.key ? { ...x, method: Number(e.currentTarget.value) } : x,
                          ),
                        )
                      }
                      data={[
                        PaymentMethod.cash,
                        PaymentMethod.terminal,
                        PaymentMethod.bankTransfer,
                        PaymentMethod.wallet,
                        PaymentMethod.gift,
                        PaymentMethod.other,
                      ].map((m) => ({ value: String(m), label: t(`enums:paymentMethod.${m}`) }))}
                      data-testid={`pos-payment-method-${index}`}
                      style={{ flex: 1, minWidth: 170 }}
                    />
                    <TextInput
                      label={index === 0 ? t('payment.amount') : undefined}
                      aria-label={t('payment.amount')}
                      inputMode="decimal"
                      value={p.text}
                      onChange={(e) => {
                        const text = e.currentTarget.value;
                        setPayments((prev) => prev.map((x) => (x.key === p.key ? { ...x, text } : x)));
                      }}
                      error={p.text && parseAmount(p.text) === null ? t('payment.invalid') : undefined}
                      data-testid={`pos-payment-amount-${index}`}
                      w={110}
                    />
                    <Button variant="subtle" px="xs" onClick={() => fillRest(p.key)} disabled={!current}>
                      {t('payment.rest')}
                    </Button>
                    {payments.length > 1 && (
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={t('payment.remove')}
                        onClick={() => setPayments((prev) => prev.filter((x) => x.key !== p.key))}
                        mb={4}
                      >
                        ×
                      </ActionIcon>
                    )}
                  </Group>
                ))}
                {payments.length < 5 && (
                  <Button
                    variant="light"
                    size="xs"
                    w="fit-content"
                    onClick={() =>
                      setPayments((prev) => [
                        ...prev,
                        { key: newKey(), method: PaymentMethod.terminal, text: '' },
                      ])
                    }
                    data-testid="pos-add-payment"
                  >
                    {t('payment.split')}
                  </Button>
                )}
              </Stack>
              <Divider my="sm" />
              <Summary quote={current} currency={currency} loading={quote.isFetching} />
              {sellError && (
                <Alert color="red" mt="sm" data-testid="pos-error">
                  {sellError}
                </Alert>
              )}
              <Button
                fullWidth
                size="md"
                mt="md"
                loading={selling}
                disabled={!current?.canCheckout || quote.isFetching || basket === null}
                onClick={() => void sell()}
                data-testid="pos-sell"
              >
                {current ? t('sell', { amount: price(current.due, currency) }) : t('sellPlain')}
              </Button>
            </Card>
          )}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

export function ClientPicker({
  client,
  onChange,
}: {
  client: { id: string; name: string } | null;
  onChange(client: { id: string; name: string } | null): void;
}) {
  const { t } = useTranslation('retail');
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 300);
  const results = useClientSearch(debounced);
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {t('client.title')}
        </Title>
        {client ? (
          <Badge size="lg" variant="light" data-testid="pos-client">
            {client.name}
          </Badge>
        ) : (
          <Badge size="lg" variant="outline" color="gray" data-testid="pos-client">
            {t('client.walkIn')}
          </Badge>
        )}
      </Group>
      {client ? (
        <Button variant="subtle" size="xs" onClick={() => onChange(null)}>
          {t('client.toWalkIn')}
        </Button>
      ) : (
        <Stack gap={4}>
          <TextInput
            placeholder={t('client.search')}
            aria-label={t('client.search')}
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
            data-testid="pos-client-search"
          />
          {q.trim().length >= 2 &&
            (results.data?.items ?? []).map((c) => (
              <UnstyledButton
                key={c.id}
                p={6}
                data-testid="pos-client-option"
                onClick={() => {
                  onChange({ id: c.id, name: `${c.firstName} ${c.lastName}` });
                  setQ('');
                }}
                style={{
                  borderRadius: 'var(--mantine-radius-sm)',
                  border: '1px solid var(--mantine-color-gray-3)',
                }}
              >
                <Text size="sm" fw={500}>
                  {c.firstName} {c.lastName}
                </Text>
                <Text size="xs" c="dimmed">
                  {c.emailAddress ?? c.phone ?? ''}
                </Text>
              </UnstyledButton>
            ))}
          {q.trim().length >= 2 && results.data?.items.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('client.none')}
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}

function Summary({
  quote,
  currency,
  loading,
}: {
  quote: RetailQuote | null;
  currency: string;
  loading: boolean;
}) {
  const { t, i18n } = useTranslation('retail');
  const price = usePrice();
  if (!quote) return loading ? <Loader size="sm" /> : null;
  const general = Object.entries(quote.problems)
    .filter(([path]) => !path.startsWith('items.') && path !== 'voucherCode' && path !== 'scheduledFor')
    .flatMap(([, codes]) => codes);
  const row = (label: string, value: string, testId?: string, strong = false) => (
    <Group justify="space-between">
      <Text size="sm" fw={strong ? 700 : 400}>
        {label}
      </Text>
      <Text size={strong ? 'lg' : 'sm'} fw={strong ? 700 : 500} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
  return (
    <Stack gap={4} data-testid="pos-summary">
      {quote.voucher &&
        quote.voucher.discount > 0 &&
        row(t('summary.discount'), `−${price(quote.voucher.discount, currency)}`)}
      {row(t('summary.due'), price(quote.due, currency), 'pos-due', true)}
      {quote.groups.unpaid > 0 && row(t('summary.unpaid'), price(quote.groups.unpaid, currency))}
      {quote.groups.scheduled > 0 && row(t('summary.scheduled'), price(quote.groups.scheduled, currency))}
      {quote.groups.suspended > 0 && row(t('summary.suspended'), price(quote.groups.suspended, currency))}
      {quote.receipt && quote.receipt.vatGroups.length > 0 && (
        <Table fz="xs" withRowBorders={false} verticalSpacing={2} mt={4}>
          <Table.Tbody>
            {quote.receipt.vatGroups.map((g) => (
              <Table.Tr key={String(g.vatRate)}>
                <Table.Td c="dimmed">
                  {t('summary.vatGroup', {
                    rate: vatLabel(g.vatRate, t, i18n.language),
                    slot: g.slot ?? '–',
                  })}
                </Table.Td>
                <Table.Td ta="right" c="dimmed">
                  {price(g.total, currency)} ({t('summary.vat')} {price(g.vat, currency)})
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {row(t('summary.tendered'), price(quote.tendered, currency))}
      {quote.remaining > 0 && row(t('summary.remaining'), price(quote.remaining, currency), 'pos-remaining')}
      {quote.change > 0 && row(t('summary.change'), price(quote.change, currency), 'pos-change', true)}
      {quote.walletBalance !== null && row(t('summary.wallet'), price(quote.walletBalance, currency))}
      {general.map((code) => (
        <Text key={code} size="sm" c="red">
          {t(`problems.${code}`)}
        </Text>
      ))}
    </Stack>
  );
}

function DoneScreen({
  result,
  currency,
  onNewSale,
}: {
  result: RetailCheckoutResult;
  currency: string;
  onNewSale(): void;
}) {
  const { t } = useTranslation('retail');
  const price = usePrice();
  return (
    <Card withBorder padding="lg" maw={640} data-testid="pos-done">
      <Stack gap="md">
        <Title order={2} size="h3" c="teal.8">
          {t('done.title')}
        </Title>
        {result.change > 0 && (
          <Alert color="yellow" title={t('done.change')}>
            <Text size="xl" fw={700} data-testid="pos-done-change">
              {price(result.change, currency)}
            </Text>
          </Alert>
        )}
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('done.order')}</Table.Th>
              <Table.Th>{t('done.status')}</Table.Th>
              <Table.Th ta="right">{t('done.total')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.orders.map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td>
                  <Link to={`/orders/${o.id}`} data-testid="pos-done-order">
                    {o.reference}
                  </Link>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light">{t(`enums:orderStatus.${o.status}`)}</Badge>
                </Table.Td>
                <Table.Td ta="right">{price(o.total, currency)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {result.receipt ? (
          <Text size="sm" c="dimmed">
            {t('done.receipt', {
              total: price(result.receipt.totals.total, currency),
              vat: price(result.receipt.totals.vat, currency),
            })}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('done.noReceipt')}
          </Text>
        )}
        {result.unfulfilled.length > 0 && <Alert color="orange">{t('done.unfulfilled')}</Alert>}
        <Group>
          <Button onClick={onNewSale} data-testid="pos-new-sale">
            {t('done.newSale')}
          </Button>
          <Button component={Link} to="/orders" variant="light">
            {t('done.orders')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
