import { createContext, useContext, type ReactNode } from 'react';

/**
 * Whether the screens are working without the cloud. Only the desk station sets it (from its status
 * bar's online state); the web apps never do, so for them it is always false. Screens use it to say
 * "not available offline" for what the station cannot answer from its own copy.
 */
const ConnectivityContext = createContext<{ offline: boolean }>({ offline: false });

export function ConnectivityProvider({ offline, children }: { offline: boolean; children: ReactNode }) {
  return <ConnectivityContext.Provider value={{ offline }}>{children}</ConnectivityContext.Provider>;
}

export function useOffline(): boolean {
  return useContext(ConnectivityContext).offline;
}
