import type { QueryClient } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import type { PageContext, WebApp } from '../../shared/contracts/page-context';
import { ApiClient } from '../lib/api-client';
import { initI18n } from '../lib/i18n';
import { readPageContext } from '../lib/page-context';
import { createQueryClient } from '../lib/query-client';
import { logVersion } from '../lib/version';
import { AppProviders } from './AppProviders';
import { applyPlatformBodyClasses } from './native-platform';

export interface StartAppOptions {
  /** i18next default namespace of the app (its own locales/<lang>/<app>.json). */
  namespace?: string;
  rootElementId?: string;
  /**
   * Starts what the first screen needs (its chunk, its API queries) while the language chunk is
   * still loading, so a first load is not JS → strings → screen → data one after the other.
   */
  prefetch?: (start: { pageContext: PageContext; api: ApiClient; queryClient: QueryClient }) => void;
}

/**
 * The start sequence every web app shares: read and validate the page context, log the version,
 * mark the native platform, set up i18n, API client and query client, and render.
 */
export function startApp(
  app: WebApp,
  render: (pageContext: PageContext) => ReactNode,
  options: StartAppOptions = {},
): void {
  const rootElement = document.getElementById(options.rootElementId ?? 'root');
  if (!rootElement) throw new Error('No #root element in index.html');
  let pageContext: PageContext;
  try {
    pageContext = readPageContext(app);
  } catch (error) {
    // Without a page context nothing can work (no locale, no CSRF token): say so plainly.
    rootElement.textContent = error instanceof Error ? error.message : String(error);
    throw error;
  }
  logVersion(app, pageContext.version);
  applyPlatformBodyClasses();
  const api = ApiClient.fromPageContext(pageContext);
  const queryClient = createQueryClient();
  try {
    options.prefetch?.({ pageContext, api, queryClient });
  } catch (error) {
    console.error(error); // a prefetch is an optimisation: the screens fetch what is missing
  }
  // The page language's strings are a chunk of their own: render once they are here.
  initI18n(pageContext.locale, options.namespace ?? app).then(
    (i18n) =>
      createRoot(rootElement).render(
        <StrictMode>
          <AppProviders pageContext={pageContext} api={api} i18n={i18n} queryClient={queryClient}>
            {render(pageContext)}
          </AppProviders>
        </StrictMode>,
      ),
    (error: unknown) => {
      rootElement.textContent = error instanceof Error ? error.message : String(error);
      console.error(error);
    },
  );
}
