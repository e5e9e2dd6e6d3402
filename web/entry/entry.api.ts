import {
  AppSearchResultSchema,
  KioskAuthResultSchema,
  PreflightStudioResultSchema,
  PreflightUsernameResultSchema,
  StudioCreateResultSchema,
  type ClientLogInput,
  type EntryStudio,
  type KioskAuthInput,
  type KioskAuthResult,
  type PreflightStudioResult,
  type PreflightUsernameResult,
  type StudioCreateInput,
  type StudioCreateResult,
} from '../../shared/contracts/api/entry';
import type { ApiClient } from '../lib/api-client';

/** The entry calls (spec §7 "Entry calls"); answers are checked against the contract's schemas. */
export const ENTRY_CALLS = {
  preflight: 'auth/preflight',
  studioCreate: 'studio/create',
  search: 'app/search',
  kiosk: 'auth/kiosk',
  log: 'log/post',
} as const;

export const entryKeys = {
  search: (query: string) => ['entry', 'search', query] as const,
};

/** Login and delete: which studios know this email address. */
export function preflightUsername(api: ApiClient, username: string): Promise<PreflightUsernameResult> {
  return api.post(
    ENTRY_CALLS.preflight,
    { preflight: 'username', username },
    { schema: PreflightUsernameResultSchema },
  );
}

/** Sign-up: the studios already linked to this email address. */
export function preflightSignupEmail(api: ApiClient, emailAddress: string): Promise<PreflightStudioResult> {
  return api.post(
    ENTRY_CALLS.preflight,
    { preflight: 'studio', action: 'emailAddress', emailAddress },
    { schema: PreflightStudioResultSchema },
  );
}

export function createStudio(api: ApiClient, input: StudioCreateInput): Promise<StudioCreateResult> {
  return api.post(ENTRY_CALLS.studioCreate, input, { schema: StudioCreateResultSchema });
}

export async function searchStudios(
  api: ApiClient,
  queryString: string,
  signal?: AbortSignal,
): Promise<EntryStudio[]> {
  const result = await api.post(
    ENTRY_CALLS.search,
    { queryString },
    { schema: AppSearchResultSchema, signal },
  );
  return result.studios;
}

export function authenticateKiosk(api: ApiClient, input: KioskAuthInput): Promise<KioskAuthResult> {
  return api.post(ENTRY_CALLS.kiosk, input, { schema: KioskAuthResultSchema });
}

export function postClientLog(api: ApiClient, input: ClientLogInput): Promise<unknown> {
  return api.post(ENTRY_CALLS.log, input);
}
