import { Alert, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { paymentSplit, type PosPaid } from './catalog';
import { usePrice } from './use-price';

/**
 * After a sale, the same in the browser and at the desk: the change to give (large), the total and
 * how it was paid — each tender with its amount, what was handed over and the change; then what the
 * point of sale adds (the orders, the fiscal receipt's outcome) and its buttons.
 */
export function PosSaleResult({
  total,
  change,
  payments,
  currency,
  methodLabel,
  children,
  actions,
}: {
  total: number;
  change: number;
  payments: readonly PosPaid[];
  currency: string;
  methodLabel(method: number): string;
  children?: ReactNode;
  actions: ReactNode;
}) {
  const { t } = useTranslation('retail');
  const price = usePrice();
  const split = paymentSplit(payments);
  const tendered = split.reduce((s, p) => s + p.amount, 0);
  return (
    <Card withBorder padding="lg" maw={640} data-testid="pos-done">
      <Stack gap="md">
        <Title order={2} size="h3" c="teal.8">
          {t('done.title')}
        </Title>
        <Alert
          color={change > 0 ? 'yellow' : 'gray'}
          title={t('done.change')}
          data-testid="pos-done-change-box"
        >
          <Text size="xl" fw={700} data-testid="pos-done-change">
            {price(change, currency)}
          </Text>
        </Alert>
        <Stack gap={4}>
          <Text fw={600} data-testid="pos-done-total">
            {t('done.total')}: <b>{price(total, currency)}</b>
          </Text>
          <Text size="sm" c="dimmed">
            {t('done.paidWith')}
          </Text>
          <Table withRowBorders={false} verticalSpacing={2} data-testid="pos-done-split">
            <Table.Tbody>
              {split.map((p) => (
                <Table.Tr key={p.method} data-testid="pos-done-payment">
                  <Table.Td>{methodLabel(p.method)}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {price(p.amount, currency)}
                  </Table.Td>
                </Table.Tr>
              ))}
              {split.length > 1 && (
                <Table.Tr>
                  <Table.Td c="dimmed">{t('done.tendered')}</Table.Td>
                  <Table.Td ta="right" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {price(tendered, currency)}
                  </Table.Td>
                </Table.Tr>
              )}
              {change > 0 && (
                <Table.Tr>
                  <Table.Td c="dimmed">{t('summary.change')}</Table.Td>
                  <Table.Td ta="right" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    −{price(change, currency)}
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Stack>
        {children}
        <Group align="flex-start">{actions}</Group>
      </Stack>
    </Card>
  );
}
