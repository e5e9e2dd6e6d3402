import { ApiError } from '../lib/api-client';
import { errorCodeLabel } from '../lib/form-errors';
import type { KioskCredentials } from './kiosk-credentials';

/**
 * States of the kiosk login (spec §2, §4): loading, unauthorized (shows the form), error.
 *
 *   stored credentials ──▶ loading ──ok──▶ (kiosk app)
 *   none stored ──▶ unauthorized ◀──403/400── loading        error ──retry──▶ loading
 *                          └──other failure──────────────────▶ error
 *
 * Decisions where the spec is silent:
 * - A 400 (values the server refuses, e.g. an over-long key) is treated like the 403: the form,
 *   with the server's field messages.
 * - Credentials that failed with 403 or 400 are dropped from the device; after any other failure
 *   (server down, network) they are kept so the retry (and the next restart) can use them.
 * - The form keeps the failed values, so a typo can be corrected.
 */
export type KioskLoginState =
  | { status: 'loading'; credentials: KioskCredentials }
  | { status: 'unauthorized'; credentials: KioskCredentials | null; rejected: boolean }
  | { status: 'error'; credentials: KioskCredentials; code: string };

export function initialKioskState(stored: KioskCredentials | null): KioskLoginState {
  return stored
    ? { status: 'loading', credentials: stored }
    : { status: 'unauthorized', credentials: null, rejected: false };
}

/** The server refused these credentials (or their shape): the form, and the device forgets them. */
export function isRejection(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 403 || error.status === 400);
}

export function kioskStateAfterFailure(error: unknown, credentials: KioskCredentials): KioskLoginState {
  if (isRejection(error)) return { status: 'unauthorized', credentials, rejected: true };
  return { status: 'error', credentials, code: errorCodeLabel(error) };
}
