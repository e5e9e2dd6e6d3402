import { v7 as uuidv7 } from 'uuid';
import type {
  PlatformSeller,
  SubscriptionCartInput,
  SubscriptionCartStatus,
  SubscriptionInit,
  SubscriptionLine,
  SubscriptionPeriodView,
  SubscriptionQuote,
} from '../../../../shared/contracts/api/subscription';
import type { PaymentOutcome } from '../../../../shared/domain/payments';
import { AppError } from '../../../../shared/errors';
import type { StudioSubscriptionPeriodsRow, SubscriptionPaymentsRow } from '../../db/generated/tables';
import type { Db, Knex } from '../../db/knex';
import { enqueue } from '../../jobs/queue';
import type { Logger } from '../../logger';
import { findStudio, type Studio } from '../identity/index';
import { invoiceSettings } from '../invoices/index';
import { creditBalance } from './credits';
import { dayOf, periodBounds, periodOf, renewalPeriod } from './periods';
import { platformSettings, type PlatformSettings } from './platform-config';

type Trx = Knex.Transaction;
export type PeriodRow = StudioSubscriptionPeriodsRow;
export type PaymentRow = SubscriptionPaymentsRow;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const dateText = (d: Date | string) =>
  typeof d === 'string'
    ? d.slice(0, 10)
    : new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);

export function presentPeriod(row: PeriodRow, studioId: string): SubscriptionPeriodView {
  return {
    id: row.id,
    period: row.period,
    kind: row.kind as SubscriptionPeriodView['kind'],
    planCode: row.planCode,
    startsOn: dateText(row.startsOn as Date | string),
    endsOn: dateText(row.endsOn as Date | string),
    lines: row.lines as SubscriptionLine[],
    net: row.net,
    vat: row.vat,
    total: row.total,
    currency: row.currency,
    status: row.status as SubscriptionPeriodView['status'],
    paidAt: iso(row.paidAt),
    invoice:
      row.invoiceNumber && row.invoiceDate
        ? {
            number: row.invoiceNumber,
            date: dateText(row.invoiceDate as Date | string),
            downloadPath: `/api/v4/${studioId}/studio-subscription-period/${row.id}/invoice`,
          }
        : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The last month a paid renewal covers. */
async function paidThrough(db: Db, studioId: string): Promise<string | null> {
  const row = (await db('studio_subscription_periods')
    .where({ studioId, kind: 'renewal', status: 'paid' })
    .max('period as period')
    .first()) as { period: string | null } | undefined;
  return row?.period ?? null;
}

async function premiumAppsActive(db: Db, studioId: string, period: string): Promise<boolean> {
  const rows = await db('studio_subscription_periods')
    .where({ studioId, period, status: 'paid' })
    .select('lines');
  const codes = new Set(
    platformSettings()
      .addOns.filter((a) => a.service === 'premiumApps')
      .map((a) => a.code),
  );
  return rows.some((r) => (r.lines as SubscriptionLine[]).some((l) => codes.has(l.code)));
}

export async function subscriptionInit(db: Db, studio: Studio, now: Date): Promise<SubscriptionInit> {
  const settings = platformSettings();
  const sub = await db('studio_subscriptions').where({ studioId: studio.id }).first('id', 'planCode');
  const current = periodOf(now, studio.timeZone);
  const through = await paidThrough(db, studio.id);
  return {
    seller: settings.seller,
    currency: settings.currency,
    vatRate: settings.vatRate,
    plans: settings.plans,
    addOns: settings.addOns,
    subscription: sub ? { id: sub.id, planCode: sub.planCode } : null,
    status: !through ? 'trial' : through >= current ? 'active' : 'expired',
    currentPeriod: current,
    paidThrough: through,
    premiumApps: await premiumAppsActive(db, studio.id, current),
    credits: await creditBalance(db, studio.id),
    paymentProvider: settings.paymentProvider,
  };
}

export async function listPeriods(
  db: Db,
  studio: Studio,
  subscriptionId: string,
): Promise<{ items: SubscriptionPeriodView[]; next: null }> {
  const sub = await db('studio_subscriptions').where({ id: subscriptionId, studioId: studio.id }).first('id');
  if (!sub) throw AppError.notFound('subscription');
  const rows = await db('studio_subscription_periods')
    .where({ studioId: studio.id, subscriptionId })
    .orderBy([
      { column: 'period', order: 'desc' },
      { column: 'createdAt', order: 'desc' },
    ])
    .limit(120);
  return { items: rows.map((r) => presentPeriod(r, studio.id)), next: null };
}

export async function periodRow(db: Db, studioId: string, id: string, lock = false): Promise<PeriodRow> {
  const q = db('studio_subscription_periods').where({ id, studioId }).first();
  const row = (await (lock ? q.forUpdate() : q)) as PeriodRow | undefined;
  if (!row) throw AppError.notFound('subscription period');
  return row;
}

/** The lines, totals and period of a cart; 400 with field errors for unknown plans and add-ons. */
export async function quote(
  db: Db,
  studio: Studio,
  cart: { plan?: string | null; addOns: string[] },
  now: Date,
): Promise<SubscriptionQuote> {
  const settings = platformSettings();
  const fields: Record<string, string[]> = {};
  const lines: SubscriptionLine[] = [];
  if (cart.plan) {
    const plan = settings.plans.find((p) => p.code === cart.plan);
    if (!plan) fields.plan = ['no such plan'];
    else
      lines.push({
        code: plan.code,
        kind: 'plan',
        name: plan.name,
        quantity: 1,
        unitPrice: plan.price,
        net: plan.price,
      });
  }
  cart.addOns.forEach((code, i) => {
    const addOn = settings.addOns.find((a) => a.code === code);
    if (!addOn) {
      fields[`addOns.${i}`] = ['no such add-on'];
      return;
    }
    const same = lines.find((l) => l.code === code);
    // The premium apps bundle is a month's use: once per period, however often it is listed.
    if (same && addOn.service === 'premiumApps') return;
    if (same) {
      same.quantity += 1;
      same.net += addOn.price;
    } else
      lines.push({
        code,
        kind: 'addOn',
        name: addOn.name,
        quantity: 1,
        unitPrice: addOn.price,
        net: addOn.price,
      });
  });
  if (!cart.plan && cart.addOns.length === 0) fields.addOns = ['choose a plan or an add-on'];
  if (Object.keys(fields).length > 0) throw AppError.invalid(fields);
  const current = periodOf(now, studio.timeZone);
  const kind = cart.plan ? 'renewal' : 'addOns';
  const period = kind === 'renewal' ? renewalPeriod(current, await paidThrough(db, studio.id)) : current;
  const net = lines.reduce((sum, l) => sum + l.net, 0);
  const vat = Math.round((net * settings.vatRate) / 10_000);
  return {
    period,
    kind,
    ...periodBounds(period),
    lines,
    net,
    vat,
    total: net + vat,
    currency: settings.currency,
    paymentProvider: settings.paymentProvider,
  };
}

/**
 * Checkout, in the request's transaction: the period (awaiting payment) and its pending payment. The
 * provider is asked after the commit (`requestSubscriptionPayment`), holding no lock.
 */
export async function checkout(
  trx: Trx,
  studio: Studio,
  cart: SubscriptionCartInput,
  userId: string,
  now: Date,
): Promise<{ periodId: string; paymentId: string }> {
  const settings = platformSettings();
  if (!settings.paymentProvider)
    throw new AppError('subscription.paymentUnavailable', {
      message: 'the platform takes no online payments on this installation',
    });
  await trx('studio_subscriptions')
    .insert({
      id: uuidv7(),
      studioId: studio.id,
      planCode: cart.plan ?? settings.plans[0]!.code,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict('studioId')
    .ignore();
  // One checkout of a studio at a time: the period a renewal buys depends on the ones before.
  const sub = (await trx('studio_subscriptions').where({ studioId: studio.id }).forUpdate().first())!;
  const q = await quote(trx, studio, cart, now);
  const periodId = uuidv7();
  await trx('studio_subscription_periods').insert({
    id: periodId,
    studioId: studio.id,
    subscriptionId: sub.id,
    period: q.period,
    kind: q.kind,
    planCode: cart.plan ?? null,
    startsOn: q.startsOn,
    endsOn: q.endsOn,
    lines: JSON.stringify(q.lines),
    net: q.net,
    vat: q.vat,
    total: q.total,
    currency: q.currency,
    vatRate: settings.vatRate,
    status: 'awaiting',
    createdBy: userId,
    createdAt: now,
    updatedAt: now,
  });
  const paymentId = uuidv7();
  await trx('subscription_payments').insert({
    id: paymentId,
    studioId: studio.id,
    periodId,
    amount: q.total,
    currency: q.currency,
    provider: settings.paymentProvider,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
  });
  return { periodId, paymentId };
}

export async function cartStatus(db: Db, studio: Studio, periodId: string): Promise<SubscriptionCartStatus> {
  const row = await periodRow(db, studio.id, periodId);
  const payment = (await db('subscription_payments')
    .where({ studioId: studio.id, periodId })
    .orderBy('createdAt', 'desc')
    .first('id', 'status')) as { id: string; status: string } | undefined;
  return {
    period: presentPeriod(row, studio.id),
    payment: payment
      ? { id: payment.id, status: payment.status as NonNullable<SubscriptionCartStatus['payment']>['status'] }
      : null,
    credits: await creditBalance(db, studio.id),
  };
}

/** The next number of the platform's invoices of a year: `SUB/<year>/<n>`, gapless (row lock). */
async function nextInvoiceNumber(trx: Trx, year: number): Promise<string> {
  await trx('platform_invoice_counters').insert({ year, last: 0 }).onConflict('year').ignore();
  const [row] = await trx('platform_invoice_counters').where({ year }).increment('last', 1).returning('last');
  return `SUB/${year}/${String(row!.last).padStart(5, '0')}`;
}

async function buyerOf(db: Db, studio: Studio) {
  const s = await invoiceSettings(db, studio);
  return {
    name: s.sellerName || studio.name,
    addressLine: s.addressLine || studio.addressLine,
    postalCode: s.postalCode || studio.postalCode,
    city: s.city || studio.city,
    country: s.country || studio.country,
    taxId: s.taxId,
  };
}

/** Credits a paid period brings, per service: the plan's included ones and the credit add-ons. */
export function grantsOf(
  lines: SubscriptionLine[],
  settings: PlatformSettings,
): { email: number; sms: number } {
  const out = { email: 0, sms: 0 };
  for (const line of lines) {
    if (line.kind === 'plan') {
      const plan = settings.plans.find((p) => p.code === line.code);
      out.email += (plan?.includedEmail ?? 0) * line.quantity;
      out.sms += (plan?.includedSms ?? 0) * line.quantity;
    } else {
      const addOn = settings.addOns.find((a) => a.code === line.code);
      if (addOn?.service === 'email') out.email += (addOn.credits ?? 0) * line.quantity;
      if (addOn?.service === 'sms') out.sms += (addOn.credits ?? 0) * line.quantity;
    }
  }
  return out;
}

/** Marks a period paid: its invoice number, the seller and buyer as they are now, the credits. */
export async function settlePeriod(trx: Trx, studio: Studio, period: PeriodRow, now: Date): Promise<void> {
  const settings = platformSettings();
  let target = period.period;
  if (period.kind === 'renewal') {
    // Two renewals bought at once for the same month: the later one pays for the month after.
    const through = await paidThrough(trx, studio.id);
    if (through && through >= target) target = renewalPeriod(through, through);
  }
  const invoiceDate = dayOf(now, studio.timeZone);
  const seller: PlatformSeller = settings.seller;
  await trx('studio_subscription_periods')
    .where({ id: period.id })
    .update({
      status: 'paid',
      paidAt: now,
      period: target,
      ...periodBounds(target),
      invoiceNumber: await nextInvoiceNumber(trx, Number(invoiceDate.slice(0, 4))),
      invoiceDate,
      seller: JSON.stringify(seller),
      buyer: JSON.stringify(await buyerOf(trx, studio)),
      updatedAt: now,
    });
  if (period.kind === 'renewal' && period.planCode)
    await trx('studio_subscriptions')
      .where({ id: period.subscriptionId })
      .update({ planCode: period.planCode, updatedAt: now });
  // The invoice goes to the studio's billing address (invoice-mail.ts); the key sends it once.
  await enqueue(
    trx,
    'subscription.invoice-mail',
    { periodId: period.id },
    { key: `subscription.invoice-mail:${period.id}` },
  );
  const grants = grantsOf(period.lines as SubscriptionLine[], settings);
  for (const service of ['email', 'sms'] as const)
    if (grants[service] > 0)
      await trx('subscription_credit_entries')
        .insert({
          id: uuidv7(),
          studioId: studio.id,
          service,
          amount: grants[service],
          sourceKey: `period:${period.id}`,
          createdAt: now,
          updatedAt: now,
        })
        .onConflict(['studioId', 'service', 'sourceKey'])
        .ignore();
}

/**
 * What the provider reported, applied once: only a pending payment changes. Success pays the period
 * (invoice, credits); a decline or cancellation fails it. A chargeback is left to the platform's
 * staff (README).
 */
export async function applySubscriptionOutcome(
  trx: Trx,
  paymentId: string,
  outcome: PaymentOutcome,
  now: Date,
  log?: Logger,
): Promise<boolean> {
  const payment = (await trx('subscription_payments').where({ id: paymentId }).forUpdate().first()) as
    PaymentRow | undefined;
  if (!payment || payment.status !== 'pending' || outcome === 'chargeback') return false;
  await trx('subscription_payments').where({ id: paymentId }).update({ status: outcome, updatedAt: now });
  const studio = await findStudio(trx, payment.studioId);
  await trx('studio_subscriptions').where({ studioId: payment.studioId }).forUpdate().first('id');
  const period = await periodRow(trx, payment.studioId, payment.periodId, true);
  if (outcome === 'succeeded' && studio) await settlePeriod(trx, studio, period, now);
  else
    await trx('studio_subscription_periods')
      .where({ id: period.id })
      .update({ status: outcome === 'succeeded' ? 'paid' : outcome, updatedAt: now });
  log?.info({ paymentId, outcome, period: period.period }, 'subscription payment applied');
  return true;
}
