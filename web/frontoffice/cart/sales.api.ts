import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type {
  CartItemInput,
  CartView,
  CheckoutInput,
  CheckoutResult,
  OrderStatusView,
} from '../../../shared/contracts/api/sales';
import { ApiError, type ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';

/** Front-office calls of the sales module: the cart, checkout, wallet, purchases, donations. */

/**
 * The cart's names come from the server in the page's language (the locale cookie the language
 * switch writes), so the language is part of the key: switching refetches them.
 */
export const cartKey = (studio: string, language?: string) =>
  language ? (['shopping-cart', studio, language] as const) : (['shopping-cart', studio] as const);

/** A fresh Idempotency-Key for one press of a paying button (a retry of that press reuses it). */
export function newIdempotencyKey(): string {
  return `web-${crypto.randomUUID()}`;
}

/**
 * POST with an Idempotency-Key header: the checkout, top-up and donation calls charge once per key.
 * The shared api client sends no extra headers, so this one call goes through fetch with its headers.
 */
export async function postOnce<T>(api: ApiClient, path: string, body: unknown, key: string): Promise<T> {
  const res = await fetch(api.url(path), {
    method: 'POST',
    headers: { ...api.headers(), 'idempotency-key': key },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const payload: unknown = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const envelope =
      payload && typeof payload === 'object' && 'error' in payload
        ? (payload as ConstructorParameters<typeof ApiError>[1])
        : null;
    throw new ApiError(res.status, envelope);
  }
  return payload as T;
}

export function useCart(studio: string, enabled = true) {
  const api = useApiClient();
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: cartKey(studio, i18n.language),
    queryFn: ({ signal }) => api.get<CartView>(`${studio}/shopping-cart/status`, { signal }),
    enabled,
  });
}

/** Replaces the cart's items (the server merges duplicates and prices everything again). */
export function usePrepareCart(studio: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const { i18n } = useTranslation();
  return useMutation({
    mutationFn: (items: CartItemInput[]) => api.post<CartView>(`${studio}/shopping-cart/prepare`, { items }),
    onSuccess: async (cart) => {
      // The cart is cached per language (names come translated): refresh the other languages too.
      await queryClient.invalidateQueries({
        queryKey: cartKey(studio),
        predicate: (q) => q.queryKey[2] !== i18n.language,
      });
      queryClient.setQueryData(cartKey(studio, i18n.language), cart);
    },
  });
}

/** The cart's items as the prepare call takes them. */
export function cartInputs(cart: CartView | undefined): CartItemInput[] {
  return (cart?.items ?? []).map((i) =>
    i.type === 'product'
      ? { type: 'product', id: i.id, quantity: i.quantity }
      : i.type === 'pricingOption' && i.forVisit
        ? { type: i.type, id: i.id, forVisitId: i.forVisit.id }
        : { type: i.type, id: i.id },
  );
}

export function checkout(api: ApiClient, studio: string, input: CheckoutInput, key: string) {
  return postOnce<CheckoutResult>(api, `${studio}/shopping-cart/checkout`, input, key);
}

/** Polls an order's status while its payment is pending (the return from the bank may beat the notification). */
export function useOrderStatus(studio: string, orderId: string | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['order-status', studio, orderId],
    queryFn: ({ signal }) => api.get<OrderStatusView>(`${studio}/client-order/${orderId}/status`, { signal }),
    enabled: orderId !== null,
    refetchInterval: (query) => (query.state.data?.payment?.status === 'pending' ? 1500 : false),
  });
}

/** Where the browser goes to pay: a server page, so a full navigation. */
export function goToPayment(redirectUrl: string): void {
  window.location.assign(redirectUrl);
}
