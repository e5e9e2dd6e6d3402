import {
  PreflightStudioResultSchema,
  PreflightUsernameResultSchema,
  type ClientLogInput,
  type EntryStudio,
  type KioskAuthInput,
  type KioskAuthResult,
  type PreflightStudioResult,
  type PreflightUsernameResult,
  type StudioCreateInput,
  type StudioCreateResult,
} from '../../shared/contracts/api/entry';
import { EntryApi } from '../../shared/contracts/http/entry';
import type { z } from 'zod';
import { ContractError, type ApiClient } from '../lib/api-client';

/**
 * The entry calls (spec §7 "Entry calls") by the names their failures are reported under; the calls
 * themselves go through the contract entries (`EntryApi`), whose schemas check the answers.
 */
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
export async function preflightUsername(api: ApiClient, username: string): Promise<PreflightUsernameResult> {
  const answer = await api.call(EntryApi.preflight, { body: { preflight: 'username', username } });
  return preflightAnswer(PreflightUsernameResultSchema, answer);
}

/** Sign-up: the studios already linked to this email address. */
export async function preflightSignupEmail(
  api: ApiClient,
  emailAddress: string,
): Promise<PreflightStudioResult> {
  const answer = await api.call(EntryApi.preflight, {
    body: { preflight: 'studio', action: 'emailAddress', emailAddress },
  });
  return preflightAnswer(PreflightStudioResultSchema, answer);
}

/** The preflight entry answers either kind; the one asked for must be the one that came. */
function preflightAnswer<T>(schema: z.ZodType<T>, answer: unknown): T {
  const parsed = schema.safeParse(answer);
  if (!parsed.success)
    throw new ContractError(`${ENTRY_CALLS.preflight}: the answer is not the kind asked for`, {
      cause: parsed.error,
    });
  return parsed.data;
}

export function createStudio(api: ApiClient, input: StudioCreateInput): Promise<StudioCreateResult> {
  return api.call(EntryApi.createStudio, { body: input });
}

export async function searchStudios(
  api: ApiClient,
  queryString: string,
  signal?: AbortSignal,
): Promise<EntryStudio[]> {
  const result = await api.call(EntryApi.search, { body: { queryString }, signal });
  return result.studios;
}

export function authenticateKiosk(api: ApiClient, input: KioskAuthInput): Promise<KioskAuthResult> {
  return api.call(EntryApi.kiosk, { body: input });
}

export function postClientLog(api: ApiClient, input: ClientLogInput): Promise<unknown> {
  return api.call(EntryApi.log, { body: input });
}
