import { Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { VoucherView } from '../../../shared/contracts/api/products';
import { useApiClient } from '../../lib/app-context';
import { errorCodeLabel } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';
import { formatDateTime } from '../../features/catalog/labels';
import { price, productKeys, useStudioUuid } from './products.api';
import { usePhone } from './ProductsScreen';
import { CatalogScreensApi } from '../../../shared/contracts/http/catalog-screens';

/** A voucher's redemptions, newest first (`GET voucher/{voucher}/redemption/collection`). */
export function VoucherRedemptions({ voucher }: { voucher: VoucherView }) {
  const { t, i18n } = useTranslation('catalog');
  const api = useApiClient();
  const studio = useStudioUuid();
  const { studio: studioInfo } = useBackoffice();
  const phone = usePhone();
  const list = useInfiniteQuery({
    queryKey: [...productKeys.all(studio), 'redemptions', voucher.id],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.call(CatalogScreensApi.getVoucherRedemptionCollection, {
        params: { uuid: studio, voucher: voucher.id },
        signal,
        query: { limit: 50, cursor: pageParam },
      }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const person = (p: { firstName: string; lastName: string } | null) =>
    p ? `${p.firstName} ${p.lastName}`.trim() : '—';
  return (
    <Stack gap="xs" data-testid="voucher-redemptions">
      <Title order={3} size="h5">
        {t('vouchers.redemptions', { count: voucher.usesTotal })}
      </Title>
      {list.error ? (
        <Text size="sm" c="red">
          {t('loadError')} ({errorCodeLabel(list.error)})
        </Text>
      ) : list.isPending ? (
        <Loader size="sm" />
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('vouchers.noRedemptions')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={phone ? 0 : 560}>
          <Table verticalSpacing={4} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>#</Table.Th>
                <Table.Th>{t('vouchers.when')}</Table.Th>
                <Table.Th>{t('vouchers.client')}</Table.Th>
                {phone ? null : <Table.Th>{t('vouchers.by')}</Table.Th>}
                <Table.Th ta="right">{t('vouchers.discount')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((r) => (
                <Table.Tr key={r.id} data-testid="redemption-row">
                  <Table.Td>{r.useNumber}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(r.createdAt, i18n.language, studioInfo.timeZone)}</Text>
                    {r.reference ? (
                      <Text size="xs" c="dimmed">
                        {r.reference}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{person(r.client)}</Table.Td>
                  {phone ? null : <Table.Td>{person(r.redeemedBy)}</Table.Td>}
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    −{price(r.discount, r.currency, i18n.language)}
                    <Text size="xs" c="dimmed">
                      {t('vouchers.ofBasket', { total: price(r.basketTotal, r.currency, i18n.language) })}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.hasNextPage ? (
        <Group justify="center">
          <Button
            variant="default"
            size="xs"
            onClick={() => void list.fetchNextPage()}
            loading={list.isFetchingNextPage}
          >
            {t('vouchers.more')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
