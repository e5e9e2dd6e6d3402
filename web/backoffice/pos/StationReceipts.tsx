import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PosSellResult, PosState } from '../../../shared/contracts/ipc/pos';
import { ApiError } from '../../lib/api-client';
import { errorCodeLabel } from '../../lib/form-errors';
import { usePrice } from './PosScreen';
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
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}

/** Why the station refused a sale, in the desk's words (the cloud's refusals of a wallet/voucher sale too). */
export function saleError(e: unknown, t: (key: string, options?: Record<string, unknown>) => string): string {
  if (!(e instanceof ApiError)) return t('errors.general', { code: errorCodeLabel(e) });
  if (e.key === 'pos.discountNotAllowed') return t('station.discountNotAllowed');
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
  return t('errors.general', { code: errorCodeLabel(e) });
}

export function StationDone({
  sink,
  result,
  currency,
  onNext,
}: {
  sink: PosStationSink;
  result: PosSellResult;
  currency: string;
  onNext(): void;
}) {
  const { t } = useTranslation(['retail', 'printing']);
  const price = usePrice();
  const r = result.receipt;
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
        <Text data-testid="pos-done-total">
          {t('done.total')}: <b>{price(result.total, currency)}</b>
        </Text>
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
        <Group align="flex-start">
          <Button size="lg" onClick={onNext} data-testid="pos-new-sale" autoFocus>
            {t('done.newSale')}
          </Button>
          <StationInvoiceButton sink={sink} saleId={result.saleId} />
        </Group>
      </Stack>
    </Card>
  );
}
