import type { Knex } from 'knex';

/** SQLSTATEs PostgreSQL raises when a transaction lost a race it may win on a second try. */
const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected

export function isRetryableConflict(err: unknown): boolean {
  const e = err as { code?: unknown; nativeError?: { code?: unknown } } | null;
  const code = typeof e?.code === 'string' ? e.code : e?.nativeError?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

/**
 * Runs `work` in one transaction, and again (from the start, in a new transaction) when PostgreSQL
 * aborted it with a serialization failure or a deadlock (SQLSTATE 40001 / 40P01): a lost race is
 * not the caller's fault and never a 500. At most `attempts` tries, with a short random pause
 * between them so the contenders do not collide again in step; the last failure is rethrown.
 * `work` must have no effect outside the transaction (route handlers defer theirs to after commit).
 */
export async function transactionWithRetry<T>(
  knex: Knex,
  work: (trx: Knex.Transaction) => Promise<T>,
  options: { attempts?: number; onRetry?: (err: unknown, attempt: number) => void } = {},
): Promise<T> {
  const attempts = options.attempts ?? 4;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await knex.transaction(work);
    } catch (err) {
      if (attempt >= attempts || !isRetryableConflict(err)) throw err;
      options.onRetry?.(err, attempt);
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}
