import { Alert, Button, Card, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PosReceiptIssue, PosSellResult, PosState } from '../../../shared/contracts/ipc/pos';
import { PaymentMethod } from '../../../shared/enums';
import type { PosPaid } from '../../features/pos/catalog';
import { PosSaleResult } from '../../features/pos/PosSaleResult';
import { ApiError } from '../../lib/api-client';
import { failureText } from '../../lib/form-errors';
import { usePrice } from '../../features/pos/use-price';
import { StationInvoiceButton } from './StationInvoice';
import { posStationKeys, type PosStationSink } from './station-sink';

/**
 * The station POS's receipt side (split from StationPosScreen.tsx): receipts the printer left
 * unsettled, why a sale was refused, and the done screen with the receipt's outcome.
 */

/** Receipts the printer left unsettled (paper out, no answer): settle once it is fixed. */
export function ReceiptIssues({ sink, state }: { sink: PosStationSink; state: PosState }) {
  const { t } = useTranslation(['retail', 'printing']);
  const price = usePrice();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  if (state.receiptIssues.length === 0) return null;
  return (
    <Alert color="orange" title={t('station.receiptIssues')} data-testid="pos-receipt-issues">
      <Stack gap={4}>
        {state.receiptIssues.map((r) => (
          <Group key={r.saleId} justify="space-between" wrap="nowrap">
            <Text size="sm">
              {price(r.total, state.currency)} ·{' '}
              {r.messageKey ? t(r.messageKey) : t(`station.receipt.${r.status}`)}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Button
                size="xs"
                variant="light"
                loading={busy === r.saleId}
                onClick={() => {
                  setBusy(r.saleId);
                  void sink
                    .resolvePending(r.saleId)
                    .catch(() => undefined)
                    .finally(() => {
                      setBusy(null);
                      void queryClient.invalidateQueries({ queryKey: posStationKeys.all });
                    });
                }}
                data-testid="pos-resolve"
              >
                {t('station.resolve')}
              </Button>
              {r.confirmable && (
                <Button
                  size="xs"
                  variant="outline"
                  onClick={() => setConfirming(r.saleId)}
                  data-testid="pos-confirm-receipt"
                >
                  {t('station.confirmReceipt.title')}
                </Button>
              )}
            </Group>
          </Group>
        ))}
        {confirming && (
          <ConfirmReceipt
            sink={sink}
            issue={state.receiptIssues.find((r) => r.saleId === confirming)!}
            currency={state.currency}
            onDone={() => {
              setConfirming(null);
              void queryClient.invalidateQueries({ queryKey: posStationKeys.all });
            }}
          />
        )}
      </Stack>
    </Alert>
  );
}

/**
 * The cashier's way out of a receipt the printer cannot identify: read from the paper roll or the
 * electronic copy, it was printed (the number on it) or not. The decision is kept with who made it.
 */
function ConfirmReceipt({
  sink,
  issue,
  currency,
  onDone,
}: {
  sink: PosStationSink;
  issue: PosReceiptIssue;
  currency: string;
  onDone(): void;
}) {
  const { t } = useTranslation(['retail', 'printing']);
  const price = usePrice();
  const [printed, setPrinted] = useState<'yes' | 'no' | null>(null);
  const [number, setNumber] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (!issue) return null;
  const receiptNumber = /^\d{1,8}$/.test(number.trim()) ? Number(number.trim()) : null;
  const submit = () => {
    if (printed === 'yes' && (receiptNumber === null || receiptNumber < 1))
      return setError(t('station.confirmReceipt.numberInvalid'));
    setSaving(true);
    void sink
      .confirmReceipt({
        saleId: issue.saleId,
        printed: printed === 'yes',
        ...(printed === 'yes' ? { receiptNumber: receiptNumber! } : {}),
      })
      .then(onDone, (e: unknown) => setError(failureText(e, t, 'errors.general')))
      .finally(() => setSaving(false));
  };
  return (
    <Card withBorder padding="sm" data-testid="pos-confirm-receipt-form">
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          {t('station.confirmReceipt.title')}
        </Text>
        <Text size="sm">{t('station.confirmReceipt.intro', { total: price(issue.total, currency) })}</Text>
        <Radio.Group value={printed} onChange={(v) => setPrinted(v as 'yes' | 'no')}>
          <Stack gap={4}>
            <Radio
              value="yes"
              label={t('station.confirmReceipt.printed')}
              data-testid="pos-confirm-printed"
            />
            <Radio
              value="no"
              label={t('station.confirmReceipt.notPrinted')}
              data-testid="pos-confirm-not-printed"
            />
          </Stack>
        </Radio.Group>
        {printed === 'yes' && (
          <TextInput
            label={t('station.confirmReceipt.number')}
            value={number}
            inputMode="numeric"
            onChange={(e) => setNumber(e.currentTarget.value)}
            data-testid="pos-confirm-number"
          />
        )}
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {t('station.confirmReceipt.audit')}
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            disabled={printed === null}
            loading={saving}
            onClick={submit}
            data-testid="pos-confirm-submit"
          >
            {printed === 'no'
              ? t('station.confirmReceipt.confirmNotPrinted')
              : t('station.confirmReceipt.confirmPrinted')}
          </Button>
          <Button size="xs" variant="subtle" onClick={onDone}>
            {t('station.confirmReceipt.cancel')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Why the station refused a sale, in the desk's words (the cloud's refusals of a wallet/voucher sale too). */
export function saleError(e: unknown, t: (key: string, options?: Record<string, unknown>) => string): string {
  if (!(e instanceof ApiError)) return failureText(e, t, 'errors.general');
  if (e.key === 'pos.discountNotAllowed') return t('station.discountNotAllowed');
  if (e.key === 'desktop.tooOld')
    return t('desk-fleet:pos.tooOld', {
      version: e.fields.version?.[0] ?? '?',
      oldest: e.fields.oldestAccepted?.[0] ?? '?',
    });
  if (e.key === 'shift.notOpen') return t('station.noShift');
  if (e.key === 'pos.needsConnection') return t('station.cloudOffline');
  if (e.key === 'pos.totalChanged') return t('station.totalChanged');
  if (e.key === 'pos.receiptUnresolved') {
    // Why the earlier receipt is unsettled (the printer's message) and what to do.
    const why = e.fields.saleId?.[0];
    return [t('printing:cashier.previousReceiptUnresolved'), why?.startsWith('printing:') ? t(why) : '']
      .filter(Boolean)
      .join(' ');
  }
  if (e.fields.buyerNip) return t('station.buyerNipInvalid');
  if (e.key === 'wallet.insufficientFunds') return t('problems.walletTooLow');
  const codes = [...new Set(Object.values(e.fields).flat())].filter((c) => /^[a-zA-Z]+$/.test(c));
  const known = codes.map((c) => t(`problems.${c}`, { defaultValue: '' })).filter(Boolean);
  if (known.length > 0) return known.join(' ');
  if (e.key?.startsWith('voucher.')) return t('problems.voucherUnavailable');
  return failureText(e, t, 'errors.general');
}

/** A sale the station recorded and how it was paid (the result panel lists the tenders). */
export interface StationSold {
  result: PosSellResult;
  payments: PosPaid[];
}

/** The desk's names of the methods ("Gift card" for a paper voucher taken as money). */
export function stationMethodLabel(method: number, t: (key: string) => string): string {
  return method === PaymentMethod.gift ? t('station.giftCard') : t(`enums:paymentMethod.${method}`);
}

export function StationDone({
  sink,
  sold,
  currency,
  onNext,
}: {
  sink: PosStationSink;
  sold: StationSold;
  currency: string;
  onNext(): void;
}) {
  const { t } = useTranslation(['retail', 'printing']);
  const { result } = sold;
  const r = result.receipt;
  return (
    <PosSaleResult
      total={result.total}
      change={result.change}
      payments={sold.payments}
      currency={currency}
      methodLabel={(m) => stationMethodLabel(m, t)}
      actions={
        <>
          <Button size="lg" onClick={onNext} data-testid="pos-new-sale" autoFocus>
            {t('done.newSale')}
          </Button>
          <StationInvoiceButton sink={sink} saleId={result.saleId} />
        </>
      }
    >
      <Alert
        color={r.status === 'printed' ? 'teal' : r.status === 'noPrinter' ? 'gray' : 'orange'}
        data-testid="pos-done-receipt"
        data-status={r.status}
      >
        {r.status === 'printed'
          ? t('station.receipt.printed', { number: r.receiptNumber })
          : r.messageKey
            ? `${t(`station.receipt.${r.status}`)} ${t(r.messageKey)}`
            : t(`station.receipt.${r.status}`)}
      </Alert>
      <Text size="sm" c="dimmed">
        {t('station.savedLocally')}
      </Text>
    </PosSaleResult>
  );
}
