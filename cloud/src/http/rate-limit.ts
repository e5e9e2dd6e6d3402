import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../../shared/errors';

/**
 * Per-address and per-email limits for the calls that reveal whether an account exists or take a
 * password, so they cannot be used to enumerate accounts or guess passwords at speed. In memory: one
 * cloud process per studio database today; move to the PostgreSQL store when the cloud scales out.
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

export class RateLimits {
  private readonly limiters = new Map<RateLimitName, RateLimiterMemory>();

  constructor(rules: Partial<Record<RateLimitName, RateLimitRule>> = {}) {
    for (const [name, rule] of Object.entries({ ...DEFAULT_RATE_LIMITS, ...rules }) as [
      RateLimitName,
      RateLimitRule,
    ][]) {
      this.limiters.set(
        name,
        new RateLimiterMemory({ points: rule.points, duration: rule.durationSeconds, keyPrefix: name }),
      );
    }
  }

  /** Spends one point of `name` for `key`; throws 429 with Retry-After when the budget is gone. */
  async consume(name: RateLimitName, key: string): Promise<void> {
    const limiter = this.limiters.get(name);
    if (!limiter) throw new Error(`unknown rate limit ${name}`);
    try {
      await limiter.consume(key.toLowerCase());
    } catch (res) {
      if (res instanceof RateLimiterRes) {
        const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
        throw new AppError('rateLimit.exceeded', {
          message: 'too many requests, try again later',
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
      throw res;
    }
  }
}
