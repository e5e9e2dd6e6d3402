import { Button, CloseButton, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { v7 as uuidv7 } from 'uuid';
import type { PosPaymentLine } from './catalog';
import { amountText, parseAmount } from './amounts';

export const newPaymentLine = (method: number): PosPaymentLine => ({ key: uuidv7(), method, text: '' });

/** The amounts typed, in minor units (0 for a blank or unreadable one). */
export function tenderedAmounts(payments: readonly PosPaymentLine[]): number[] {
  return payments.map((p) => parseAmount(p.text) ?? 0);
}

/**
 * Tender entry, the same in the browser and at the desk: up to five payments, each a method and an
 * amount, "Fill" puts what is still due into a line, "Split payment" adds a line (card by default).
 */
export function PosTenders({
  payments,
  onChange,
  methods,
  methodLabel,
  methodDisabled,
  due,
  splitMethod,
}: {
  payments: readonly PosPaymentLine[];
  onChange(next: PosPaymentLine[]): void;
  methods: readonly number[];
  methodLabel(method: number): string;
  /** A method that cannot be chosen now (the wallet offline or without a client at the desk). */
  methodDisabled?: (method: number, line: PosPaymentLine) => boolean;
  /** What the sale costs; null while it is being priced ("Fill" waits). */
  due: number | null;
  splitMethod: number;
}) {
  const { t, i18n } = useTranslation('retail');
  const set = (key: string, patch: Partial<PosPaymentLine>) =>
    onChange(payments.map((p) => (p.key === key ? { ...p, ...patch } : p)));
  const fillRest = (key: string) => {
    if (due === null) return;
    const others = payments.filter((p) => p.key !== key).reduce((s, p) => s + (parseAmount(p.text) ?? 0), 0);
    set(key, { text: amountText(Math.max(0, due - others), i18n.language) });
  };
  return (
    <Stack gap="xs" data-testid="pos-tenders">
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
            onChange={(e) => set(p.key, { method: Number(e.currentTarget.value) })}
            data={methods.map((m) => ({
              value: String(m),
              label: methodLabel(m),
              disabled: m !== p.method && (methodDisabled?.(m, p) ?? false),
            }))}
            data-testid={`pos-payment-method-${index}`}
            style={{ flex: '1 1 130px' }}
          />
          <TextInput
            label={index === 0 ? t('payment.amount') : undefined}
            aria-label={t('payment.amount')}
            inputMode="decimal"
            value={p.text}
            onChange={(e) => set(p.key, { text: e.currentTarget.value })}
            error={p.text && parseAmount(p.text) === null ? t('payment.invalid') : undefined}
            data-testid={`pos-payment-amount-${index}`}
            w={96}
          />
          <Button
            variant="subtle"
            px="xs"
            disabled={due === null}
            onClick={() => fillRest(p.key)}
            data-testid={`pos-payment-rest-${index}`}
          >
            {t('payment.rest')}
          </Button>
          {payments.length > 1 && (
            <CloseButton
              aria-label={t('payment.remove')}
              onClick={() => onChange(payments.filter((x) => x.key !== p.key))}
              mb={6}
            />
          )}
        </Group>
      ))}
      {payments.length < 5 && (
        <Button
          variant="light"
          size="xs"
          w="fit-content"
          onClick={() => {
            const added = newPaymentLine(splitMethod);
            onChange([...payments, added]);
            // On a short window the new line may open out of sight: bring it into view and put the
            // cursor in its amount.
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
  );
}
