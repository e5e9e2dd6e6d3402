import { z } from 'zod';
import {
  AppSearchInputSchema,
  AppSearchResultSchema,
  ClientLogInputSchema,
  KioskAuthInputSchema,
  KioskAuthResultSchema,
  PreflightInputSchema,
  PreflightStudioResultSchema,
  PreflightUsernameResultSchema,
  StudioCreateInputSchema,
  StudioCreateResultSchema,
} from '../api/entry';
import { contractGroup } from './define';

/** The entry application's calls (spec §7 "Entry calls"): no studio in the path, no session needed. */
export const EntryApi = contractGroup('entry', {
  /**
   * Which studios know an email address: `preflight: 'username'` (login, delete) answers the short
   * studio view, `'studio'` (sign-up) the sign-up view. The sign-up view is tried first: it holds
   * every field of the short one, which would otherwise strip them.
   */
  preflight: {
    method: 'post',
    path: '/v4/auth/preflight',
    access: 'public',
    body: PreflightInputSchema,
    response: z.union([PreflightStudioResultSchema, PreflightUsernameResultSchema]),
  },
  /** Business-account sign-up: a studio, its owner and a welcome email to set the password. */
  createStudio: {
    method: 'post',
    path: '/v4/studio/create',
    access: 'public',
    body: StudioCreateInputSchema,
    status: 201,
    response: StudioCreateResultSchema,
  },
  /** Studio search by name (the /search screen). */
  search: {
    method: 'post',
    path: '/v4/app/search',
    access: 'public',
    body: AppSearchInputSchema,
    response: AppSearchResultSchema,
  },
  /** Kiosk sign-in with the studio's uuid and kiosk key. */
  kiosk: {
    method: 'post',
    path: '/v4/auth/kiosk',
    access: 'public',
    body: KioskAuthInputSchema,
    response: KioskAuthResultSchema,
  },
  /** Script errors reported by the web apps (204). */
  log: {
    method: 'post',
    path: '/v4/log/post',
    access: 'public',
    body: ClientLogInputSchema,
    status: 204,
    responseKind: 'empty',
  },
});
