import { Badge, Button, Group, SegmentedControl, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ProductView, VoucherView } from '../../../shared/contracts/api/products';
import {
  ListEmpty,
  ListLoadError,
  ListLoading,
  ListSearch,
  ListToolbar,
  LoadMoreButton,
  RowCard,
  TabbedSection,
  usePhone,
} from '../list-frame';
import { CategoriesDialog } from './CategoriesDialog';
import { ProductDialog } from './ProductDialog';
import { percent, price, useCanEdit, useProductInit, useProducts, useVouchers } from './products.api';
import { VoucherDialog } from './VoucherDialog';

/** Spec §9: table search waits 600 ms after the last key. */
const SEARCH_DELAY_MS = 600;

export { usePhone };

export function ProductsScreen({ tab }: { tab: 'products' | 'vouchers' }) {
  const { t } = useTranslation('products');
  const navigate = useNavigate();
  return (
    <TabbedSection
      title={t('title')}
      tab={tab}
      tabs={[
        { value: 'products', label: t('tabs.products'), testId: 'products-tab-products' },
        { value: 'vouchers', label: t('tabs.vouchers'), testId: 'products-tab-vouchers' },
      ]}
      onChange={(v) => navigate(v === 'vouchers' ? '/products/vouchers' : '/products')}
    >
      {tab === 'products' ? <ProductsPanel /> : <VouchersPanel />}
    </TabbedSection>
  );
}

function LoadError({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation('products');
  return (
    <ListLoadError
      title={t('loadError')}
      retry={t('retry')}
      testId="products-load-error"
      error={error}
      onRetry={onRetry}
    />
  );
}

function Empty({ text }: { text: string }) {
  return <ListEmpty text={text} testId="products-empty" />;
}

// ------------------------------------------------------------------------------------- products

function ProductsPanel() {
  const { t, i18n } = useTranslation('products');
  const phone = usePhone();
  const canEdit = useCanEdit();
  const init = useProductInit();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [status, setStatus] = useState<'active' | 'archived'>('active');
  const products = useProducts({ q: debounced, categoryId: categoryId ?? undefined, status });
  const [editing, setEditing] = useState<ProductView | 'new' | null>(null);
  const [managingCategories, setManagingCategories] = useState(false);

  if (products.error) return <LoadError error={products.error} onRetry={() => void products.refetch()} />;
  const items = products.data?.pages.flatMap((p) => p.items) ?? [];
  // Grouped by category in the studio's category order; products without one last.
  const order = new Map((init.data?.categories ?? []).map((c, i) => [c.id, i]));
  const groups = new Map<string, { name: string; items: ProductView[] }>();
  for (const item of items) {
    const key = item.category?.id ?? '';
    const group = groups.get(key) ?? { name: item.category?.name ?? t('list.uncategorized'), items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  const sorted = [...groups.entries()].sort(
    ([a], [b]) => (a === '' ? 1e9 : (order.get(a) ?? 1e8)) - (b === '' ? 1e9 : (order.get(b) ?? 1e8)),
  );

  return (
    <Stack gap="md">
      <ListToolbar
        phone={phone}
        filters={
          <>
            <ListSearch
              phone={phone}
              label={t('list.search')}
              placeholder={t('list.searchPlaceholder')}
              value={search}
              onChange={setSearch}
              testId="products-search"
            />
            <Select
              label={t('list.category')}
              placeholder={t('list.allCategories')}
              data={[
                ...(init.data?.categories ?? []).map((c) => ({ value: c.id, label: c.name })),
                { value: 'none', label: t('list.uncategorized') },
              ]}
              value={categoryId}
              onChange={setCategoryId}
              clearable
              w={phone ? '100%' : 200}
              data-testid="products-category-filter"
            />
            <SegmentedControl
              value={status}
              onChange={(v) => setStatus(v as 'active' | 'archived')}
              data={[
                { value: 'active', label: t('list.active') },
                { value: 'archived', label: t('list.archived') },
              ]}
              fullWidth={phone}
              w={phone ? '100%' : undefined}
            />
          </>
        }
        actions={
          canEdit ? (
            <Group gap="sm" w={phone ? '100%' : undefined} grow={phone}>
              <Button
                variant="default"
                onClick={() => setManagingCategories(true)}
                data-testid="products-categories"
              >
                {t('categories.open')}
              </Button>
              <Button onClick={() => setEditing('new')} data-testid="products-add">
                {t('list.add')}
              </Button>
            </Group>
          ) : null
        }
      />

      {products.isPending ? (
        <ListLoading />
      ) : items.length === 0 ? (
        <Empty text={debounced || categoryId ? t('list.noMatches') : t('list.empty')} />
      ) : (
        sorted.map(([key, group]) => (
          <Stack key={key || 'none'} gap="xs" data-testid="products-group">
            <Title order={2} size="h4">
              {group.name}
            </Title>
            {phone ? (
              <Stack gap="xs">
                {group.items.map((p) => (
                  <ProductCard key={p.id} product={p} onOpen={canEdit ? () => setEditing(p) : undefined} />
                ))}
              </Stack>
            ) : (
              <Table.ScrollContainer minWidth={700}>
                {/* Fixed columns: every category's table lines up with the others. */}
                <Table striped highlightOnHover verticalSpacing="xs" layout="fixed">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('list.name')}</Table.Th>
                      <Table.Th ta="right" w={110}>
                        {t('list.price')}
                      </Table.Th>
                      <Table.Th w={90}>{t('list.tax')}</Table.Th>
                      <Table.Th ta="right" w={130}>
                        {t('list.stock')}
                      </Table.Th>
                      <Table.Th w={170}>{t('list.barcode')}</Table.Th>
                      <Table.Th w={130}>{t('list.sku')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {group.items.map((p) => (
                      <Table.Tr
                        key={p.id}
                        onClick={canEdit ? () => setEditing(p) : undefined}
                        style={{ cursor: canEdit ? 'pointer' : undefined }}
                        data-testid="product-row"
                        data-name={p.name}
                      >
                        <Table.Td fw={500}>{p.name}</Table.Td>
                        <Table.Td ta="right">{price(p.price, p.currency, i18n.language)}</Table.Td>
                        <Table.Td>{taxLabel(p, t, i18n.language)}</Table.Td>
                        <Table.Td ta="right">
                          <StockBadge product={p} />
                        </Table.Td>
                        <Table.Td ff="monospace">{p.barcode ?? '—'}</Table.Td>
                        <Table.Td>{p.sku ?? '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        ))
      )}

      <LoadMoreButton
        hasMore={products.hasNextPage}
        loading={products.isFetchingNextPage}
        onLoad={() => void products.fetchNextPage()}
        label={t('list.loadMore')}
      />

      <ProductDialog product={editing} onClose={() => setEditing(null)} />
      <CategoriesDialog opened={managingCategories} onClose={() => setManagingCategories(false)} />
    </Stack>
  );
}

function taxLabel(p: ProductView, t: (k: string) => string, language: string): string {
  return p.tax.rateBp === null ? t('list.exempt') : percent(p.tax.rateBp, language);
}

function StockBadge({ product }: { product: ProductView }) {
  const { t } = useTranslation('products');
  if (product.stock === null)
    return (
      <Text size="sm" c="dimmed">
        {t('list.notTracked')}
      </Text>
    );
  return (
    <Badge
      color={product.stock <= 0 ? 'red' : product.stock < 5 ? 'yellow' : 'green'}
      variant="light"
      data-testid="product-stock"
    >
      {product.stock}
    </Badge>
  );
}

function ProductCard({ product, onOpen }: { product: ProductView; onOpen?: () => void }) {
  const { t, i18n } = useTranslation('products');
  return (
    <RowCard
      testId="product-row"
      data={{ 'data-name': product.name }}
      onOpen={onOpen}
      mainGap={2}
      sideGap={4}
      main={
        <>
          <Text fw={600} lineClamp={2}>
            {product.name}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace">
            {product.barcode ?? t('list.noBarcode')}
            {product.sku ? ` · ${product.sku}` : ''}
          </Text>
        </>
      }
      side={
        <>
          <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
            {price(product.price, product.currency, i18n.language)}
          </Text>
          <StockBadge product={product} />
        </>
      }
    />
  );
}

// ------------------------------------------------------------------------------------- vouchers

const STATUS_COLORS: Record<VoucherView['status'], string> = {
  active: 'green',
  scheduled: 'blue',
  expired: 'gray',
  usedUp: 'orange',
  archived: 'gray',
};

function VouchersPanel() {
  const { t } = useTranslation('products');
  const phone = usePhone();
  const canEdit = useCanEdit();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const [status, setStatus] = useState<string>('current');
  const vouchers = useVouchers({ q: debounced, status });
  const [adding, setAdding] = useState(false);
  const [opened, setOpened] = useState<VoucherView | null>(null);

  if (vouchers.error) return <LoadError error={vouchers.error} onRetry={() => void vouchers.refetch()} />;
  const items = vouchers.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <Stack gap="md">
      <ListToolbar
        phone={phone}
        filters={
          <>
            <ListSearch
              phone={phone}
              label={t('vouchers.search')}
              value={search}
              onChange={setSearch}
              testId="vouchers-search"
            />
            <Select
              label={t('vouchers.statusFilter')}
              data={['current', 'active', 'scheduled', 'expired', 'usedUp', 'archived', 'all'].map(
                (value) => ({
                  value,
                  label: t(`vouchers.status.${value}`),
                }),
              )}
              value={status}
              onChange={(v) => setStatus(v ?? 'current')}
              allowDeselect={false}
              w={phone ? '100%' : 200}
              data-testid="vouchers-status-filter"
            />
          </>
        }
        actions={
          canEdit ? (
            <Button onClick={() => setAdding(true)} fullWidth={phone} data-testid="vouchers-add">
              {t('vouchers.add')}
            </Button>
          ) : null
        }
      />
      {vouchers.isPending ? (
        <ListLoading />
      ) : items.length === 0 ? (
        <Empty text={t('vouchers.empty')} />
      ) : phone ? (
        <Stack gap="xs">
          {items.map((v) => (
            <VoucherCard key={v.id} voucher={v} onOpen={() => setOpened(v)} />
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('vouchers.code')}</Table.Th>
                <Table.Th>{t('vouchers.discount')}</Table.Th>
                <Table.Th>{t('vouchers.type')}</Table.Th>
                <Table.Th>{t('vouchers.validity')}</Table.Th>
                <Table.Th ta="right">{t('vouchers.uses')}</Table.Th>
                <Table.Th>{t('vouchers.statusLabel')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((v) => (
                <VoucherRow key={v.id} voucher={v} onOpen={() => setOpened(v)} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <LoadMoreButton
        hasMore={vouchers.hasNextPage}
        loading={vouchers.isFetchingNextPage}
        onLoad={() => void vouchers.fetchNextPage()}
        label={t('list.loadMore')}
      />
      <VoucherDialog opened={adding} onClose={() => setAdding(false)} />
      <VoucherDialog opened={opened !== null} onClose={() => setOpened(null)} voucher={opened} />
    </Stack>
  );
}

function useVoucherTexts(v: VoucherView) {
  const { t, i18n } = useTranslation('products');
  const discount =
    v.discountType === 'amount' ? price(v.value, v.currency, i18n.language) : percent(v.value, i18n.language);
  const validity =
    v.validFrom || v.validTo ? `${v.validFrom ?? '…'} – ${v.validTo ?? '…'}` : t('vouchers.noEnd');
  const uses = v.usesLeft === null ? `${v.usesTotal} / ∞` : `${v.usesTotal} / ${v.usesTotal + v.usesLeft}`;
  return {
    discount,
    validity,
    uses,
    type: t(`enums:voucherType.${v.type}`),
    status: t(`vouchers.status.${v.status}`),
  };
}

function VoucherRow({ voucher, onOpen }: { voucher: VoucherView; onOpen(): void }) {
  const texts = useVoucherTexts(voucher);
  return (
    <Table.Tr
      data-testid="voucher-row"
      data-code={voucher.code}
      onClick={onOpen}
      style={{ cursor: 'pointer' }}
    >
      <Table.Td ff="monospace" fw={600}>
        {voucher.code}
        {voucher.description ? (
          <Text
            size="xs"
            c="dimmed"
            fw={400}
            lineClamp={1}
            style={{ fontFamily: 'var(--mantine-font-family)' }}
          >
            {voucher.description}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>{texts.discount}</Table.Td>
      <Table.Td>{texts.type}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{texts.validity}</Table.Td>
      <Table.Td ta="right">{texts.uses}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={STATUS_COLORS[voucher.status]}>
          {texts.status}
        </Badge>
      </Table.Td>
    </Table.Tr>
  );
}

function VoucherCard({ voucher, onOpen }: { voucher: VoucherView; onOpen(): void }) {
  const texts = useVoucherTexts(voucher);
  return (
    <RowCard
      testId="voucher-row"
      data={{ 'data-code': voucher.code }}
      onOpen={onOpen}
      mainGap={2}
      sideGap={4}
      main={
        <>
          <Text fw={700} ff="monospace">
            {voucher.code}
          </Text>
          <Text size="xs" c="dimmed">
            {texts.type} · {texts.validity} · {texts.uses}
          </Text>
        </>
      }
      side={
        <>
          <Text fw={600}>{texts.discount}</Text>
          <Badge variant="light" color={STATUS_COLORS[voucher.status]}>
            {texts.status}
          </Badge>
        </>
      }
    />
  );
}
