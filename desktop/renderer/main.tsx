import './desktop.css';
import { Center, Loader } from '@mantine/core';
import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import type { PageContext } from '../../shared/contracts/page-context';
import { ApiClient } from '../../web/lib/api-client';
import { initI18n } from '../../web/lib/i18n';
import { createQueryClient } from '../../web/lib/query-client';
import { AppProviders } from '../../web/ui/AppProviders';
import { call, getDesktopApi } from './bridge';
import { createIpcFetch } from './ipc-fetch';
import { DesktopContextProvider, sessionFor } from './station.api';

// Each mode is a chunk of its own: a front desk never loads the kiosk's screens, nor a kiosk the back
// office (the back office's screens are lazy routes below that, as in the web app).
const DesktopApp = lazy(() => import('./DesktopApp').then((m) => ({ default: m.DesktopApp })));
const DesktopKiosk = lazy(() => import('./DesktopKiosk').then((m) => ({ default: m.DesktopKiosk })));

async function boot(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('No #root element');
  const bridge = getDesktopApi();
  const [info, state, kiosk] = await Promise.all([
    call(bridge, 'appInfo', {}),
    call(bridge, 'stationState', {}),
    call(bridge, 'kioskState', {}),
  ]);
  const ipcFetch = createIpcFetch(bridge, globalThis.fetch.bind(globalThis));
  // Screens that call fetch themselves (file exports) reach the API through main as well.
  globalThis.fetch = ipcFetch;
  const pageContext: PageContext = {
    app: 'backoffice',
    baseUrl: info.cloudUrl,
    environment: 'production',
    sessionId: null,
    token: 'station',
    userId: state.staff?.userId ?? null,
    studioUuid: state.device?.studioUuid ?? null,
    locale: state.locale,
    version: info.version,
  };
  const i18n = await initI18n(state.locale, 'desktop');
  const api = new ApiClient({ session: sessionFor(state), fetch: ipcFetch });
  createRoot(root).render(
    <StrictMode>
      <AppProviders pageContext={pageContext} api={api} i18n={i18n} queryClient={createQueryClient()}>
        <DesktopContextProvider value={{ bridge, info }}>
          <Suspense
            fallback={
              <Center mih="100dvh">
                <Loader />
              </Center>
            }
          >
            {kiosk.mode === 'kiosk' ? (
              <DesktopKiosk initialState={state} kiosk={kiosk} />
            ) : (
              <DesktopApp initialState={state} />
            )}
          </Suspense>
        </DesktopContextProvider>
      </AppProviders>
    </StrictMode>,
  );
}

boot().catch((error: unknown) => {
  const root = document.getElementById('root');
  if (root) root.textContent = error instanceof Error ? error.message : String(error);
  console.error(error);
});
