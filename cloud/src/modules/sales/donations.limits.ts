import type Router from '@koa/router';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { DonationCheckoutSchema } from '../../../../shared/contracts/api/sales';
import type { AppCustom, AppState, Deps } from '../../http/context';
import { spendRateLimit, type RateLimitRule } from '../../http/rate-limit';

/**
 * Limits on the anonymous donation checkout. Every accepted checkout creates an order and a
 * transaction at the studio's payment provider, and a public form that takes any amount is what card
 * testers look for: so one address, and one donor e-mail, get only a few tries. A studio's provider
 * account is what suffers (fees, fraud flags), so the tight limits count per studio; a looser
 * ceiling per address counts across all studios. Only requests whose body is a valid donation count:
 * bad input is refused by validation before anything reaches the provider. An idempotent retry
 * counts too (it is rare, and cheap to allow for inside the budget).
 */
export const DONATION_RATE_LIMITS = {
  /** Checkouts from one address at one studio. */
  perIpPerStudio: { points: 10, durationSeconds: 10 * 60 },
  /** Checkouts for one donor e-mail at one studio. */
  perEmailPerStudio: { points: 5, durationSeconds: 60 * 60 },
  /** Checkouts from one address across all studios. */
  perIp: { points: 30, durationSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

export type DonationRateLimitName = keyof typeof DONATION_RATE_LIMITS;
type Limiters = Record<DonationRateLimitName, RateLimiterAbstract>;

// One set per running app (its Deps), on the app's rate-limit store (PostgreSQL: shared by every
// instance; the embedded database: memory), like the app's other limits.
const limitersByApp = new WeakMap<Deps, Limiters>();

let configured = 0;

/** `fresh`: budgets of their own (a stored budget outlives its limiter; tests start afresh). */
function build(
  deps: Deps,
  rules: Partial<Record<DonationRateLimitName, RateLimitRule>>,
  fresh = false,
): Limiters {
  const all = { ...DONATION_RATE_LIMITS, ...rules };
  const prefix = fresh ? `donation${++configured}-` : 'donation-';
  const make = (name: DonationRateLimitName) => deps.rateLimits.limiter(`${prefix}${name}`, all[name]);
  return {
    perIpPerStudio: make('perIpPerStudio'),
    perEmailPerStudio: make('perEmailPerStudio'),
    perIp: make('perIp'),
  };
}

/** Replaces an app's donation limits with fresh budgets (tests narrow the cross-studio ceiling with it). */
export function configureDonationRateLimits(
  deps: Deps,
  rules: Partial<Record<DonationRateLimitName, RateLimitRule>>,
): void {
  limitersByApp.set(deps, build(deps, rules, true));
}

function limitersOf(deps: Deps): Limiters {
  let limiters = limitersByApp.get(deps);
  if (!limiters) limitersByApp.set(deps, (limiters = build(deps, {})));
  return limiters;
}

/** Spends one point of each limit; the first one exhausted answers 429 with Retry-After. */
export async function consumeDonationCheckout(
  deps: Deps,
  input: { studioId: string; ip: string; email: string },
): Promise<void> {
  const limiters = limitersOf(deps);
  const spends: [RateLimiterAbstract, string][] = [
    [limiters.perIp, input.ip],
    [limiters.perIpPerStudio, `${input.studioId}:${input.ip}`],
    [limiters.perEmailPerStudio, `${input.studioId}:${input.email.trim().toLowerCase()}`],
  ];
  for (const [limiter, key] of spends) {
    await spendRateLimit(limiter, key, 'too many donation attempts, try again later');
  }
}

/**
 * Puts the limits in front of `POST donation/checkout` (registered before the sales routes, so this
 * layer runs first and hands on to the sales module's handler).
 */
export function registerDonationGuards(router: Router<AppState, AppCustom>): void {
  router.post('/v4/:uuid/donation/checkout', async (ctx, next) => {
    const body = DonationCheckoutSchema.safeParse((ctx.request as { body?: unknown }).body ?? {});
    if (body.success)
      await consumeDonationCheckout(ctx.deps, {
        studioId: ctx.params.uuid ?? '',
        ip: ctx.ip,
        email: body.data.email,
      });
    await next();
  });
}
