import {
  Card,
  Group,
  ScrollArea,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBarcodeScanner } from './barcode';
import { ALL_GROUP, filterTiles, findByBarcode, posGroups, type PosTileItem } from './catalog';
import { usePrice } from './use-price';

/**
 * The tiles of the POS, the same in the browser and at the desk: a search (name or barcode; Enter
 * adds an exact barcode or the only match), the category groups, one tile per product, pass or
 * contract. A barcode scanned while no field has the focus adds its item too.
 */
export function PosCatalogPanel<T extends PosTileItem>({
  items,
  currency,
  onAdd,
  unavailable,
}: {
  items: readonly T[];
  currency: string;
  onAdd(item: T): void;
  /** Why an item cannot be sold now (a contract offline at the desk); null when it can. */
  unavailable?: (item: T) => string | null;
}) {
  const { t } = useTranslation('retail');
  const price = usePrice();
  const [search, setSearch] = useState('');
  const [group, setGroup] = useState(ALL_GROUP);
  const [scanMiss, setScanMiss] = useState<string | null>(null);

  const groups = useMemo(
    () =>
      posGroups(items, {
        all: t('station.all'),
        other: t('station.otherProducts'),
        passes: t('types.pricingOption'),
        contracts: t('types.contract'),
      }),
    [items, t],
  );
  // A group that disappeared (a language switch renamed nothing, but a new catalog may drop one).
  const current = groups.some((g) => g.value === group) ? group : ALL_GROUP;
  const shown = useMemo(() => filterTiles(items, search, current), [items, search, current]);

  const add = (item: T) => {
    if (unavailable?.(item)) return;
    onAdd(item);
  };
  useBarcodeScanner((code) => {
    const item = findByBarcode(items, code);
    setScanMiss(item ? null : code.trim());
    if (item) add(item);
  });

  return (
    <Card withBorder padding="md" data-testid="pos-catalog">
      <Stack gap="sm">
        <TextInput
          label={t('station.searchLabel')}
          placeholder={t('search.placeholder')}
          value={search}
          size="md"
          type="search"
          onChange={(e) => setSearch(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || !search.trim()) return;
            e.preventDefault();
            const exact = findByBarcode(items, search);
            if (exact) add(exact);
            else if (shown.length === 1) add(shown[0]!);
            else return setScanMiss(search.trim());
            setScanMiss(null);
            setSearch('');
          }}
          data-testid="pos-search"
        />
        {scanMiss && (
          <Text size="sm" c="red" data-testid="pos-scan-miss">
            {t('search.noBarcode', { code: scanMiss })}
          </Text>
        )}
        <ScrollArea type="auto" offsetScrollbars>
          <SegmentedControl value={current} onChange={setGroup} data={groups} data-testid="pos-groups" />
        </ScrollArea>
        <SimpleGrid cols={{ base: 2, sm: 3, xl: 4 }} spacing="xs" data-testid="pos-results">
          {shown.map((item) => {
            const why = unavailable?.(item) ?? null;
            return (
              <UnstyledButton
                key={`${item.type}-${item.id}`}
                onClick={() => add(item)}
                disabled={why !== null}
                title={why ?? undefined}
                data-testid="pos-result"
                data-type={item.type}
                aria-label={t('search.add', { name: item.name })}
                p="sm"
                mih={84}
                style={{
                  borderRadius: 'var(--mantine-radius-md)',
                  border: '1px solid var(--mantine-color-gray-3)',
                  background: item.type === 'product' ? undefined : 'var(--mantine-color-teal-0)',
                  opacity: why ? 0.45 : undefined,
                }}
              >
                <Stack gap={4} justify="space-between" h="100%">
                  <Text fw={500} size="sm" lineClamp={2}>
                    {item.name}
                  </Text>
                  <Group justify="space-between" gap="xs" style={{ rowGap: 0 }}>
                    <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
                      {price(item.price, currency)}
                    </Text>
                    {item.stock !== null && (
                      <Text size="xs" c={item.stock > 0 ? 'dimmed' : 'red'} ta="right">
                        {t('search.stock', { count: item.stock })}
                      </Text>
                    )}
                  </Group>
                </Stack>
              </UnstyledButton>
            );
          })}
        </SimpleGrid>
        {shown.length === 0 && (
          <Text c="dimmed" size="sm">
            {t('search.none')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
