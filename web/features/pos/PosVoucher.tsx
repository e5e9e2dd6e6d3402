import { Button, CloseButton, Group, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePrice } from './use-price';

/** The voucher code: typed and applied (Enter or the button), then shown with its discount and a remove. */
export function PosVoucher({
  code,
  discount,
  currency,
  disabled = false,
  error,
  onApply,
}: {
  /** The applied code, or null. */
  code: string | null;
  discount: number;
  currency: string;
  disabled?: boolean;
  error?: string | undefined;
  onApply(code: string | null): void;
}) {
  const { t } = useTranslation('retail');
  const price = usePrice();
  const [text, setText] = useState('');
  const apply = () => onApply(text.trim() ? text.trim().toUpperCase() : null);
  if (code && !error)
    return (
      <Group justify="space-between" wrap="nowrap" data-testid="pos-voucher-applied">
        <Text size="sm">{t('station.voucherApplied', { code, amount: price(discount, currency) })}</Text>
        <CloseButton
          aria-label={t('station.voucherRemove')}
          onClick={() => {
            onApply(null);
            setText('');
          }}
        />
      </Group>
    );
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput
        label={t('voucher.label')}
        value={text}
        disabled={disabled}
        error={error}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' || (!text.trim() && !code)) return;
          e.preventDefault();
          apply();
        }}
        data-testid="pos-voucher"
        style={{ flex: 1 }}
      />
      <Button
        variant="light"
        disabled={disabled || (!text.trim() && !code)}
        onClick={apply}
        data-testid="pos-voucher-apply"
      >
        {t('voucher.apply')}
      </Button>
    </Group>
  );
}
