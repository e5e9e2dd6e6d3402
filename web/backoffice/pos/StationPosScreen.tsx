import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  CloseButton,
  Grid,
  Group,
  NativeSelect,
  ScrollArea,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { v7 as uuidv7 } from 'uuid';
import type { ShiftView, StudioPos } from '../../../shared/contracts/api/stations';
import type { PosCatalogItem, PosSellResult } from '../../../shared/contracts/ipc/pos';
import { checkNip } from '../../../shared/domain/invoices/tax-id';
import { PaymentMethod } from '../../../shared/enums';
import { ApiError } from '../../lib/api-client';
import { useBarcodeScanner } from './barcode';
import { ClientPicker, usePrice } from './PosScreen';
import { amountText, parseAmount, useLocale, useRetailQuote } from './pos.api';
import { useOffline } from '../../lib/connectivity';
import { ClosedShiftModal, OpenShiftCard, ShiftBar } from './ShiftPanel';
import { StationChoice } from './StationChoice';
import { ReceiptIssues, saleError, StationDone } from './StationReceipts';
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

interface Payment {
  key: string;
  method: number;
  text: string;
}

const newPayment = (method: number): Payment => ({ key: uuidv7(), method, text: '' });

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
  const [done, setDone] = useState<PosSellResult | null>(null);
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
          result={done}
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
  onSold(result: PosSellResult): void;
}) {
  const { t, i18n } = useTranslation('retail');
  const offline = useOffline();
  const [voucherText, setVoucherText] = useState('');
  const [voucherCode, setVoucherCode] = useState<string | null>(null);
  const price = usePrice();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [group, setGroup] = useState('all');
  const [scanMiss, setScanMiss] = useState<string | null>(null);
  const [lines, setLines] = useState<Line[]>([]);
  const [client, setClient] = useState<{ id: string; name: string } | null>(null);
  const [discountText, setDiscountText] = useState('');
  // The buyer's NIP printed on the receipt ("paragon z NIP-em"): cash/card sales only.
  const [nipText, setNipText] = useState('');
  const [payments, setPayments] = useState<Payment[]>([newPayment(PaymentMethod.cash)]);
  const [saleId, setSaleId] = useState(() => uuidv7());
  const [selling, setSelling] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Groups of the grid: each product category, products without one, and passes.
  const groups = useMemo(() => {
    const seen = new Map<string, string>();
    for (const item of items) if (item.category) seen.set(item.category.id, item.category.name);
    return [
      { value: 'all', label: t('station.all') },
      ...[...seen.entries()].map(([value, label]) => ({ value, label })),
      ...(items.some((i) => i.type === 'product' && !i.category)
        ? [{ value: 'other', label: t('station.otherProducts') }]
        : []),
      ...(items.some((i) => i.type === 'pricingOption')
        ? [{ value: 'passes', label: t('types.pricingOption') }]
        : []),
      ...(items.some((i) => i.type === 'contract')
        ? [{ value: 'contracts', label: t('types.contract') }]
        : []),
    ];
  }, [items, t]);

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return items.filter((i) => {
      if (q) return i.name.toLowerCase().includes(q) || (i.barcode ?? '').startsWith(q);
      if (group === 'all') return true;
      if (group === 'passes') return i.type === 'pricingOption';
      if (group === 'contracts') return i.type === 'contract';
      if (group === 'other') return i.type === 'product' && !i.category;
      return i.category?.id === group;
    });
  }, [items, search, group]);

  const add = (item: PosCatalogItem) => {
    if (item.type === 'contract' && offline) return;
    setError(null);
    setLines((prev) => {
      const same = prev.find((l) => l.item.type === item.type && l.item.id === item.id);
      if (same && item.type === 'product')
        return prev.map((l) => (l === same ? { ...l, quantity: Math.min(999, l.quantity + 1) } : l));
      if (same) return prev;
      return [...prev, { item, quantity: 1 }];
    });
  };
  const addByBarcode = (code: string) => {
    const item = items.find((i) => i.barcode !== null && i.barcode === code.trim());
    setScanMiss(item ? null : code.trim());
    if (item) add(item);
  };
  useBarcodeScanner(addByBarcode);

  const subtotal = lines.reduce((sum, l) => sum + l.item.price * l.quantity, 0);
  const amounts = payments.map((p) => parseAmount(p.text) ?? 0);
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
          payments: payments
            .map((p, i) => ({ method: p.method, amount: amounts[i] ?? 0 }))
            .filter((p) => p.amount > 0),
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
  const cash = payments.reduce(
    (sum, p, i) => sum + (p.method === PaymentMethod.cash ? (amounts[i] ?? 0) : 0),
    0,
  );
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

  const fillRest = (key: string) => {
    const others = payments.filter((p) => p.key !== key).reduce((s, p) => s + (parseAmount(p.text) ?? 0), 0);
    const rest = Math.max(0, total - others);
    setPayments((prev) =>
      prev.map((p) => (p.key === key ? { ...p, text: amountText(rest, i18n.language) } : p)),
    );
  };

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
        payments: payments
          .map((p, i) => ({ method: p.method, amount: amounts[i] ?? 0 }))
          .filter((p) => p.amount > 0),
        voucherCode,
        ...(buyerNip ? { buyerNip } : {}),
      });
      await queryClient.invalidateQueries({ queryKey: posStationKeys.state });
      onSold(result);
    } catch (e) {
      // Refused (nothing recorded): the next attempt is a new sale.
      if (e instanceof ApiError && e.status < 500) setSaleId(uuidv7());
      setError(saleError(e, t));
    } finally {
      setSelling(false);
    }
  };

  return (
    <Grid gutter="md">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Card withBorder padding="md">
          <Stack gap="sm">
            <TextInput
              label={t('station.searchLabel')}
              placeholder={t('search.placeholder')}
              value={search}
              size="md"
              onChange={(e) => setSearch(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter' || !search.trim()) return;
                e.preventDefault();
                const exact = items.find((i) => i.barcode !== null && i.barcode === search.trim());
                if (exact) add(exact);
                else if (shown.length === 1) add(shown[0]!);
                else return setScanMiss(search.trim());
                setScanMiss(null);
                setSearch('');
              }}
              data-testid="pos-search"
            />
            {scanMiss && (
              <Text size="sm" c="red" data-testid="pos-scan-miss">
                {t('search.noBarcode', { code: scanMiss })}
              </Text>
            )}
            <ScrollArea type="auto" offsetScrollbars>
              <SegmentedControl value={group} onChange={setGroup} data={groups} data-testid="pos-groups" />
            </ScrollArea>
            <SimpleGrid cols={{ base: 2, sm: 3, xl: 4 }} spacing="xs" data-testid="pos-results">
              {shown.map((item) => (
                <UnstyledButton
                  key={`${item.type}-${item.id}`}
                  onClick={() => add(item)}
                  // A contract is sold through the cloud only.
                  disabled={item.type === 'contract' && offline}
                  title={item.type === 'contract' && offline ? t('station.cloudOffline') : undefined}
                  data-testid="pos-result"
                  aria-label={t('search.add', { name: item.name })}
                  p="sm"
                  mih={84}
                  style={{
                    borderRadius: 'var(--mantine-radius-md)',
                    border: '1px solid var(--mantine-color-gray-3)',
                    background: item.type === 'product' ? undefined : 'var(--mantine-color-teal-0)',
                    opacity: item.type === 'contract' && offline ? 0.45 : undefined,
                  }}
                >
                  <Stack gap={4} justify="space-between" h="100%">
                    <Text fw={500} size="sm" lineClamp={2}>
                      {item.name}
                    </Text>
                    <Group justify="space-between" gap="xs" style={{ rowGap: 0 }}>
                      <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
                        {price(item.price, currency)}
                      </Text>
                      {item.stock !== null && (
                        <Text size="xs" c={item.stock > 0 ? 'dimmed' : 'red'} ta="right">
                          {t('search.stock', { count: item.stock })}
                        </Text>
                      )}
                    </Group>
                  </Stack>
                </UnstyledButton>
              ))}
            </SimpleGrid>
            {shown.length === 0 && (
              <Text c="dimmed" size="sm">
                {t('search.none')}
              </Text>
            )}
          </Stack>
        </Card>
      </Grid.Col>

      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="sm">
          <ClientPicker client={client} onChange={setClient} />
          <Card withBorder padding="md">
            <Title order={2} size="h4" mb="xs">
              {t('basket.title')}
            </Title>
            {lines.length === 0 ? (
              <Text c="dimmed" data-testid="pos-basket-empty">
                {t('station.basketEmpty')}
              </Text>
            ) : (
              <Stack gap={6} data-testid="pos-basket">
                {lines.map((line) => (
                  // The name on its own row: a narrow basket (1024 px) must not cut it to "W…".
                  <Stack key={`${line.item.type}-${line.item.id}`} gap={2} data-testid="pos-basket-line">
                    <Text size="sm" fw={500} lineClamp={2}>
                      {line.item.name}
                    </Text>
                    <Group justify="space-between" wrap="nowrap" gap={4}>
                      <Group gap={4} wrap="nowrap">
                        {line.item.type === 'product' && (
                          <>
                            <ActionIcon
                              variant="light"
                              size="lg"
                              aria-label={t('station.less')}
                              onClick={() =>
                                setLines((prev) =>
                                  prev.map((l) =>
                                    l === line ? { ...l, quantity: Math.max(1, l.quantity - 1) } : l,
                                  ),
                                )
                              }
                            >
                              −
                            </ActionIcon>
                            <Text w={28} ta="center" data-testid="pos-line-quantity">
                              {line.quantity}
                            </Text>
                            <ActionIcon
                              variant="light"
                              size="lg"
                              aria-label={t('station.more')}
                              onClick={() => add(line.item)}
                            >
                              +
                            </ActionIcon>
                          </>
                        )}
                      </Group>
                      <Group gap={4} wrap="nowrap">
                        <Text fw={600} ta="right" style={{ whiteSpace: 'nowrap' }}>
                          {price(line.item.price * line.quantity, currency)}
                        </Text>
                        <CloseButton
                          aria-label={t('basket.remove', { name: line.item.name })}
                          onClick={() => setLines((prev) => prev.filter((l) => l !== line))}
                        />
                      </Group>
                    </Group>
                  </Stack>
                ))}
              </Stack>
            )}
          </Card>

          {lines.length > 0 && (
            <Card withBorder padding="md">
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
                {payments.map((p, index) => (
                  // Wraps at 1024 px (a narrow basket column) rather than squeezing the method to "W…".
                  <Group
                    key={p.key}
                    gap="xs"
                    align="flex-end"
                    wrap="wrap"
                    style={{ rowGap: 4 }}
                    data-payment-key={p.key}
                  >
                    <NativeSelect
                      label={index === 0 ? t('payment.method') : undefined}
                      aria-label={t('payment.method')}
                      value={String(p.method)}
                      onChange={(e) => {
                        const method = Number(e.currentTarget.value);
                        setPayments((prev) => prev.map((x) => (x.key === p.key ? { ...x, method } : x)));
                      }}
                      data={METHODS.map((m) => ({
                        value: String(m),
                        label:
                          m === PaymentMethod.gift ? t('station.giftCard') : t(`enums:paymentMethod.${m}`),
                        // The wallet needs the cloud and a client (kept when already chosen, to show why).
                        disabled: m === PaymentMethod.wallet && p.method !== m && (offline || !client),
                      }))}
                      data-testid={`pos-payment-method-${index}`}
                      style={{ flex: '1 1 130px' }}
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
                      w={96}
                    />
                    <Button
                      variant="subtle"
                      px="xs"
                      onClick={() => fillRest(p.key)}
                      data-testid={`pos-payment-rest-${index}`}
                    >
                      {t('payment.rest')}
                    </Button>
                    {payments.length > 1 && (
                      <CloseButton
                        aria-label={t('payment.remove')}
                        onClick={() => setPayments((prev) => prev.filter((x) => x.key !== p.key))}
                        mb={6}
                      />
                    )}
                  </Group>
                ))}
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
                {voucherCode ? (
                  <Group justify="space-between" wrap="nowrap" data-testid="pos-voucher-applied">
                    <Text size="sm">
                      {t('station.voucherApplied', {
                        code: voucherCode,
                        amount: price(voucherDiscount, currency),
                      })}
                    </Text>
                    <CloseButton
                      aria-label={t('station.voucherRemove')}
                      onClick={() => {
                        setVoucherCode(null);
                        setVoucherText('');
                      }}
                    />
                  </Group>
                ) : (
                  <Group gap="xs" align="flex-end" wrap="nowrap">
                    <TextInput
                      label={t('voucher.label')}
                      value={voucherText}
                      disabled={offline}
                      onChange={(e) => setVoucherText(e.currentTarget.value)}
                      onKeyDown={(e) => {
                        if (e.key !== 'Enter' || !voucherText.trim()) return;
                        e.preventDefault();
                        setVoucherCode(voucherText.trim().toUpperCase());
                      }}
                      data-testid="pos-voucher"
                      style={{ flex: 1 }}
                    />
                    <Button
                      variant="light"
                      disabled={offline || !voucherText.trim()}
                      onClick={() => setVoucherCode(voucherText.trim().toUpperCase())}
                      data-testid="pos-voucher-apply"
                    >
                      {t('voucher.apply')}
                    </Button>
                  </Group>
                )}
                {payments.length < 5 && (
                  <Button
                    variant="light"
                    size="xs"
                    w="fit-content"
                    onClick={() => {
                      const added = newPayment(PaymentMethod.terminal);
                      setPayments((prev) => [...prev, added]);
                      // The new line may open below the sticky totals (1024×768): bring it to the
                      // middle and put the cursor in its amount.
                      requestAnimationFrame(() => {
                        const row = document.querySelector<HTMLElement>(`[data-payment-key="${added.key}"]`);
                        row?.scrollIntoView({ block: 'center' });
                        row?.querySelector<HTMLInputElement>('input')?.focus({ preventScroll: true });
                      });
                    }}
                    data-testid="pos-add-payment"
                  >
                    {t('payment.split')}
                  </Button>
                )}
              </Stack>
            </Card>
          )}
          {lines.length > 0 && (
            // The amounts and the button stay in sight (1024×768, 1280×800) while the rest scrolls.
            <Card
              withBorder
              shadow="sm"
              padding="md"
              style={{
                position: 'sticky',
                bottom: 'calc(var(--app-shell-footer-offset, 0px) + var(--mantine-spacing-xs))',
                zIndex: 2,
              }}
              data-testid="pos-checkout"
            >
              <Stack gap="xs">
                <Stack gap={2} data-testid="pos-summary">
                  {discount > 0 && (
                    <Group justify="space-between">
                      <Text size="sm">{t('summary.discount')}</Text>
                      <Text size="sm">−{price(discount, currency)}</Text>
                    </Group>
                  )}
                  {voucherDiscount > 0 && (
                    <Group justify="space-between">
                      <Text size="sm">{t('station.voucherLine', { code: voucherCode })}</Text>
                      <Text size="sm" data-testid="pos-voucher-discount">
                        −{price(voucherDiscount, currency)}
                      </Text>
                    </Group>
                  )}
                  <Group justify="space-between">
                    <Text fw={700}>{t('summary.due')}</Text>
                    <Text fw={700} size="lg" data-testid="pos-due">
                      {price(total, currency)}
                    </Text>
                  </Group>
                  <Group justify="space-between">
                    <Text size="sm">{t('summary.tendered')}</Text>
                    <Text size="sm">{price(tendered, currency)}</Text>
                  </Group>
                  {remaining > 0 && (
                    <Group justify="space-between">
                      <Text size="sm">{t('summary.remaining')}</Text>
                      <Text size="sm" data-testid="pos-remaining">
                        {price(remaining, currency)}
                      </Text>
                    </Group>
                  )}
                  {change > 0 && (
                    <Group justify="space-between">
                      <Text fw={700}>{t('summary.change')}</Text>
                      <Text fw={700} data-testid="pos-change">
                        {price(change, currency)}
                      </Text>
                    </Group>
                  )}
                  {problem && (
                    <Text size="sm" c="red">
                      {problem}
                    </Text>
                  )}
                </Stack>
                {error && (
                  <Alert color="red" data-testid="pos-error">
                    {error}
                  </Alert>
                )}
                <Button
                  fullWidth
                  size="lg"
                  loading={selling}
                  disabled={!canSell}
                  onClick={() => void sell()}
                  data-testid="pos-sell"
                >
                  {t('sell', { amount: price(total, currency) })}
                </Button>
              </Stack>
            </Card>
          )}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
