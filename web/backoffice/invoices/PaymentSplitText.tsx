import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { money } from './invoices.api';

/**
 * A payment made several ways, as one line: "Payment methods: Cash 50.00 zł + Payment card 30.00 zł"
 * (issue 26). Used by the invoice's screen, the issue screen and the order's page.
 */
export function PaymentSplitText({
  split,
  currency,
  testId = 'payment-split',
}: {
  split: { method: number; amount: number }[];
  currency: string;
  testId?: string;
}) {
  const { t, i18n } = useTranslation(['invoices', 'enums']);
  return (
    <Text size="sm" data-testid={testId}>
      {t('invoices:detail.paymentMethods')}:{' '}
      {split.map((p, i) => (
        <span key={p.method} data-testid={`${testId}-part`} data-method={p.method}>
          {i > 0 ? ' + ' : ''}
          <b>{t(`enums:paymentMethod.${p.method}`)}</b>{' '}
          <span style={{ whiteSpace: 'nowrap' }}>{money(p.amount, currency, i18n.language)}</span>
        </span>
      ))}
    </Text>
  );
}
