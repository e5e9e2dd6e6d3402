import '@mantine/core/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { PageContext } from '../../shared/contracts/page-context';
import type { ApiClient } from '../lib/api-client';
import { AppContextProvider } from '../lib/app-context';
import { theme } from './theme';

export interface AppProvidersProps {
  pageContext: PageContext;
  api: ApiClient;
  i18n: I18n;
  queryClient: QueryClient;
  children: ReactNode;
}

/** Theme, translations, server state and app context: everything a screen may rely on. */
export function AppProviders({ pageContext, api, i18n, queryClient, children }: AppProvidersProps) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <AppContextProvider pageContext={pageContext} api={api}>
            {children}
          </AppContextProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}
