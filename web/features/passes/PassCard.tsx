import { Badge, Card, Group, Progress, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientPricingOptionView } from '../../../shared/contracts/api/catalog';
import { formatDay, STATUS_COLORS } from '../catalog/labels';

/** A pass's status, entries and validity in the screen's language (back office and front office). */
export function passTexts(t: TFunction, language: string, p: ClientPricingOptionView) {
  const status =
    p.frozenNow && p.status === 1
      ? t('catalog:passes.frozen')
      : p.status === 0 && p.inactiveReason
        ? t(`catalog:passes.inactiveReason.${p.inactiveReason}`)
        : t(`enums:clientPricingOptionStatus.${p.status}`);
  const validity =
    p.status === 2 && !p.lastValidDate
      ? t('catalog:passes.startsOnFirstVisit')
      : p.lastValidDate
        ? t('catalog:passes.validThrough', { date: formatDay(p.lastValidDate, language) })
        : t('catalog:passes.noEnd');
  const entries =
    p.entriesTotal === null
      ? t('catalog:passes.entriesUnlimited', { used: p.entriesUsed })
      : t('catalog:passes.entriesOf', {
          used: p.entriesUsed,
          total: p.entriesTotal,
          left: p.entriesLeft ?? 0,
        });
  return { status, validity, entries };
}

export function PassCard({
  pass,
  name,
  onOpen,
  extra,
}: {
  pass: ClientPricingOptionView;
  /** The pass's name, resolved in the screen's language. */
  name: string;
  onOpen?: () => void;
  extra?: ReactNode;
}) {
  const { t, i18n } = useTranslation('catalog');
  const texts = passTexts(t, i18n.language, pass);
  const color = pass.frozenNow && pass.status === 1 ? 'cyan' : STATUS_COLORS[pass.status];
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      onClick={onOpen}
      style={{ cursor: onOpen ? 'pointer' : undefined, opacity: pass.status === 0 ? 0.75 : 1 }}
      data-testid="pass-card"
      data-status={pass.status}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} lineClamp={2} miw={0}>
            {name || t('list.unnamed')}
          </Text>
          <Badge color={color} variant="light" style={{ flexShrink: 0 }} data-testid="pass-status">
            {texts.status}
          </Badge>
        </Group>
        {pass.entriesTotal !== null ? (
          <Progress
            value={pass.entriesTotal > 0 ? (100 * pass.entriesUsed) / pass.entriesTotal : 0}
            size="sm"
            aria-hidden
          />
        ) : null}
        <Text size="sm" data-testid="pass-entries">
          {texts.entries}
        </Text>
        <Text size="sm" c="dimmed" data-testid="pass-validity">
          {texts.validity}
        </Text>
        {extra}
      </Stack>
    </Card>
  );
}
