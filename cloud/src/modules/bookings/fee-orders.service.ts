import type { FeeKind } from '../../../../shared/contracts/api/bookings';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import { isLocale } from '../../../../shared/i18n/locales';
import type { Db, Knex } from '../../db/knex';
import { tFor } from '../../i18n';
import type { Studio } from '../identity/index';
import { createOrder } from '../sales/index';

/**
 * VAT of a fee line. A late-cancellation or no-show fee is paid for the class the client booked
 * (consideration for the service, not damages), so it carries the standard rate; studios with
 * another treatment correct the order. Kept here, one place to change.
 */
export const FEE_VAT_RATE = '2300';

/**
 * Bills a recorded fee: a pending order for the client with one `fee` line, through the sales
 * module's `createOrder`. The order's source id is the visit and the kind (`lateCancel:<visit>`), so a
 * visit is billed once per kind however often it is marked (absent → present → absent gives the
 * same order) and a retry of the request creates nothing new. Forgiven fees are never billed.
 * Returns the order id and stores it on the fee row.
 */
export async function billFee(
  trx: Db,
  studio: Studio,
  fee: { id: string; visitId: string; clientId: string; kind: FeeKind; amount: number },
  createdBy: string | null,
): Promise<string> {
  const visit = (await trx('client_visits as v')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    .join('class_services as s', 's.id', 'e.class_service_id')
    .where('v.id', fee.visitId)
    .first('e.starts_at', 's.name')) as { startsAt: Date; name: LocaleText };
  const locale = isLocale(studio.defaultLocale) ? studio.defaultLocale : 'en';
  const when = new Intl.DateTimeFormat('sv-SE', {
    timeZone: studio.timeZone,
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(new Date(visit.startsAt));
  const name = `${tFor(locale)(`bookings:fee.${fee.kind}`)}: ${resolveLocaleText(visit.name, locale, locale)} ${when}`;
  const { id } = await createOrder(trx as Knex.Transaction, {
    studioId: studio.id,
    clientId: fee.clientId,
    source: 'visit',
    sourceId: `${fee.kind}:${fee.visitId}`,
    createdBy,
    lines: [
      {
        kind: 'fee',
        refId: fee.visitId,
        name,
        quantity: 1,
        unitPriceMinor: fee.amount,
        vatRate: FEE_VAT_RATE,
      },
    ],
  });
  await trx('client_visit_fees').where({ id: fee.id }).update({ clientOrderId: id, updatedAt: trx.fn.now() });
  return id;
}
