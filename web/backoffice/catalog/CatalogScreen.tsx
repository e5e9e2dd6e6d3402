import { Badge, Button, Group, SegmentedControl, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { PricingOptionView } from '../../../shared/contracts/api/catalog';
import {
  ListEmpty,
  ListLoadError,
  ListLoading,
  ListToolbar,
  RowCard,
  TabbedSection,
  usePhone,
} from '../list-frame';
import { BulkChangePanel } from './BulkChangePanel';
import { CategoriesPanel } from './CategoriesPanel';
import { formatDay, price, useCan, useCategories, useLocaleName, usePricingOptions } from './catalog.api';
import { entriesLabel, validityLabel } from '../../features/catalog/labels';
import { TaxesPanel } from './TaxesPanel';

export type CatalogTab = 'options' | 'categories' | 'taxes' | 'bulk';
const TAB_PATHS: Record<CatalogTab, string> = {
  options: '/catalog',
  categories: '/catalog/categories',
  taxes: '/catalog/taxes',
  bulk: '/catalog/bulk-change',
};

export { usePhone };

/** The back office's catalog: pricing options by category, categories, taxes, the manager tool. */
export function CatalogScreen({ tab }: { tab: CatalogTab }) {
  const { t } = useTranslation('catalog');
  const navigate = useNavigate();
  const canEdit = useCan('settings.edit');
  return (
    <TabbedSection
      title={t('title')}
      tab={tab}
      tabs={(['options', 'categories', 'taxes', 'bulk'] as const).map((value) => ({
        value,
        label: t(`tabs.${value}`),
        testId: `catalog-tab-${value}`,
        hidden: value === 'bulk' && !canEdit,
      }))}
      onChange={(v) => navigate(TAB_PATHS[v])}
      scrollTabs
    >
      {tab === 'options' ? <OptionsPanel /> : null}
      {tab === 'categories' ? <CategoriesPanel /> : null}
      {tab === 'taxes' ? <TaxesPanel /> : null}
      {tab === 'bulk' && canEdit ? <BulkChangePanel /> : null}
    </TabbedSection>
  );
}

export function LoadError({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation('catalog');
  return (
    <ListLoadError
      title={t('loadError')}
      retry={t('retry')}
      testId="catalog-load-error"
      error={error}
      onRetry={onRetry}
    />
  );
}

export const Loading = ListLoading;

export function Empty({ text }: { text: string }) {
  return <ListEmpty text={text} testId="catalog-empty" />;
}

/** Active / archived / all: the archive filter of the catalog's lists. */
export function ArchivedFilterControl(props: {
  value: ArchivedFilter;
  onChange(value: ArchivedFilter): void;
  phone: boolean;
  testId: string;
  t: (key: string) => string;
}) {
  const { t } = props;
  return (
    <SegmentedControl
      value={props.value}
      onChange={(v) => props.onChange(v as ArchivedFilter)}
      data={[
        { value: 'exclude', label: t('list.active') },
        { value: 'only', label: t('list.archived') },
        { value: 'include', label: t('list.all') },
      ]}
      fullWidth={props.phone}
      w={props.phone ? '100%' : undefined}
      data-testid={props.testId}
    />
  );
}

export type ArchivedFilter = 'exclude' | 'only' | 'include';

function OptionsPanel() {
  const { t } = useTranslation('catalog');
  const phone = usePhone();
  const navigate = useNavigate();
  const canEdit = useCan('settings.edit');
  const name = useLocaleName();
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [archived, setArchived] = useState<ArchivedFilter>('exclude');
  const categories = useCategories();
  const options = usePricingOptions({
    categoryId: categoryId && categoryId !== 'none' ? categoryId : undefined,
    archived,
  });

  if (options.error) return <LoadError error={options.error} onRetry={() => void options.refetch()} />;
  const allCategories = categories.data?.items ?? [];
  const items = (options.data?.items ?? []).filter((o) =>
    categoryId === 'none' ? o.categoryId === null || !allCategories.some((c) => c.id === o.categoryId) : true,
  );
  // Grouped in the studio's category order; options without a (known) category last.
  const groups = [
    ...allCategories.map((c) => ({
      key: c.id,
      name: name(c.name),
      archived: c.archived,
      items: items.filter((o) => o.categoryId === c.id),
    })),
    {
      key: 'none',
      name: t('list.uncategorized'),
      archived: false,
      items: items.filter((o) => o.categoryId === null || !allCategories.some((c) => c.id === o.categoryId)),
    },
  ].filter((g) => g.items.length > 0);
  const open = (o: PricingOptionView) => navigate(`/catalog/pricing-options/${o.id}`);

  return (
    <Stack gap="md">
      <ListToolbar
        phone={phone}
        filters={
          <>
            <Select
              label={t('list.category')}
              placeholder={t('list.allCategories')}
              data={[
                ...allCategories.map((c) => ({
                  value: c.id,
                  label: c.archived ? `${name(c.name)} (${t('list.archivedShort')})` : name(c.name),
                })),
                { value: 'none', label: t('list.uncategorized') },
              ]}
              value={categoryId}
              onChange={setCategoryId}
              clearable
              w={phone ? '100%' : 240}
              data-testid="catalog-category-filter"
            />
            <ArchivedFilterControl
              value={archived}
              onChange={setArchived}
              phone={phone}
              testId="catalog-archived-filter"
              t={t}
            />
          </>
        }
        actions={
          canEdit ? (
            <Button
              onClick={() => navigate('/catalog/pricing-options/new')}
              fullWidth={phone}
              data-testid="catalog-add-option"
            >
              {t('list.add')}
            </Button>
          ) : null
        }
      />

      {options.isPending ? (
        <Loading />
      ) : groups.length === 0 ? (
        <Empty text={archived === 'only' ? t('list.noArchived') : t('list.empty')} />
      ) : (
        groups.map((group) => (
          <Stack key={group.key} gap="xs" data-testid="catalog-group">
            <Group gap="xs">
              <Title order={2} size="h4">
                {group.name}
              </Title>
              {group.archived ? (
                <Badge color="gray" variant="light">
                  {t('list.archivedShort')}
                </Badge>
              ) : null}
            </Group>
            {phone ? (
              <Stack gap="xs">
                {group.items.map((o) => (
                  <OptionCard key={o.id} option={o} onOpen={() => open(o)} />
                ))}
              </Stack>
            ) : (
              <Table.ScrollContainer minWidth={760}>
                <Table striped highlightOnHover verticalSpacing="xs" layout="fixed">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('list.name')}</Table.Th>
                      <Table.Th ta="right" w={150}>
                        {t('list.price')}
                      </Table.Th>
                      <Table.Th w={130}>{t('list.entries')}</Table.Th>
                      <Table.Th w={210}>{t('list.validity')}</Table.Th>
                      <Table.Th w={150}>{t('list.channels')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {group.items.map((o) => (
                      <OptionRow key={o.id} option={o} onOpen={() => open(o)} />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        ))
      )}
    </Stack>
  );
}

function useOptionTexts(o: PricingOptionView) {
  const { t, i18n } = useTranslation('catalog');
  const name = useLocaleName();
  return {
    name: name(o.name) || t('list.unnamed'),
    price: price(o.currentPrice, o.currency, i18n.language),
    listPrice: o.currentPrice !== o.price ? price(o.price, o.currency, i18n.language) : null,
    entries: entriesLabel(t, o.entries),
    validity: validityLabel(t, o, (d) => formatDay(d, i18n.language)),
  };
}

function Channels({ option }: { option: PricingOptionView }) {
  const { t } = useTranslation('catalog');
  return (
    <Group gap={4}>
      {option.sellAtDesk ? (
        <Badge variant="light" size="sm">
          {t('channels.desk')}
        </Badge>
      ) : null}
      {option.sellOnline ? (
        <Badge variant="light" color="teal" size="sm">
          {t('channels.online')}
        </Badge>
      ) : null}
      {option.archived ? (
        <Badge variant="light" color="gray" size="sm">
          {t('list.archivedShort')}
        </Badge>
      ) : null}
    </Group>
  );
}

function OptionRow({ option, onOpen }: { option: PricingOptionView; onOpen(): void }) {
  const texts = useOptionTexts(option);
  const { t } = useTranslation('catalog');
  return (
    <Table.Tr onClick={onOpen} style={{ cursor: 'pointer' }} data-testid="option-row" data-name={texts.name}>
      <Table.Td fw={500}>
        <Text fw={500} size="sm" truncate>
          {texts.name}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Text size="sm" fw={texts.listPrice ? 600 : undefined} c={texts.listPrice ? 'red' : undefined}>
          {texts.price}
        </Text>
        {texts.listPrice ? (
          <Text size="xs" c="dimmed" td="line-through" title={t('list.listPrice')}>
            {texts.listPrice}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>{texts.entries}</Table.Td>
      <Table.Td>{texts.validity}</Table.Td>
      <Table.Td>
        <Channels option={option} />
      </Table.Td>
    </Table.Tr>
  );
}

function OptionCard({ option, onOpen }: { option: PricingOptionView; onOpen(): void }) {
  const texts = useOptionTexts(option);
  return (
    <RowCard
      testId="option-row"
      data={{ 'data-name': texts.name }}
      onOpen={onOpen}
      main={
        <>
          <Text fw={600} lineClamp={2}>
            {texts.name}
          </Text>
          <Text size="xs" c="dimmed">
            {texts.entries} · {texts.validity}
          </Text>
          <Channels option={option} />
        </>
      }
      side={
        <>
          <Text fw={600} style={{ whiteSpace: 'nowrap' }} c={texts.listPrice ? 'red' : undefined}>
            {texts.price}
          </Text>
          {texts.listPrice ? (
            <Text size="xs" c="dimmed" td="line-through" style={{ whiteSpace: 'nowrap' }}>
              {texts.listPrice}
            </Text>
          ) : null}
        </>
      }
    />
  );
}
