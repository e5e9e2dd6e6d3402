import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from './context';

/**
 * Test runs only: with SERVER_ERROR_LOG set (CI sets it to test-results/server-500.jsonl), every 500
 * the server answers is appended to that file as one JSON line with its request, and CI fails when
 * the file holds an entry a test did not announce (`.ci/server-errors.mjs`). A test that provokes a
 * 500 on purpose sends `x-expect-server-error: <why>`; the entry is kept, marked expected. Unset in
 * production: nothing is written and the header means nothing.
 */
export const EXPECT_SERVER_ERROR_HEADER = 'x-expect-server-error';

export function recordServerError(ctx: AppContext, err: unknown): void {
  const file = process.env.SERVER_ERROR_LOG;
  if (!file) return;
  const body = (ctx.request as { body?: unknown }).body;
  const entry = {
    at: new Date().toISOString(),
    method: ctx.method,
    url: ctx.originalUrl.slice(0, 1000),
    requestId: ctx.state.requestId,
    expected: ctx.get(EXPECT_SERVER_ERROR_HEADER) || null,
    body: body === undefined ? null : (JSON.stringify(body) ?? '').slice(0, 1000),
    error: String((err as Error)?.stack ?? err)
      .split('\n')
      .slice(0, 12)
      .join('\n'),
  };
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.appendFileSync(file, JSON.stringify(entry) + '\n');
  } catch (writeErr) {
    ctx.state.log.error({ err: writeErr }, 'could not record the 500 in SERVER_ERROR_LOG');
  }
}
