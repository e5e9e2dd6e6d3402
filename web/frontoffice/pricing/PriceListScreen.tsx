import { Alert, Badge, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type PublicPricingOption } from '../../../shared/contracts/api/catalog-screens';
import { resolveLocaleText, type LocaleText } from '../../../shared/domain/locale-text';
import { useApiClient } from '../../lib/app-context';
import { errorCodeLabel } from '../../lib/form-errors';
import { entriesLabel, formatDay, price, validityLabel } from '../../features/catalog/labels';
import { AddToCartButton } from '../cart/AddToCartButton';
import { useStudioUuid } from '../studio';
import { CatalogScreensApi } from '../../../shared/contracts/http/catalog-screens';

/**
 * The studio's price list of passes (front office `POST pricing/pricing-options`): anyone may look.
 * Options sold online, grouped by category, with a running promotion's price. No Buy button yet:
 * the front-office cart screen does not exist (sales module); a link to it would be a dead end.
 */
export function PriceListScreen() {
  const { t } = useTranslation('catalog');
  const api = useApiClient();
  const studio = useStudioUuid();
  const list = useQuery({
    queryKey: ['price-list', studio],
    queryFn: ({ signal }) =>
      api.call(CatalogScreensApi.postPricingPricingOptions, { params: { uuid: studio }, body: {}, signal }),
  });
  const groups: Array<{ key: string; name: LocaleText | null | undefined; items: PublicPricingOption[] }> =
    list.data
      ? [
          ...list.data.categories.map((g) => ({ key: g.category.id, name: g.category.name, items: g.items })),
          ...(list.data.uncategorized.length > 0
            ? [
                {
                  key: 'other',
                  // "Other passes" only below named categories; alone, the list needs no heading.
                  name: list.data.categories.length > 0 ? null : undefined,
                  items: list.data.uncategorized,
                },
              ]
            : []),
        ]
      : [];
  return (
    <Stack gap="md" data-testid="price-list">
      <Title order={2}>{t('front.priceList')}</Title>
      {list.error ? (
        <Alert color="red" variant="light" title={t('loadError')}>
          <Group justify="space-between">
            <Text size="sm">{errorCodeLabel(list.error)}</Text>
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              {t('retry')}
            </Button>
          </Group>
        </Alert>
      ) : list.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : groups.length === 0 ? (
        <Text c="dimmed">{t('front.nothingForSale')}</Text>
      ) : (
        groups.map((group) => (
          <Stack key={group.key} gap="xs" data-testid="price-list-group">
            {group.name !== undefined ? (
              <Title order={3} size="h4">
                <GroupName name={group.name} />
              </Title>
            ) : null}
            <Stack gap="sm">
              {group.items.map((o) => (
                <OptionCard key={o.id} option={o} />
              ))}
            </Stack>
          </Stack>
        ))
      )}
    </Stack>
  );
}

function GroupName({ name }: { name: LocaleText | null }) {
  const { t, i18n } = useTranslation('catalog');
  return <>{name ? resolveLocaleText(name, i18n.language, null) : t('front.otherPasses')}</>;
}

function OptionCard({ option }: { option: PublicPricingOption }) {
  const { t, i18n } = useTranslation('catalog');
  const name = resolveLocaleText(option.name as LocaleText, i18n.language, null);
  const description = resolveLocaleText(option.description as LocaleText, i18n.language, null);
  const promoted = option.currentPrice !== option.price;
  return (
    <Card withBorder radius="md" padding="md" data-testid="price-list-option" data-name={name}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ flex: 1, minWidth: 200 }}>
          <Text fw={600} size="lg" style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
          <Group gap={6}>
            <Badge variant="light">{entriesLabel(t, option.entries)}</Badge>
            <Badge variant="light" color="gray">
              {validityLabel(t, option, (d) => formatDay(d, i18n.language))}
            </Badge>
          </Group>
          {option.serviceTypes.length > 0 ? (
            <Text size="xs" c="dimmed">
              {option.serviceTypes.map((s) => t(`enums:pricingOptionServiceType.${s}`)).join(' · ')}
            </Text>
          ) : null}
          {description ? (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
              {description}
            </Text>
          ) : null}
          {option.limitPerClient !== null ? (
            <Text size="xs" c="dimmed">
              {t('front.limit', { count: option.limitPerClient })}
            </Text>
          ) : null}
        </Stack>
        <Stack gap={4} align="flex-end">
          {promoted ? (
            <Text size="sm" c="dimmed" td="line-through" data-testid="price-list-regular">
              {price(option.price, option.currency, i18n.language)}
            </Text>
          ) : null}
          <Text fw={700} size="xl" c={promoted ? 'red' : undefined} data-testid="price-list-price">
            {price(option.currentPrice, option.currency, i18n.language)}
          </Text>
          {promoted && option.promotionEndsOn ? (
            <Badge color="red" variant="light" data-testid="price-list-promotion">
              {t('front.promotionUntil', { date: formatDay(option.promotionEndsOn, i18n.language) })}
            </Badge>
          ) : null}
          <AddToCartButton item={{ type: 'pricingOption', id: option.id }} />
        </Stack>
      </Group>
    </Card>
  );
}
