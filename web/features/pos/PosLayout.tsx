import { Box, Button, Grid, Group, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MANTINE_BREAKPOINTS } from '../../ui/breakpoints';
import { usePhoneLayout } from './PosCheckout';
import { usePrice } from './use-price';

/** True from the medium width (992 px): tiles and the sale side by side. */
function useTwoColumns(): boolean {
  return useMediaQuery(`(min-width: ${MANTINE_BREAKPOINTS.md})`, true) ?? true;
}

/**
 * Where the sale column starts on the page (px from the document's top), followed while what sits
 * above it (a shift bar, an alert) changes: the column is as tall as what is left of the window.
 */
function useDocumentTop(enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState<number | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!enabled || !el) return;
    const measure = () => {
      // The column itself is sticky: measure its (static) parent.
      const anchor = el.parentElement ?? el;
      const next = Math.round(anchor.getBoundingClientRect().top + window.scrollY);
      setTop((prev) => (prev === next ? prev : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [enabled]);
  return { ref, top };
}

/**
 * The sale screen of both points of sale. From 992 px: the client and the tiles on the left (7/12;
 * 6/12 below 1199 px), and on the right a column as tall as the window (under the header, above the
 * desk's status bar) with the basket and the extras scrolling on their own and the checkout
 * (payments, totals, sell) pinned under them — nothing covers anything, and at 1024×768 the basket,
 * the first payment and the sell button are in view without scrolling. From 768 px one column with
 * the checkout sticky at the bottom; on a phone one column with the basket bar always at the bottom.
 */
export function PosLayout({
  client,
  catalog,
  basket,
  checkout,
  count,
  due,
  currency,
}: {
  /** Who buys (ClientPicker): above the tiles from 992 px, so the sale column keeps its height for the basket; first in the sale column below. */
  client?: ReactNode;
  catalog: ReactNode;
  basket: ReactNode;
  /** The payments, totals and sell button (PosCheckout); shown once the basket has lines. */
  checkout?: ReactNode;
  /** Items in the basket (products counted by quantity). */
  count: number;
  /** What the basket costs now; null while it is being priced. */
  due: number | null;
  currency: string;
}) {
  const phone = usePhoneLayout();
  const twoColumns = useTwoColumns() && !phone;
  const { ref, top } = useDocumentTop(twoColumns);
  return (
    <Box pb={phone ? 88 : 0}>
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, md: 6, lg: 7 }}>
          {twoColumns && client ? (
            <Stack gap="sm">
              {client}
              {catalog}
            </Stack>
          ) : (
            catalog
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6, lg: 5 }}>
          {twoColumns ? (
            <Box
              ref={ref}
              data-testid="pos-sale-column"
              style={{
                position: 'sticky',
                top: 'calc(var(--app-shell-header-offset, 0px) + var(--mantine-spacing-xs))',
                display: 'flex',
                flexDirection: 'column',
                gap: 'var(--mantine-spacing-sm)',
                height: `max(26rem, calc(100dvh - ${top ?? 0}px - var(--app-shell-footer-offset, 0px) - var(--mantine-spacing-md)))`,
              }}
            >
              <Box
                style={{ flex: '1 1 auto', minHeight: 0, overflowY: 'auto' }}
                data-testid="pos-sale-scroll"
              >
                <Stack gap="sm">{basket}</Stack>
              </Box>
              {checkout && <Box style={{ flex: '0 0 auto' }}>{checkout}</Box>}
            </Box>
          ) : (
            <Stack gap="sm">
              {client}
              {basket}
              {checkout && (
                <Box
                  style={
                    phone
                      ? undefined
                      : {
                          position: 'sticky',
                          bottom: 'calc(var(--app-shell-footer-offset, 0px) + var(--mantine-spacing-xs))',
                          zIndex: 2,
                        }
                  }
                >
                  {checkout}
                </Box>
              )}
            </Stack>
          )}
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
