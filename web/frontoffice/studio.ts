import { createContext, useContext } from 'react';

const StudioUuidContext = createContext<string | null>(null);
export const StudioUuidProvider = StudioUuidContext.Provider;

/** The uuid of the studio whose front office this is (always set below FrontofficeApp's router). */
export function useStudioUuid(): string {
  const uuid = useContext(StudioUuidContext);
  if (!uuid) throw new Error('useStudioUuid outside StudioUuidProvider');
  return uuid;
}
