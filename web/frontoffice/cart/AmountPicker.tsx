import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { parsePriceInput } from '../../../shared/domain/money';
import { formatMoney } from '../../lib/money';

/**
 * Choose an amount: suggested amounts as buttons, or any amount typed (read as the studio's money,
 * "12,50" or "12.50"). Reports minor units, or null while the typed text is not an amount within
 * the limits; the limits are shown under the field.
 */
export function AmountPicker({
  amounts,
  currency,
  min,
  max,
  value,
  onChange,
  customLabel,
  limitsLabel,
  error,
  testId,
}: {
  amounts: number[];
  currency: string;
  min: number;
  max: number;
  value: number | null;
  onChange: (amount: number | null) => void;
  customLabel: string;
  limitsLabel: string;
  error?: string | null;
  testId: string;
}) {
  const [text, setText] = useState('');
  const typed = text.trim() !== '';
  const parsed = typed ? parsePriceInput(text) : null;
  const outOfRange = typed && (parsed === null || parsed < min || parsed > max);
  return (
    <Stack gap="xs">
      <Group gap="xs">
        {amounts.map((a) => (
          <Button
            key={a}
            variant={!typed && value === a ? 'filled' : 'default'}
            onClick={() => {
              setText('');
              onChange(a);
            }}
            data-testid={`${testId}-${a}`}
          >
            {formatMoney(a, currency)}
          </Button>
        ))}
      </Group>
      <TextInput
        label={customLabel}
        inputMode="decimal"
        value={text}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          const amount = next.trim() === '' ? null : parsePriceInput(next);
          onChange(amount !== null && amount >= min && amount <= max ? amount : null);
        }}
        error={error ?? (outOfRange ? limitsLabel : null)}
        description={outOfRange ? undefined : limitsLabel}
        maw={240}
        name="amount"
        data-testid={`${testId}-custom`}
      />
    </Stack>
  );
}
