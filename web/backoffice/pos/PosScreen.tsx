import {
  Alert,
  Badge,
  Button,
  Card,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type {
  RetailBasketInput,
  RetailCatalogItem,
  RetailCheckoutResult,
  RetailQuote,
} from '../../../shared/contracts/api/retail';
import { PaymentMethod, RetailItemStatus } from '../../../shared/enums';
import type { PosPaid, PosPaymentLine } from '../../features/pos/catalog';
import { PosBasket } from '../../features/pos/PosBasket';
import { PosCatalogPanel } from '../../features/pos/PosCatalogPanel';
import { PosCheckout } from '../../features/pos/PosCheckout';
import { PosLayout } from '../../features/pos/PosLayout';
import { PosSaleResult } from '../../features/pos/PosSaleResult';
import { newPaymentLine, PosTenders, tenderedAmounts } from '../../features/pos/PosTenders';
import { PosVoucher } from '../../features/pos/PosVoucher';
import { usePrice } from '../../features/pos/use-price';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { failureText } from '../../lib/form-errors';
import { ClientPicker } from './ClientPicker';
import { OpenShiftCard, ShiftBar, StationPicker } from './ShiftPanel';
import { usePosStation } from './station-sink';
import { StationPosScreen } from './StationPosScreen';
import { stationKeys, useChosenStation, useCurrentShift, useStations } from './stations.api';
import { checkout, posKeys, useLocale, useRetailInit, useRetailQuote, useStudioUuid } from './pos.api';
import { ListLoading } from '../list-frame';

interface BasketLine {
  key: string;
  type: RetailCatalogItem['type'];
  id: string;
  name: string;
  quantity: number;
  status: number;
}

/** A sale the cloud recorded, how it was paid and what it cost (for the result panel). */
interface CloudSold {
  result: RetailCheckoutResult;
  payments: PosPaid[];
  total: number;
}

/** What the browser takes: cash, card terminal, transfer, the client's wallet, a gift card, other. */
const METHODS = [
  PaymentMethod.cash,
  PaymentMethod.terminal,
  PaymentMethod.bankTransfer,
  PaymentMethod.wallet,
  PaymentMethod.gift,
  PaymentMethod.other,
] as const;

const newKey = () => crypto.randomUUID();

function vatLabel(rate: number | 'exempt', t: (key: string) => string, language: string): string {
  if (rate === 'exempt') return t('retail:vat.exempt');
  const text = (rate / 100).toString();
  return `${language.startsWith('pl') ? text.replace('.', ',') : text}%`;
}

/**
 * The point of sale. One screen, two sinks chosen by where it runs: in the desktop app the station's
 * (sales recorded locally, fiscal receipt, drawer, offline: StationPosScreen), in the browser the
 * cloud's retail checkout. Both are built from the same components (web/features/pos): tiles with
 * categories and search, the basket (a bar at the bottom on a phone), tenders, the result panel.
 */
export function PosScreen() {
  const station = usePosStation();
  return station ? <StationPosScreen sink={station} /> : <CloudPosScreen />;
}

/** The browser's point of sale: tiles, basket, client or walk-in, split payment, done. */
function CloudPosScreen() {
  const { t } = useTranslation('retail');
  const init = useRetailInit();
  const [done, setDone] = useState<CloudSold | null>(null);
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
          sold={done}
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
  onSold(sold: CloudSold): void;
}) {
  const { t, i18n } = useTranslation('retail');
  const price = usePrice();
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const locale = useLocale();
  const [lines, setLines] = useState<BasketLine[]>([]);
  const [client, setClient] = useState<{ id: string; name: string } | null>(null);
  const [voucherCode, setVoucherCode] = useState<string | null>(null);
  const [scheduledFor, setScheduledFor] = useState('');
  const [payments, setPayments] = useState<PosPaymentLine[]>([newPaymentLine(PaymentMethod.cash)]);
  const [attemptKey, setAttemptKey] = useState(newKey);
  const [selling, setSelling] = useState(false);
  const [sellError, setSellError] = useState<string | null>(null);

  const amounts = tenderedAmounts(payments);
  const parsedPayments = payments
    .map((p, i) => ({ method: p.method, amount: amounts[i] ?? 0 }))
    .filter((p) => p.amount > 0);
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

  const add = (item: RetailCatalogItem) => {
    setSellError(null);
    setLines((prev) => {
      const same = prev.find((l) => l.type === 'product' && l.id === item.id && item.type === 'product');
      if (same) return prev.map((l) => (l === same ? { ...l, quantity: Math.min(99, l.quantity + 1) } : l));
      const line = { key: newKey(), type: item.type, id: item.id, name: item.name, quantity: 1 };
      return [...prev, { ...line, status: RetailItemStatus.payNow }];
    });
  };
  const update = (key: string, patch: Partial<BasketLine>) =>
    setLines((prev) => prev.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  const sell = async () => {
    if (!basket || !current) return;
    setSelling(true);
    setSellError(null);
    try {
      const body = { ...basket, note: '', ...(stationSlug ? { stationSlug } : {}) };
      const result = await checkout(api, studio, body, attemptKey, locale);
      // The receipt panel shows the sale's answer at once (issue 26: it used to wait for retail/init
      // and studio-pos/collection again). What the sale changed is refreshed behind it: the till's
      // shift (its cash) now, the catalog (stock, receipts to print) when the next sale starts.
      onSold({ result, payments: parsedPayments, total: current.due });
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
  const problem = (path: string) =>
    current?.problems[path] ? t(`problems.${current.problems[path][0]}`) : undefined;
  const general = Object.entries(current?.problems ?? {})
    .filter(([path]) => !path.startsWith('items.') && path !== 'voucherCode' && path !== 'scheduledFor')
    .flatMap(([, codes]) => codes.map((code) => t(`problems.${code}`)));
  const groups = current?.groups;

  return (
    <PosLayout
      currency={currency}
      count={lines.reduce((n, l) => n + l.quantity, 0)}
      due={current?.due ?? null}
      catalog={<PosCatalogPanel items={catalog} currency={currency} onAdd={add} />}
      client={<ClientPicker client={client} onChange={setClient} />}
      basket={
        <>
          <PosBasket
            currency={currency}
            lines={lines.map((line, index) => {
              const priced = current?.items[index];
              const problems = Object.entries(current?.problems ?? {})
                .filter(([path]) => path.startsWith(`items.${index}.`))
                .flatMap(([, codes]) => codes);
              return {
                key: line.key,
                name: priced?.name ?? line.name,
                counted: line.type === 'product',
                quantity: line.quantity,
                total: priced ? priced.total : null,
                detail: priced && (
                  <Text size="xs" c="dimmed">
                    {price(priced.unitPrice, currency)} · {t('vat.label')}{' '}
                    {vatLabel(priced.vatRate, t, i18n.language)}
                  </Text>
                ),
                extra: (
                  <>
                    <NativeSelect
                      aria-label={t('basket.status')}
                      size="xs"
                      w="fit-content"
                      value={String(line.status)}
                      onChange={(e) => update(line.key, { status: Number(e.currentTarget.value) })}
                      data={Object.values(RetailItemStatus).map((s) => ({
                        value: String(s),
                        label: t(`enums:retailItemStatus.${s}`),
                      }))}
                    />
                    {problems.map((code) => (
                      <Text key={code} size="xs" c="red">
                        {t(`problems.${code}`)}
                      </Text>
                    ))}
                  </>
                ),
              };
            })}
            onQuantity={(key, quantity) => update(key, { quantity: Math.min(99, Math.max(1, quantity)) })}
            onRemove={(key) => setLines((prev) => prev.filter((l) => l.key !== key))}
          >
            {current && <VatGroups quote={current} currency={currency} />}
            {scheduledNeeded && (
              <TextInput
                mt="sm"
                type="date"
                label={t('scheduledFor')}
                value={scheduledFor}
                onChange={(e) => setScheduledFor(e.currentTarget.value)}
                error={problem('scheduledFor')}
              />
            )}
          </PosBasket>
          {lines.length > 0 && (
            <Card withBorder padding="sm">
              <Stack gap="xs">
                {current && current.walletBalance !== null && (
                  <Text size="sm" c="dimmed" data-testid="pos-wallet-balance">
                    {t('station.walletBalance', { amount: price(current.walletBalance, currency) })}
                  </Text>
                )}
                <PosVoucher
                  code={voucherCode}
                  discount={current?.voucher?.discount ?? 0}
                  currency={currency}
                  error={problem('voucherCode')}
                  onApply={setVoucherCode}
                />
              </Stack>
            </Card>
          )}
        </>
      }
      checkout={
        lines.length > 0 && (
          <PosCheckout
            currency={currency}
            payments={
              <PosTenders
                payments={payments}
                onChange={setPayments}
                methods={METHODS}
                methodLabel={(m) => t(`enums:paymentMethod.${m}`)}
                due={current?.due ?? null}
                splitMethod={PaymentMethod.terminal}
              />
            }
            rows={[
              ...(current?.voucher && current.voucher.discount > 0
                ? [{ label: t('summary.discount'), value: `−${price(current.voucher.discount, currency)}` }]
                : []),
              ...(['unpaid', 'scheduled', 'suspended'] as const)
                .filter((g) => (groups?.[g] ?? 0) > 0)
                .map((g) => ({ label: t(`summary.${g}`), value: price(groups![g], currency) })),
            ]}
            due={current?.due ?? null}
            tendered={current?.tendered ?? amounts.reduce((a, b) => a + b, 0)}
            remaining={current?.remaining ?? 0}
            change={current?.change ?? 0}
            problems={general}
            error={sellError}
            selling={selling}
            canSell={Boolean(current?.canCheckout) && !quote.isFetching && basket !== null}
            onSell={() => void sell()}
          />
        )
      }
    />
  );
}

/** Under the basket: the receipt's VAT groups, with the fiscal printer's letters. */
function VatGroups({ quote, currency }: { quote: RetailQuote; currency: string }) {
  const { t, i18n } = useTranslation('retail');
  const price = usePrice();
  if (!quote.receipt || quote.receipt.vatGroups.length === 0) return null;
  return (
    <Table fz="xs" withRowBorders={false} verticalSpacing={2} mt="xs" data-testid="pos-vat-groups">
      <Table.Tbody>
        {quote.receipt.vatGroups.map((g) => (
          <Table.Tr key={String(g.vatRate)}>
            <Table.Td c="dimmed" px={0}>
              {t('summary.vatGroup', { rate: vatLabel(g.vatRate, t, i18n.language), slot: g.slot ?? '–' })}
            </Table.Td>
            <Table.Td ta="right" c="dimmed" px={0}>
              {price(g.total, currency)} ({t('summary.vat')} {price(g.vat, currency)})
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function DoneScreen({ sold, currency, onNewSale }: { sold: CloudSold; currency: string; onNewSale(): void }) {
  const { t } = useTranslation('retail');
  const price = usePrice();
  const { result } = sold;
  return (
    <PosSaleResult
      total={sold.total}
      change={result.change}
      payments={sold.payments}
      currency={currency}
      methodLabel={(m) => t(`enums:paymentMethod.${m}`)}
      actions={
        <>
          <Button size="lg" onClick={onNewSale} data-testid="pos-new-sale" autoFocus>
            {t('done.newSale')}
          </Button>
          <Button size="lg" component={Link} to="/orders" variant="light">
            {t('done.orders')}
          </Button>
        </>
      }
    >
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
      <Text size="sm" c="dimmed">
        {result.receipt
          ? t('done.receipt', {
              total: price(result.receipt.totals.total, currency),
              vat: price(result.receipt.totals.vat, currency),
            })
          : t('done.noReceipt')}
      </Text>
      {result.unfulfilled.length > 0 && <Alert color="orange">{t('done.unfulfilled')}</Alert>}
    </PosSaleResult>
  );
}
