import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PaymentProviderName,
  PaymentProviderTestResult,
  PaymentProviderView,
  StripeCredentialsInput,
} from '../../../shared/contracts/api/sales';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';
import { studioAdminKeys } from '../studio-admin/studio-admin.api';

/** Payment provider calls (spec §7 `payment-provider/all`, `test-connection`; PATCH is ours). */
export const paymentProviderKeys = {
  all: (studio: string) => ['payment-providers', studio] as const,
};

export function usePaymentProviders() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: paymentProviderKeys.all(studio),
    queryFn: ({ signal }) =>
      api.get<{ items: PaymentProviderView[] }>(`${studio}/payment-provider/all`, { signal }),
  });
}

/** After a provider's change: the list, and the setup's payments step and desk-only choice it decides. */
export function useInvalidatePaymentProviders(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useBackoffice().studio.uuid;
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: paymentProviderKeys.all(studio) }),
      queryClient.invalidateQueries({ queryKey: studioAdminKeys.configure(studio) }),
    ]);
  };
}

export const paymentProviderCalls = {
  update: (
    api: ApiClient,
    studio: string,
    provider: PaymentProviderName,
    input: { enabled?: boolean; credentials?: StripeCredentialsInput },
  ) => api.patch<PaymentProviderView>(`${studio}/payment-provider/${provider}`, input),
  testConnection: (
    api: ApiClient,
    studio: string,
    provider: PaymentProviderName,
    credentials?: StripeCredentialsInput,
  ) =>
    api.post<PaymentProviderTestResult>(`${studio}/payment-provider/test-connection`, {
      provider,
      ...(credentials ? { credentials } : {}),
    }),
};

/** Stripe's form: the payload's paths, so server field errors land on the inputs. */
export type StripeFormValues = {
  'credentials.secretKey': string;
  'credentials.webhookSecret': string;
  enabled: 'true' | 'false';
};

/** The keys typed into the form, when both are (otherwise the saved ones stay). */
export function typedCredentials(values: StripeFormValues): StripeCredentialsInput | undefined {
  const secretKey = values['credentials.secretKey'].trim();
  const webhookSecret = values['credentials.webhookSecret'].trim();
  return secretKey || webhookSecret ? { secretKey, webhookSecret } : undefined;
}
