import { Box, Button, Grid, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePhoneLayout } from './PosCheckout';
import { usePrice } from './use-price';

/**
 * The sale screen of both points of sale: the tiles on the left (7/12), the client, basket, tenders
 * and totals on the right (5/12); one column on a phone, with the basket bar always at the bottom.
 */
export function PosLayout({
  catalog,
  basket,
  count,
  due,
  currency,
}: {
  catalog: ReactNode;
  basket: ReactNode;
  /** Items in the basket (products counted by quantity). */
  count: number;
  /** What the basket costs now; null while it is being priced. */
  due: number | null;
  currency: string;
}) {
  const phone = usePhoneLayout();
  return (
    <Box pb={phone ? 88 : 0}>
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, md: 7 }}>{catalog}</Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="sm">{basket}</Stack>
        </Grid.Col>
      </Grid>
      {phone && <PosBasketBar count={count} due={due} currency={currency} />}
    </Box>
  );
}

/**
 * On a phone the basket is always in view: a bar fixed at the bottom (above the desk's status bar)
 * with the number of items and the total; "Basket" brings the basket and the payment into view.
 */
export function PosBasketBar({
  count,
  due,
  currency,
}: {
  count: number;
  due: number | null;
  currency: string;
}) {
  const { t } = useTranslation('retail');
  const price = usePrice();
  return (
    <Paper
      shadow="md"
      withBorder
      radius={0}
      px="md"
      py="sm"
      role="region"
      aria-label={t('basket.title')}
      data-testid="pos-basket-bar"
      style={{
        position: 'fixed',
        left: 0,
        right: 0,
        bottom: 'var(--app-shell-footer-offset, 0px)',
        // Below the shell's header and navbar (100): an opened menu covers the bar.
        zIndex: 90,
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" c="dimmed" data-testid="pos-basket-bar-count">
            {count === 0 ? t('bar.empty') : t('bar.items', { count })}
          </Text>
          <Text fw={700} size="lg" data-testid="pos-basket-bar-total" style={{ whiteSpace: 'nowrap' }}>
            {price(due ?? 0, currency)}
          </Text>
        </Stack>
        <Button
          disabled={count === 0}
          onClick={() =>
            document
              .getElementById(count > 0 ? 'pos-checkout' : 'pos-basket-card')
              ?.scrollIntoView({ block: 'end', behavior: 'smooth' })
          }
          data-testid="pos-basket-bar-open"
        >
          {t('bar.pay')}
        </Button>
      </Group>
    </Paper>
  );
}
