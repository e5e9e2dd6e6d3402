import type pg from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { AppError } from '../../../shared/errors';

/**
 * Per-address and per-email limits for the calls that reveal whether an account exists or take a
 * password, so they cannot be used to enumerate accounts or guess passwords at speed.
 *
 * Where the budgets live: on PostgreSQL, in the `rate_limits` table (rate-limiter-flexible's
 * PostgreSQL store), so every cloud instance on the database spends from the same budget; on the
 * embedded PGlite, in memory. PGlite runs inside the one process that opened it and takes one
 * connection, so there is exactly one cloud process on it and memory is exact there (and its one
 * connection is held by the request's transaction while the limit is spent).
 *
 * The store has a pool of its own (two connections): a limit is spent inside the request's
 * transaction but must not roll back with it (a failed sign-in still counts), and borrowing from the
 * app's pool there would deadlock a burst of sign-ins that holds every pooled connection.
 */
export interface RateLimitRule {
  points: number;
  durationSeconds: number;
}

export const DEFAULT_RATE_LIMITS = {
  /** Account lookups (preflight) from one address. */
  lookupPerIp: { points: 30, durationSeconds: 60 },
  /** Lookups of one email address from anywhere. */
  lookupPerEmail: { points: 10, durationSeconds: 60 },
  /** Password sign-in attempts from one address. */
  loginPerIp: { points: 20, durationSeconds: 60 },
  /**
   * Password attempts for one email address from one address (key `email|ip`): a guesser is slowed
   * without locking the owner out, who signs in from another address.
   */
  loginPerEmailAndIp: { points: 8, durationSeconds: 300 },
  /**
   * Password attempts for one email address from anywhere: slower and longer, against guessing from
   * many addresses. One address cannot spend it (at most 8 per 5 minutes = 96 an hour).
   */
  loginPerEmail: { points: 100, durationSeconds: 3600 },
  /** Studio sign-ups from one address. */
  signupPerIp: { points: 10, durationSeconds: 3600 },
  /** Client error reports from one address. */
  logPerIp: { points: 60, durationSeconds: 60 },
  /** Kiosk key attempts from one address. */
  kioskPerIp: { points: 20, durationSeconds: 60 },
  /**
   * Kiosk identifications (card number, QR code, name + birth date) by one kiosk session: a person at
   * a kiosk needs a few; a card-number guesser is paused for a minute (the kiosk says so).
   */
  kioskIdentifyPerSession: { points: 10, durationSeconds: 60 },
  /** Kiosk identifications across all kiosks of one studio (new sessions do not reset it). */
  kioskIdentifyPerStudio: { points: 120, durationSeconds: 60 },
  /** Studio search from one address. */
  searchPerIp: { points: 120, durationSeconds: 60 },
  /** Password recovery emails for one address. */
  recoveryPerEmail: { points: 3, durationSeconds: 900 },
} satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof DEFAULT_RATE_LIMITS;

/** The key of `loginPerEmailAndIp`. */
export const emailAndIp = (email: string, ip: string) => `${email.trim()}|${ip}`;

export interface RateLimitStore {
  /** A pg pool on the database (PostgreSQL store); none: memory (the embedded database). */
  pool?: pg.Pool;
  /**
   * Prefix of every key: two stores with different namespaces on one database do not share budgets
   * (test apps that run side by side); instances of one deployment share the default ''.
   */
  namespace?: string;
}

export class RateLimits {
  private readonly limiters = new Map<RateLimitName, RateLimiterAbstract>();

  constructor(
    rules: Partial<Record<RateLimitName, RateLimitRule>> = {},
    private readonly store: RateLimitStore = {},
  ) {
    for (const [name, rule] of Object.entries({ ...DEFAULT_RATE_LIMITS, ...rules }) as [
      RateLimitName,
      RateLimitRule,
    ][]) {
      this.limiters.set(name, this.limiter(name, rule));
    }
  }

  /** A limiter on this store (other modules' limits, like the donation checkout's, use it too). */
  limiter(keyPrefix: string, rule: RateLimitRule): RateLimiterAbstract {
    const options = {
      points: rule.points,
      duration: rule.durationSeconds,
      keyPrefix: `${this.store.namespace ?? ''}${keyPrefix}`,
    };
    if (!this.store.pool) return new RateLimiterMemory(options);
    return new RateLimiterPostgres({
      ...options,
      storeClient: this.store.pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      // The pool belongs to the server; expired rows are few (one per key) and cleared by a job-free
      // delete every five minutes from each instance, which the library schedules unref'd.
      clearExpiredByTimeout: true,
    });
  }

  /** Spends one point of `name` for `key`; throws 429 with Retry-After when the budget is gone. */
  async consume(name: RateLimitName, key: string): Promise<void> {
    const limiter = this.limiters.get(name);
    if (!limiter) throw new Error(`unknown rate limit ${name}`);
    await spendRateLimit(limiter, key.toLowerCase(), 'too many requests, try again later');
  }
}

/** Spends one point; the one 429 envelope of every rate limit (with Retry-After) when none is left. */
export async function spendRateLimit(
  limiter: RateLimiterAbstract,
  key: string,
  message: string,
): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (res) {
    if (res instanceof RateLimiterRes) {
      const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw new AppError('rateLimit.exceeded', { message, headers: { 'Retry-After': String(retryAfter) } });
    }
    throw res;
  }
}
