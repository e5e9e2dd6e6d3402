import { v7 as uuidv7 } from 'uuid';
import type { FeeKind } from '../../../../shared/contracts/api/bookings';
import { feeFor } from '../../../../shared/domain/bookings/fees';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import { isLocale } from '../../../../shared/i18n/locales';
import type { Knex } from '../../db/knex';
import { tFor } from '../../i18n';
import { settingsOf } from '../bookings/index';
import type { Studio } from '../identity/index';
import { createOrder } from '../sales/index';
import type { AppointmentRow } from './appointments.rows';

type Trx = Knex.Transaction;

/** As the bookings module's fee lines: the fee is paid for the booked service, standard VAT. */
const FEE_VAT_RATE = '2300';

export interface AppointmentFee {
  amount: number;
  currency: string;
  forgiven: boolean;
  orderId: string | null;
}

/**
 * A late cancellation or a no-show of an appointment, as for classes (module README "Fees"): the
 * amount is the studio's booking settings' (`lateCancelFee`, `noShowFee`); with first-offence
 * forgiveness a client's first offence — classes and appointments counted together, voided ones not —
 * is recorded as forgiven and never billed. An unforgiven fee is billed at once: a pending order with
 * one `fee` line, created once per appointment and kind (source `visit`, source id
 * `appointment-<kind>:<id>`). Returns null when the studio charges nothing.
 */
export async function recordAppointmentFee(
  trx: Trx,
  studio: Studio,
  appointment: AppointmentRow,
  kind: FeeKind,
  actorId: string | null,
): Promise<AppointmentFee | null> {
  if (!appointment.clientId) return null;
  const existing = (await trx('client_appointment_fees')
    .where({ clientAppointmentId: appointment.id, kind })
    .first()) as
    | { id: string; voidedAt: Date | null; amount: number; forgiven: boolean; clientOrderId: string | null }
    | undefined;
  if (existing && !existing.voidedAt)
    return {
      amount: existing.amount,
      currency: studio.currency,
      forgiven: existing.forgiven,
      orderId: existing.clientOrderId,
    };
  const count = async (table: string) => {
    const [row] = (await trx(table)
      .where({ studioId: studio.id, clientId: appointment.clientId })
      .whereNull('voidedAt')
      .count('* as n')) as Array<{ n: number | string }>;
    return Number(row?.n ?? 0);
  };
  const fee = feeFor(
    kind,
    await settingsOf(trx, studio),
    (await count('client_visit_fees')) + (await count('client_appointment_fees')),
  );
  if (!fee) return null;
  const id = existing?.id ?? uuidv7();
  if (existing)
    await trx('client_appointment_fees').where({ id }).update({
      voidedAt: null,
      amount: fee.amount,
      forgiven: fee.forgiven,
      createdBy: actorId,
      updatedAt: trx.fn.now(),
    });
  else
    await trx('client_appointment_fees').insert({
      id,
      studioId: studio.id,
      clientAppointmentId: appointment.id,
      clientId: appointment.clientId,
      kind,
      amount: fee.amount,
      currency: studio.currency,
      forgiven: fee.forgiven,
      createdBy: actorId,
    });
  let orderId: string | null = null;
  if (!fee.forgiven) {
    const service = (await trx('appointment_services')
      .where({ id: appointment.serviceId })
      .first('name')) as {
      name: LocaleText;
    };
    const locale = isLocale(studio.defaultLocale) ? studio.defaultLocale : 'en';
    const when = new Intl.DateTimeFormat('sv-SE', {
      timeZone: studio.timeZone,
      dateStyle: 'short',
      timeStyle: 'short',
    }).format(new Date(appointment.startsAt));
    ({ id: orderId } = await createOrder(trx, {
      studioId: studio.id,
      clientId: appointment.clientId,
      source: 'visit',
      sourceId: `appointment-${kind}:${appointment.id}`,
      createdBy: actorId,
      lines: [
        {
          kind: 'fee',
          refId: appointment.id,
          name: `${tFor(locale)(`bookings:fee.${kind}`)}: ${resolveLocaleText(service.name, locale, locale)} ${when}`,
          quantity: 1,
          unitPriceMinor: fee.amount,
          vatRate: FEE_VAT_RATE,
        },
      ],
    }));
    await trx('client_appointment_fees')
      .where({ id })
      .update({ clientOrderId: orderId, updatedAt: trx.fn.now() });
  }
  return { amount: fee.amount, currency: studio.currency, forgiven: fee.forgiven, orderId };
}

/** Attendance corrected (absent → present): the no-show fee is voided (its order stays, as for classes). */
export async function voidAppointmentFee(trx: Trx, appointmentId: string, kind: FeeKind): Promise<void> {
  await trx('client_appointment_fees')
    .where({ clientAppointmentId: appointmentId, kind })
    .whereNull('voidedAt')
    .update({ voidedAt: trx.fn.now(), updatedAt: trx.fn.now() });
}
