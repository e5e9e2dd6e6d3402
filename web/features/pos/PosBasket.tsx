import { ActionIcon, Card, CloseButton, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePrice } from './use-price';

/** One line of the basket as both points of sale show it. */
export interface PosBasketLineView {
  key: string;
  name: string;
  /** Products are counted with − / +; passes and contracts are one each. */
  counted: boolean;
  quantity: number;
  /** The line's total, null while it is being priced. */
  total: number | null;
  /** Under the name: unit price and VAT, what the browser's quote says. */
  detail?: ReactNode;
  /** Below the line: the browser's payment status per line and the quote's problems. */
  extra?: ReactNode;
}

/** The basket: each line with its quantity stepper, total and remove; then what `children` adds. */
export function PosBasket({
  lines,
  currency,
  onQuantity,
  onRemove,
  children,
}: {
  lines: readonly PosBasketLineView[];
  currency: string;
  onQuantity(key: string, quantity: number): void;
  onRemove(key: string): void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('retail');
  const price = usePrice();
  return (
    <Card withBorder padding="md" id="pos-basket-card" data-testid="pos-basket-card">
      <Title order={2} size="h4" mb="xs">
        {t('basket.title')}
      </Title>
      {lines.length === 0 ? (
        <Text c="dimmed" data-testid="pos-basket-empty">
          {t('station.basketEmpty')}
        </Text>
      ) : (
        <Stack gap={6} data-testid="pos-basket">
          {lines.map((line) => (
            // One row per line (name and price detail, then quantity, total, remove): three lines fit
            // the sale column at 1024×768; a long name wraps to two lines rather than being cut to "W…".
            <Stack key={line.key} gap={2} data-testid="pos-basket-line">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm" fw={500} lineClamp={2}>
                    {line.name}
                  </Text>
                  {line.detail}
                </Stack>
                <Group gap={4} wrap="nowrap">
                  {line.counted && (
                    <>
                      <ActionIcon
                        variant="light"
                        size="lg"
                        aria-label={t('station.less')}
                        disabled={line.quantity <= 1}
                        onClick={() => onQuantity(line.key, line.quantity - 1)}
                      >
                        −
                      </ActionIcon>
                      <Text w={28} ta="center" data-testid="pos-line-quantity">
                        {line.quantity}
                      </Text>
                      <ActionIcon
                        variant="light"
                        size="lg"
                        aria-label={t('station.more')}
                        onClick={() => onQuantity(line.key, line.quantity + 1)}
                      >
                        +
                      </ActionIcon>
                    </>
                  )}
                  <Text fw={600} ta="right" miw={56} style={{ whiteSpace: 'nowrap' }}>
                    {line.total === null ? '…' : price(line.total, currency)}
                  </Text>
                  <CloseButton
                    aria-label={t('basket.remove', { name: line.name })}
                    onClick={() => onRemove(line.key)}
                  />
                </Group>
              </Group>
              {line.extra}
            </Stack>
          ))}
        </Stack>
      )}
      {lines.length > 0 && children}
    </Card>
  );
}
