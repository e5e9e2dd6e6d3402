import { z } from 'zod';
import { StationSlugSchema } from './fiscal-printers';
import { requiredText, text, uuid, instant } from './common';
import type { TicketPrinter, TicketPrinterOptions } from './ticket-printers';

/**
 * POS stations (spec §7 Studio: "studio-pos collection, init, POST unassign, POST assign") and their
 * cash shifts, under `/api/v4/{uuid}/...`. Decisions: cloud/src/modules/stations/README.md. Money is
 * integer minor units of the studio's currency.
 */

export const POS_NAME_MAX = 80;
/** The biggest float, cash movement or count the desk may type: 1,000,000.00. */
export const SHIFT_AMOUNT_MAX = 100_000_000;

const amount = () =>
  z
    .number({ error: 'required' })
    .int('whole minor units')
    .min(0, 'must not be negative')
    .max(SHIFT_AMOUNT_MAX, 'too large');

export const StudioPosInputSchema = z.strictObject({
  name: requiredText(POS_NAME_MAX),
  slug: StationSlugSchema,
  locationId: uuid().nullable().optional(),
});
export type StudioPosInput = z.input<typeof StudioPosInputSchema>;

export const StudioPosAssignSchema = z.strictObject({ deviceId: uuid() });

export const ShiftOpenSchema = z.strictObject({
  /** Made by the till (UUIDv7) so a retried or replayed open is the same shift. */
  id: uuid().optional(),
  float: amount(),
  /** When a station opened it offline (replayed later); the server clamps it to its own now. */
  openedAt: instant().optional(),
});
export type ShiftOpenInput = z.input<typeof ShiftOpenSchema>;

export const CashMovementSchema = z.strictObject({
  id: uuid().optional(),
  kind: z.enum(['in', 'out'], { error: 'choose in or out' }),
  amount: amount().refine((n) => n > 0, 'must be more than zero'),
  reason: text(200).optional(),
  at: instant().optional(),
});
export type CashMovementInput = z.input<typeof CashMovementSchema>;

export const ShiftCloseSchema = z.strictObject({
  counted: amount(),
  note: text(500).optional(),
  /** What the station's fiscal printer answered to the daily report (the browser POS sends none). */
  dailyReport: z.enum(['printed', 'failed', 'noPrinter']).optional(),
  closedAt: instant().optional(),
});
export type ShiftCloseInput = z.input<typeof ShiftCloseSchema>;

export interface StudioPos {
  id: string;
  name: string;
  slug: string;
  location: { id: string; name: string } | null;
  /** The desktop station (a registered sync device) the POS runs on; null: browser only. */
  device: { id: string; name: string; lastSeenAt: string | null } | null;
  assignedAt: string | null;
  /** A fiscal printer is configured for this station slug. */
  fiscalPrinter: boolean;
  /**
   * The station's ESC/POS printer (shift summaries, the drawer): `./ticket-printers.ts`. Always in
   * the cloud's answers; absent where a screen builds a StudioPos from the desk station's own state.
   */
  ticketPrinter?: TicketPrinter;
  openShift: { id: string; openedAt: string; openedBy: string } | null;
}

export interface StudioPosList {
  items: StudioPos[];
  next: string | null;
}

export interface StudioPosInit {
  currency: string;
  locations: { id: string; name: string }[];
  devices: { id: string; name: string; lastSeenAt: string | null; posId: string | null }[];
  /** What the ticket printer editor offers. */
  ticketPrinter: TicketPrinterOptions;
}

export interface CashMovementView {
  id: string;
  kind: 'in' | 'out';
  amount: number;
  reason: string;
  at: string;
  by: string;
}

export interface ShiftView {
  id: string;
  posId: string;
  posName: string;
  status: 'open' | 'closed';
  currency: string;
  openedAt: string;
  openedBy: string;
  closedAt: string | null;
  closedBy: string | null;
  float: number;
  cashSales: number;
  cashRefunds: number;
  cashIn: number;
  cashOut: number;
  expected: number;
  counted: number | null;
  difference: number | null;
  /**
   * Cash of sales that reached the cloud after the close but were made during the shift (a station
   * that was offline): the close's difference does not include it; the back office shows it.
   */
  lateCashSales: number;
  /** Sales at this POS during the shift, and what they took per payment method (spec §3). */
  sales: number;
  byMethod: { method: number; amount: number }[];
  movements: CashMovementView[];
  note: string;
  dailyReport: 'printed' | 'failed' | 'noPrinter' | null;
}

export interface CurrentShift {
  shift: ShiftView | null;
}
