import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/**
 * One QueryClient per app. Client errors (4xx) are answers, not glitches: retrying a 401/403/404
 * only delays the screen that explains it, so only network failures and 5xx are retried (once).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status < 500) return false;
          return failureCount < 1;
        },
      },
      mutations: { retry: false },
    },
  });
}
