import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentCardView } from '../../../shared/contracts/api/sales';
import { deviceTimeZone, formatDate } from '../../../shared/i18n/dates';

/** A card has expired after the last day of its expiry month. */
export function isCardExpired(
  card: Pick<PaymentCardView, 'expMonth' | 'expYear'>,
  now = new Date(),
): boolean {
  return card.expYear * 12 + card.expMonth < now.getFullYear() * 12 + now.getMonth() + 1;
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  maestro: 'Maestro',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
};

/**
 * Saved payment cards as the provider describes them (brand, last four digits, expiry: never the
 * number), each with a "Remove" that asks once more before it calls `onRemove`. Used by the
 * client's wallet and by staff on the client's profile.
 */
export function PaymentCardList({
  cards,
  onRemove,
  canRemove = true,
}: {
  cards: PaymentCardView[];
  onRemove: (card: PaymentCardView) => Promise<unknown>;
  canRemove?: boolean;
}) {
  const { t, i18n } = useTranslation('sales');
  const [confirming, setConfirming] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const remove = async (card: PaymentCardView) => {
    setRemoving(card.id);
    setFailed(null);
    try {
      await onRemove(card);
      setConfirming(null);
    } catch {
      setFailed(card.id);
    } finally {
      setRemoving(null);
    }
  };
  return (
    <Paper withBorder radius="md">
      {cards.map((card, i) => {
        const brand = BRANDS[card.brand.toLowerCase()] ?? card.brand;
        const expiry = `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear).slice(-2)}`;
        const label = t('cards.card', { brand, last4: card.last4 });
        return (
          <Stack
            key={card.id}
            gap="xs"
            p="sm"
            style={{ borderTop: i > 0 ? '1px solid var(--mantine-color-gray-3)' : undefined }}
            data-testid="payment-card"
          >
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text fw={600} truncate>
                  {label}
                </Text>
                <Group gap="xs">
                  <Text size="xs" c="dimmed">
                    {t('cards.expires', { date: expiry })} ·{' '}
                    {t('cards.saved', { date: formatDate(card.createdAt, i18n.language, deviceTimeZone()) })}
                  </Text>
                  {isCardExpired(card) ? (
                    <Badge size="xs" color="red" variant="light">
                      {t('cards.expired')}
                    </Badge>
                  ) : null}
                </Group>
              </Stack>
              {canRemove && confirming !== card.id ? (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() => setConfirming(card.id)}
                  aria-label={`${t('cards.remove')}: ${label}`}
                  data-testid="payment-card-remove"
                >
                  {t('cards.remove')}
                </Button>
              ) : null}
            </Group>
            {confirming === card.id ? (
              <Group justify="space-between" gap="xs" data-testid="payment-card-confirm">
                <Text size="sm">{t('cards.confirm')}</Text>
                <Group gap="xs">
                  <Button size="xs" variant="default" onClick={() => setConfirming(null)}>
                    {t('cards.keep')}
                  </Button>
                  <Button
                    size="xs"
                    color="red"
                    loading={removing === card.id}
                    onClick={() => void remove(card)}
                    data-testid="payment-card-remove-confirm"
                  >
                    {t('cards.removeConfirm')}
                  </Button>
                </Group>
              </Group>
            ) : null}
            {failed === card.id ? (
              <Text size="sm" c="red">
                {t('cards.removeFailed')}
              </Text>
            ) : null}
          </Stack>
        );
      })}
    </Paper>
  );
}
