import { Alert, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MANTINE_BREAKPOINTS } from '../../ui/breakpoints';
import { usePrice } from './use-price';

/** A row of the totals above "due" (discounts, a voucher). */
export interface PosTotalRow {
  label: string;
  value: string;
  testId?: string;
}

/** True below the spec's small width (phones): the basket then rides in a bar at the bottom. */
export function usePhoneLayout(): boolean {
  return useMediaQuery(`(max-width: calc(${MANTINE_BREAKPOINTS.sm} - 1px))`, false) ?? false;
}

/**
 * The payments, the totals and the sell button, the same in the browser and at the desk. PosLayout
 * places it: pinned under the scrolling basket from 992 px (1024×768, 1280×800), sticky at the
 * bottom from 768 px, at the end of the page on a phone (the basket bar keeps the total in view).
 */
export function PosCheckout({
  currency,
  payments,
  rows = [],
  due,
  tendered,
  remaining,
  change,
  after,
  problems,
  error,
  selling,
  canSell,
  onSell,
}: {
  currency: string;
  /** Above the totals: the tenders (PosTenders). */
  payments?: ReactNode;
  rows?: PosTotalRow[];
  /** Null while the browser's quote prices the basket. */
  due: number | null;
  tendered: number;
  remaining: number;
  change: number;
  /** Below the amounts: the VAT groups, the wallet's balance. */
  after?: ReactNode;
  problems: string[];
  error: string | null;
  selling: boolean;
  canSell: boolean;
  onSell(): void;
}) {
  const { t } = useTranslation('retail');
  const price = usePrice();
  const row = (label: string, value: string, testId?: string, strong = false) => (
    <Group justify="space-between" key={label} wrap="nowrap">
      <Text size="sm" fw={strong ? 700 : 400}>
        {label}
      </Text>
      <Text
        size={strong ? 'lg' : 'sm'}
        fw={strong ? 700 : 500}
        data-testid={testId}
        style={{ whiteSpace: 'nowrap' }}
      >
        {value}
      </Text>
    </Group>
  );
  return (
    <Card withBorder shadow="sm" padding="sm" id="pos-checkout" data-testid="pos-checkout">
      <Stack gap="xs">
        {payments}
        <Stack gap={2} data-testid="pos-summary">
          {rows.map((r) => row(r.label, r.value, r.testId))}
          {row(t('summary.due'), due === null ? '…' : price(due, currency), 'pos-due', true)}
          {row(t('summary.tendered'), price(tendered, currency))}
          {remaining > 0 && row(t('summary.remaining'), price(remaining, currency), 'pos-remaining')}
          {change > 0 && row(t('summary.change'), price(change, currency), 'pos-change', true)}
          {after}
          {problems.map((p) => (
            <Text key={p} size="sm" c="red">
              {p}
            </Text>
          ))}
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
          onClick={onSell}
          data-testid="pos-sell"
        >
          {due === null ? t('sellPlain') : t('sell', { amount: price(due, currency) })}
        </Button>
      </Stack>
    </Card>
  );
}
