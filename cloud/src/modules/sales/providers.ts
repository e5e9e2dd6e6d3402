import type { PaymentProviderName, PaymentProviderView } from '../../../../shared/contracts/api/sales';
import type { ClientOrderRefundError } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../db/knex';
import type { PaymentProvider } from './payment-provider';
import { stripeProvider } from './providers/stripe-provider';
import { testProvider } from './test-provider';

/**
 * Every provider this server can talk to, real ones first: the studio's online payments go through
 * the first enabled one, so a studio that set up Stripe is not sent to the test bank.
 */
export const PROVIDERS: Record<PaymentProviderName, PaymentProvider> = {
  stripe: stripeProvider,
  test: testProvider,
};

/** Providers that work only with the studio's own account keys (off until the keys are saved). */
const NEEDS_CREDENTIALS: ReadonlySet<PaymentProviderName> = new Set(['stripe']);

export function isProviderName(name: string): name is PaymentProviderName {
  return Object.hasOwn(PROVIDERS, name);
}

interface ProviderRow {
  provider: string;
  enabled: boolean;
  settings: { refundError?: ClientOrderRefundError | null; credentials?: string; secretKeyHint?: string };
}

/**
 * A studio that never configured the test provider has it enabled outside production (so a fresh
 * install can sell online end to end) and disabled in production, where it would hand out passes for
 * nothing. Configuring it (`PATCH payment-provider/test`) decides explicitly.
 */
const ENABLED_BY_DEFAULT = process.env.NODE_ENV !== 'production';
// Read once, when the server starts: a Vite build run inside the same process (the e2e server
// builds the web apps if stale) sets NODE_ENV=production afterwards, which must not switch it off.
function enabledByDefault(): boolean {
  return ENABLED_BY_DEFAULT;
}

export async function providerViews(db: Db, studioId: string): Promise<PaymentProviderView[]> {
  const rows = (await db('studio_payment_providers').where({ studioId })) as ProviderRow[];
  return (Object.keys(PROVIDERS) as PaymentProviderName[]).map((name) => {
    const row = rows.find((r) => r.provider === name);
    const needsCredentials = NEEDS_CREDENTIALS.has(name);
    const configured = !needsCredentials || Boolean(row?.settings.credentials);
    return {
      provider: name,
      method: PROVIDERS[name].method,
      enabled: configured && (row ? row.enabled : !needsCredentials && enabledByDefault()),
      settings: { refundError: row?.settings.refundError ?? null },
      needsCredentials,
      configured,
      secretKeyHint: row?.settings.secretKeyHint ?? null,
      webhookPath: `/app/payment-notification/${name}${needsCredentials ? `?studio=${studioId}` : ''}`,
    };
  });
}

/** The studio's online provider (the first enabled one), or a named one. 409 when none is enabled. */
export async function providerFor(
  db: Db,
  studioId: string,
  name?: string,
  options: { evenIfDisabled?: boolean } = {},
): Promise<PaymentProvider> {
  const views = await providerViews(db, studioId);
  const view = views.find((v) => (name ? v.provider === name : v.enabled));
  if (!view || (!view.enabled && !options.evenIfDisabled))
    throw new AppError('payment.providerUnavailable', {
      message: 'online payment is not available in this studio',
      fields: { paymentMethod: ['online payment is not available'] },
    });
  return PROVIDERS[view.provider];
}

/**
 * Saves a studio's choice about one provider (`PATCH payment-provider/{provider}`): switched on or
 * off, and settings merged into the stored ones. Any saved row is an explicit decision (the default
 * of a provider never saved no longer applies).
 */
export async function saveProviderChoice(
  db: Db,
  studioId: string,
  provider: PaymentProviderName,
  enabled: boolean,
  settings: Record<string, unknown> = {},
): Promise<void> {
  await db.raw(
    `insert into studio_payment_providers (id, studio_id, provider, enabled, settings)
     values (?, ?, ?, ?, ?::jsonb)
     on conflict (studio_id, provider) do update
       set enabled = excluded.enabled,
           settings = studio_payment_providers.settings || excluded.settings,
           updated_at = now()`,
    [uuidv7(), studioId, provider, enabled, JSON.stringify(settings)],
  );
}

/**
 * The studio takes payments at the desk only (studio-admin's setup): every provider that is on,
 * by a saved choice or by default (the test provider outside production), is switched off, so no
 * client is offered an online payment. Switching one on later is the ordinary PATCH.
 */
export async function switchOffOnlinePayments(db: Db, studioId: string): Promise<void> {
  for (const view of await providerViews(db, studioId))
    if (view.enabled) await saveProviderChoice(db, studioId, view.provider, false);
}
