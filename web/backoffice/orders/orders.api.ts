import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BulkChargeResult,
  OrderDetail,
  OrderList,
  OrderStatusActionInput,
  RefundInput,
  RefundView,
} from '../../../shared/contracts/api/sales';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';
import { RetailApi } from '../../../shared/contracts/http/retail';

/** The sales module's order calls (spec §7 client-order) used by the orders screens. */
export const orderKeys = {
  all: (studio: string) => ['orders', studio] as const,
  list: (studio: string, filters: { q: string; status: string }) =>
    ['orders', studio, 'list', filters] as const,
  detail: (studio: string, id: string) => ['orders', studio, 'detail', id] as const,
};

export function useStudioUuid(): string {
  return useBackoffice().studio.uuid;
}

export function useOrders(filters: { q: string; status: string }) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useInfiniteQuery({
    queryKey: orderKeys.list(studio, filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get<OrderList>(`${studio}/client-order/all`, {
        signal,
        query: {
          q: filters.q.trim() || undefined,
          status: filters.status === 'all' ? undefined : filters.status,
          limit: 50,
          cursor: pageParam,
        },
      }),
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: keepPreviousData,
  });
}

export function useOrder(id: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: orderKeys.detail(studio, id),
    queryFn: ({ signal }) => api.get<OrderDetail>(`${studio}/client-order/${id}/init`, { signal }),
  });
}

export function useInvalidateOrders(): () => Promise<void> {
  const client = useQueryClient();
  const studio = useStudioUuid();
  return () => client.invalidateQueries({ queryKey: orderKeys.all(studio) });
}

export const orderCalls = {
  status: (api: ApiClient, studio: string, id: string, input: OrderStatusActionInput) =>
    api.post<OrderDetail>(`${studio}/client-order/${id}/status`, input),
  refund: (api: ApiClient, studio: string, id: string, input: RefundInput) =>
    api.post<RefundView>(`${studio}/client-order/${id}/refund`, input),
  printReceipt: (api: ApiClient, studio: string, id: string) =>
    api.call(RetailApi.postClientOrderPrintReceipt, { params: { uuid: studio, clientOrder: id }, body: {} }),
  bulkCharge: (api: ApiClient, studio: string, orderIds: string[]) =>
    api.post<BulkChargeResult>(`${studio}/client-order/bulk/charge`, { orderIds }),
};
