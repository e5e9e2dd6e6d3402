import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { PageContext } from '../../shared/contracts/page-context';
import type { ApiClient, ApiSession } from './api-client';

/**
 * React access to the two things every screen needs: the page context the server rendered and the
 * API client. The desktop renderer provides its own (IPC-backed) client through the same context.
 */
interface AppContextValue {
  pageContext: PageContext;
  api: ApiClient;
}

const AppContext = createContext<AppContextValue | null>(null);

export function AppContextProvider({
  pageContext,
  api,
  children,
}: AppContextValue & { children: ReactNode }) {
  return <AppContext.Provider value={{ pageContext, api }}>{children}</AppContext.Provider>;
}

function useAppContext(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('AppContextProvider is missing above this component');
  return value;
}

export function usePageContext(): PageContext {
  return useAppContext().pageContext;
}

export function useApiClient(): ApiClient {
  return useAppContext().api;
}

/** The current credentials; re-renders on sign-in and sign-out. */
export function useSession(): ApiSession {
  const api = useApiClient();
  return useSyncExternalStore(api.subscribe, api.getSession, api.getSession);
}
