import { Alert, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { v7 as uuidv7 } from 'uuid';
import type { ShiftView, StudioPos } from '../../../shared/contracts/api/stations';
import type { PosCatalogItem } from '../../../shared/contracts/ipc/pos';
import { checkNip } from '../../../shared/domain/invoices/tax-id';
import { PaymentMethod } from '../../../shared/enums';
import { parseAmount } from '../../features/pos/amounts';
import type { PosPaymentLine } from '../../features/pos/catalog';
import { PosBasket } from '../../features/pos/PosBasket';
import { PosCatalogPanel } from '../../features/pos/PosCatalogPanel';
import { PosCheckout } from '../../features/pos/PosCheckout';
import { PosLayout } from '../../features/pos/PosLayout';
import { newPaymentLine, PosTenders, tenderedAmounts } from '../../features/pos/PosTenders';
import { PosVoucher } from '../../features/pos/PosVoucher';
import { usePrice } from '../../features/pos/use-price';
import { ApiError } from '../../lib/api-client';
import { ClientPicker } from './ClientPicker';
import { useLocale, useRetailQuote } from './pos.api';
import { useOffline } from '../../lib/connectivity';
import { ClosedShiftModal, OpenShiftCard, ShiftBar } from './ShiftPanel';
import { StationChoice } from './StationChoice';
import {
  ReceiptIssues,
  saleError,
  StationDone,
  stationMethodLabel,
  type StationSold,
} from './StationReceipts';
import { posStationKeys, type PosStationSink } from './station-sink';
import { ListLoading } from '../list-frame';

/**
 * What the desk takes at the station: cash (with change), card terminal, the client's wallet, a gift
 * card, transfer, other. The wallet (and a voucher code, and contracts) need the cloud: such a sale is
 * priced by the cloud's quote and charged by it before the receipt prints; offline they are disabled.
 */
const METHODS = [
  PaymentMethod.cash,
  PaymentMethod.terminal,
  PaymentMethod.wallet,
  PaymentMethod.gift,
  PaymentMethod.bankTransfer,
  PaymentMethod.other,
] as const;

interface Line {
  item: PosCatalogItem;
  quantity: number;
}

/** The POS at the desktop station: sales go through the station (local record, fiscal receipt, drawer). */
export function StationPosScreen({ sink }: { sink: PosStationSink }) {
  const { t } = useTranslation('retail');
  const locale = useLocale();
  const state = useQuery({
    queryKey: posStationKeys.state,
    queryFn: () => sink.state(),
    refetchInterval: 5000,
  });
  // The station's connectivity (status bar) is part of the key: going off- or online reads the
  // catalog again at once, so the "offline copy" badge follows the connection.
  const offline = useOffline();
  const catalog = useQuery({
    queryKey: [...posStationKeys.catalog(locale), offline],
    queryFn: () => sink.catalog(locale),
    retry: false,
    // Prices follow the cloud; a copy read offline is asked again soon (its badge goes once online).
    refetchInterval: (query) => (query.state.data?.offline ? 10_000 : 60_000),
    // A language switch keeps the basket and the grid (names follow once the new catalog is in).
    placeholderData: keepPreviousData,
  });
  const [done, setDone] = useState<StationSold | null>(null);
  const [saleNumber, setSaleNumber] = useState(0);
  // Kept here: the state's poll drops the shift bar (and any dialog in it) once the shift is closed.
  const [closedShift, setClosedShift] = useState<ShiftView | null>(null);
  const queryClient = useQueryClient();

  if (!state.data || !catalog.data) {
    if (state.isError || catalog.isError)
      return (
        <Alert color="red" title={t('loadError')} data-testid="pos-load-error">
          <Button
            variant="light"
            mt="sm"
            onClick={() => void Promise.all([state.refetch(), catalog.refetch()])}
          >
            {t('retry')}
          </Button>
        </Alert>
      );
    return <ListLoading label={t('loading')} />;
  }
  const pos = state.data;
  const asStudioPos: StudioPos | null = pos.station
    ? {
        id: pos.station.posId,
        name: pos.station.name,
        slug: pos.station.slug,
        location: null,
        device: null,
        assignedAt: null,
        fiscalPrinter: pos.printer.fiscal,
        openShift: null,
      }
    : null;

  return (
    <Stack gap="md" data-testid="pos-station-screen">
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        <Group gap="xs">
          {catalog.data.offline && (
            <Badge color="orange" variant="light" data-testid="pos-offline">
              {t('station.offlineCatalog')}
            </Badge>
          )}
          <Badge variant="light" color={pos.printer.fiscal ? 'teal' : 'gray'} data-testid="pos-printer">
            {pos.printer.fiscal ? t('station.fiscalOn') : t('station.fiscalOff')}
          </Badge>
        </Group>
      </Group>
      {pos.updateRequired && (
        <Alert color="red" title={t('desk-fleet:pos.tooOldTitle')} data-testid="pos-update-required">
          {t('desk-fleet:pos.tooOldHint', {
            version: pos.updateRequired.version,
            oldest: pos.updateRequired.oldestAccepted,
          })}
        </Alert>
      )}
      <StationChoice sink={sink} state={pos} />
      <ReceiptIssues sink={sink} state={pos} />
      {asStudioPos && pos.shift && !done && (
        <ShiftBar
          pos={asStudioPos}
          shift={pos.shift}
          onClosed={(shift) => {
            setClosedShift(shift);
            void queryClient.invalidateQueries({ queryKey: posStationKeys.all });
          }}
        />
      )}
      <ClosedShiftModal shift={closedShift} onDone={() => setClosedShift(null)} />
      {asStudioPos && !pos.shift ? (
        <OpenShiftCard pos={asStudioPos} currency={pos.currency} />
      ) : !asStudioPos ? null : done ? (
        <StationDone
          sink={sink}
          sold={done}
          currency={pos.currency}
          onNext={() => {
            setDone(null);
            setSaleNumber((n) => n + 1);
          }}
        />
      ) : (
        <StationSale
          key={saleNumber}
          sink={sink}
          items={catalog.data.items}
          currency={catalog.data.currency}
          canDiscount={pos.canDiscount}
          stationSlug={pos.station?.slug ?? null}
          onSold={setDone}
        />
      )}
    </Stack>
  );
}

function StationSale({
  sink,
  items,
  currency,
  canDiscount,
  stationSlug,
  onSold,
}: {
  sink: PosStationSink;
  items: PosCatalogItem[];
  currency: string;
  canDiscount: boolean;
  stationSlug: string | null;
  onSold(sold: StationSold): void;
}) {
  const { t } = useTranslation('retail');
  const offline = useOffline();
  const [voucherCode, setVoucherCode] = useState<string | null>(null);
  const price = usePrice();
  const queryClient = useQueryClient();
  const [lines, setLines] = useState<Line[]>([]);
  const [client, setClient] = useState<{ id: string; name: string } | null>(null);
  const [discountText, setDiscountText] = useState('');
  // The buyer's NIP printed on the receipt ("paragon z NIP-em"): cash/card sales only.
  const [nipText, setNipText] = useState('');
  const [payments, setPayments] = useState<PosPaymentLine[]>([newPaymentLine(PaymentMethod.cash)]);
  const [saleId, setSaleId] = useState(() => uuidv7());
  const [selling, setSelling] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const add = (item: PosCatalogItem) => {
    setError(null);
    setLines((prev) => {
      const same = prev.find((l) => l.item.type === item.type && l.item.id === item.id);
      if (same && item.type === 'product')
        return prev.map((l) => (l === same ? { ...l, quantity: Math.min(999, l.quantity + 1) } : l));
      if (same) return prev;
      return [...prev, { item, quantity: 1 }];
    });
  };

  const subtotal = lines.reduce((sum, l) => sum + l.item.price * l.quantity, 0);
  const amounts = tenderedAmounts(payments);
  const paid = payments
    .map((p, i) => ({ method: p.method, amount: amounts[i] ?? 0 }))
    .filter((p) => p.amount > 0);
  // Wallet, voucher or contract: the cloud prices the sale (its own quote, every problem) and charges it.
  const viaCloud =
    voucherCode !== null ||
    payments.some((p) => p.method === PaymentMethod.wallet) ||
    lines.some((l) => l.item.type === 'contract');
  // The cloud's checkout takes no staff discount: with the wallet, a voucher or a contract it is not offered.
  const discount = canDiscount && !viaCloud ? (parseAmount(discountText) ?? 0) : 0;
  const nipCheck = nipText.trim() ? checkNip(nipText) : null;
  const nipInvalid = nipCheck !== null && !nipCheck.valid;
  const buyerNip = nipCheck?.valid ? nipCheck.nip : null;
  const quote = useRetailQuote(
    viaCloud && !offline && lines.length > 0
      ? {
          clientId: client?.id ?? null,
          items: lines.map((l) => ({ type: l.item.type, id: l.item.id, quantity: l.quantity })),
          voucherCode,
          payments: paid,
          stationSlug,
        }
      : null,
  );
  const cloudQuote = viaCloud && !offline ? (quote.data ?? null) : null;
  const voucherDiscount = cloudQuote?.voucher?.discount ?? 0;
  const total = cloudQuote ? cloudQuote.due : Math.max(0, subtotal - discount - voucherDiscount);
  // The cloud's problems, translated (payments not covered yet is what "remaining" already says).
  const cloudProblems = cloudQuote
    ? [
        ...new Set(
          Object.values(cloudQuote.problems)
            .flat()
            .filter((code) => code !== 'notCovered'),
        ),
      ].map((code) => t(`problems.${code}`, { defaultValue: t('errors.basket') }))
    : [];
  const tendered = amounts.reduce((a, b) => a + b, 0);
  const cash = paid.reduce((sum, p) => sum + (p.method === PaymentMethod.cash ? p.amount : 0), 0);
  const change = Math.max(0, tendered - total);
  const remaining = Math.max(0, total - tendered);
  const needsClient = lines.some((l) => l.item.needsClient) && !client;
  const problem =
    lines.length === 0
      ? null
      : needsClient
        ? t('problems.clientRequired')
        : viaCloud && offline
          ? t('station.cloudOffline')
          : cloudProblems.length > 0
            ? cloudProblems.join(' ')
            : discount > subtotal
              ? t('station.discountTooHigh')
              : remaining > 0
                ? null
                : change > cash
                  ? t('station.changeFromCash')
                  : null;
  const canSell =
    lines.length > 0 &&
    remaining === 0 &&
    !problem &&
    !nipInvalid &&
    (viaCloud ? cloudQuote !== null && !quote.isFetching : total > 0);

  const sell = async () => {
    if (!canSell) return;
    setSelling(true);
    setError(null);
    try {
      const result = await sink.sell({
        saleId,
        clientId: client?.id ?? null,
        lines: lines.map((l) => ({ type: l.item.type, id: l.item.id, quantity: l.quantity })),
        discount,
        payments: paid,
        voucherCode,
        ...(buyerNip ? { buyerNip } : {}),
      });
      await queryClient.invalidateQueries({ queryKey: posStationKeys.state });
      onSold({ result, payments: paid });
    } catch (e) {
      // Refused (nothing recorded): the next attempt is a new sale.
      if (e instanceof ApiError && e.status < 500) setSaleId(uuidv7());
      setError(saleError(e, t));
    } finally {
      setSelling(false);
    }
  };

  const keyOf = (l: Line) => `${l.item.type}-${l.item.id}`;
  return (
    <PosLayout
      currency={currency}
      count={lines.reduce((n, l) => n + l.quantity, 0)}
      due={total}
      catalog={
        <PosCatalogPanel
          items={items}
          currency={currency}
          onAdd={add}
          // A contract is sold through the cloud only.
          unavailable={(item) => (item.type === 'contract' && offline ? t('station.cloudOffline') : null)}
        />
      }
      client={<ClientPicker client={client} onChange={setClient} />}
      basket={
        <>
          <PosBasket
            currency={currency}
            lines={lines.map((l) => ({
              key: keyOf(l),
              name: l.item.name,
              counted: l.item.type === 'product',
              quantity: l.quantity,
              total: l.item.price * l.quantity,
            }))}
            onQuantity={(key, quantity) =>
              setLines((prev) =>
                prev.map((l) =>
                  keyOf(l) === key ? { ...l, quantity: Math.min(999, Math.max(1, quantity)) } : l,
                ),
              )
            }
            onRemove={(key) => setLines((prev) => prev.filter((l) => keyOf(l) !== key))}
          />
          {lines.length > 0 && (
            <Card withBorder padding="sm">
              <Stack gap="xs">
                {canDiscount && !viaCloud && (
                  <TextInput
                    label={t('station.discount')}
                    inputMode="decimal"
                    value={discountText}
                    onChange={(e) => setDiscountText(e.currentTarget.value)}
                    error={
                      discountText && parseAmount(discountText) === null ? t('payment.invalid') : undefined
                    }
                    rightSection={<Text size="xs">{currency}</Text>}
                    data-testid="pos-discount"
                  />
                )}
                <TextInput
                  label={t('station.buyerNip')}
                  description={t('station.buyerNipHint')}
                  value={nipText}
                  onChange={(e) => setNipText(e.currentTarget.value)}
                  error={nipInvalid ? t('station.buyerNipInvalid') : undefined}
                  data-testid="pos-buyer-nip"
                />
                {offline ? (
                  <Alert color="gray" variant="light" data-testid="pos-cloud-offline">
                    {t('station.cloudOffline')}
                  </Alert>
                ) : (
                  cloudQuote?.walletBalance !== null &&
                  cloudQuote?.walletBalance !== undefined &&
                  payments.some((p) => p.method === PaymentMethod.wallet) && (
                    <Text size="sm" c="dimmed" data-testid="pos-wallet-balance">
                      {t('station.walletBalance', { amount: price(cloudQuote.walletBalance, currency) })}
                    </Text>
                  )
                )}
                <PosVoucher
                  code={voucherCode}
                  discount={voucherDiscount}
                  currency={currency}
                  disabled={offline}
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
                methodLabel={(m) => stationMethodLabel(m, t)}
                // The wallet needs the cloud and a client (kept when already chosen, to show why).
                methodDisabled={(m) => m === PaymentMethod.wallet && (offline || !client)}
                due={total}
                splitMethod={PaymentMethod.terminal}
              />
            }
            rows={[
              ...(discount > 0
                ? [{ label: t('summary.discount'), value: `−${price(discount, currency)}` }]
                : []),
              ...(voucherDiscount > 0
                ? [
                    {
                      label: t('station.voucherLine', { code: voucherCode }),
                      value: `−${price(voucherDiscount, currency)}`,
                      testId: 'pos-voucher-discount',
                    },
                  ]
                : []),
            ]}
            due={total}
            tendered={tendered}
            remaining={remaining}
            change={change}
            problems={problem ? [problem] : []}
            error={error}
            selling={selling}
            canSell={canSell}
            onSell={() => void sell()}
          />
        )
      }
    />
  );
}
