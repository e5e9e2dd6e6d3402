import type { z } from 'zod';
import {
  ticketPrinterOf,
  type StationTicketPrinter,
  type TicketPrinterSettingsSchema,
} from '../../../../shared/contracts/api/ticket-printers';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { Studio } from '../identity/index';

type Trx = Knex.Transaction;
type Settings = z.output<typeof TicketPrinterSettingsSchema>;

/** `none` is stored as null: a station without a printer and one never set up read the same. */
const stored = (settings: Settings) => (settings.kind === 'none' ? null : JSON.stringify(settings));

/** Sets the ESC/POS printer of a POS station (row-locked; another studio's station is 404). */
export async function setPosTicketPrinter(
  trx: Trx,
  studio: Studio,
  posId: string,
  settings: Settings,
  now: Date,
): Promise<void> {
  const row = await trx('studio_pos').where({ studioId: studio.id, id: posId }).forUpdate().first('id');
  if (!row) throw AppError.notFound('studio pos');
  await trx('studio_pos')
    .where({ studioId: studio.id, id: posId })
    .update({ ticketPrinter: stored(settings), updatedAt: now });
}

/** Sets the slip printer of a kiosk (row-locked; another studio's kiosk is 404). */
export async function setKioskTicketPrinter(
  trx: Trx,
  studio: Studio,
  kioskId: string,
  settings: Settings,
): Promise<void> {
  const row = await trx('studio_kiosks').where({ studioId: studio.id, id: kioskId }).forUpdate().first('id');
  if (!row) throw AppError.notFound('kiosk');
  await trx('studio_kiosks')
    .where({ studioId: studio.id, id: kioskId })
    .update({ ticketPrinter: stored(settings) });
}

/** What a desk station of the studio reads for the POS it runs (by the station slug). */
export async function posTicketPrinterBySlug(
  db: Db,
  studioId: string,
  slug: string,
): Promise<StationTicketPrinter> {
  const row: { ticketPrinter: unknown } | undefined = await db('studio_pos')
    .where({ studioId, slug })
    .first('ticket_printer');
  if (!row) throw AppError.notFound('studio pos');
  return { ticketPrinter: ticketPrinterOf(row.ticketPrinter) };
}

/** What a desk station of the studio reads for the kiosk it runs. */
export async function kioskTicketPrinter(
  db: Db,
  studioId: string,
  kioskId: string,
): Promise<StationTicketPrinter> {
  const row: { ticketPrinter: unknown } | undefined = await db('studio_kiosks')
    .where({ studioId, id: kioskId })
    .first('ticket_printer');
  if (!row) throw AppError.notFound('kiosk');
  return { ticketPrinter: ticketPrinterOf(row.ticketPrinter) };
}
