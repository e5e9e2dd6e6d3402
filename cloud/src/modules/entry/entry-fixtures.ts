import { v7 as uuidv7 } from 'uuid';
import { expect } from 'vitest';
import { HttpClient } from '../../../../tests/support/http-client';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import type { RateLimitName, RateLimitRule } from '../../http/rate-limit';

/** The entry tests' helpers (the entry int tests are split by call: preflight, sign-up, the rest). */
export const tag = () => uuidv7().slice(-12);
export const HUGE = 'x'.repeat(100_000);

/**
 * A second app on the same database as `app` with narrow limits (the embedded database has one
 * connection).
 */
export async function withLimits(
  app: TestApp,
  rateLimits: Partial<Record<RateLimitName, RateLimitRule>>,
  run: (client: HttpClient, limited: TestApp) => Promise<void>,
): Promise<void> {
  const limited = await startTestApp({ rateLimits, shareDatabaseWith: app });
  try {
    await run(await HttpClient.anonymous(limited.url), limited);
  } finally {
    await limited.close();
  }
}

/** A 400 naming exactly these fields. */
export function expectFieldErrors(
  res: { status: number; body: { error: { key: string; fields: Record<string, unknown> } } },
  fields: string[],
): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.key).toBe('request.invalid');
  expect(Object.keys(res.body.error.fields).sort()).toEqual([...fields].sort());
}
