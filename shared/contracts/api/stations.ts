import { z } from 'zod';
import { StationSlugSchema } from './fiscal-printers';
import { requiredText, text, uuid, instant } from './common';
import { TicketPrinterOptionsSchema, TicketPrinterSchema } from './ticket-printers';

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

const IdName = z.object({ id: z.string(), name: z.string() });

export const StudioPosSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  location: IdName.nullable(),
  /** The desktop station (a registered sync device) the POS runs on; null: browser only. */
  device: z.object({ id: z.string(), name: z.string(), lastSeenAt: z.string().nullable() }).nullable(),
  assignedAt: z.string().nullable(),
  /** A fiscal printer is configured for this station slug. */
  fiscalPrinter: z.boolean(),
  /**
   * The station's ESC/POS printer (shift summaries, the drawer): `./ticket-printers.ts`. Always in
   * the cloud's answers; absent where a screen builds a StudioPos from the desk station's own state.
   */
  ticketPrinter: TicketPrinterSchema.optional(),
  openShift: z.object({ id: z.string(), openedAt: z.string(), openedBy: z.string() }).nullable(),
});
export type StudioPos = z.infer<typeof StudioPosSchema>;

export const StudioPosListSchema = z.object({ items: z.array(StudioPosSchema), next: z.string().nullable() });
export type StudioPosList = z.infer<typeof StudioPosListSchema>;

export const StudioPosInitSchema = z.object({
  currency: z.string(),
  locations: z.array(IdName),
  devices: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      lastSeenAt: z.string().nullable(),
      posId: z.string().nullable(),
    }),
  ),
  /** What the ticket printer editor offers. */
  ticketPrinter: TicketPrinterOptionsSchema,
});
export type StudioPosInit = z.infer<typeof StudioPosInitSchema>;

export const CashMovementViewSchema = z.object({
  id: z.string(),
  kind: z.enum(['in', 'out']),
  amount: z.number(),
  reason: z.string(),
  at: z.string(),
  by: z.string(),
});
export type CashMovementView = z.infer<typeof CashMovementViewSchema>;

export const ShiftViewSchema = z.object({
  id: z.string(),
  posId: z.string(),
  posName: z.string(),
  status: z.enum(['open', 'closed']),
  currency: z.string(),
  openedAt: z.string(),
  openedBy: z.string(),
  closedAt: z.string().nullable(),
  closedBy: z.string().nullable(),
  float: z.number(),
  cashSales: z.number(),
  cashRefunds: z.number(),
  cashIn: z.number(),
  cashOut: z.number(),
  expected: z.number(),
  counted: z.number().nullable(),
  difference: z.number().nullable(),
  /**
   * Cash of sales that reached the cloud after the close but were made during the shift (a station
   * that was offline): the close's difference does not include it; the back office shows it.
   */
  lateCashSales: z.number(),
  /** Sales at this POS during the shift, and what they took per payment method (spec §3). */
  sales: z.number(),
  byMethod: z.array(z.object({ method: z.number(), amount: z.number() })),
  movements: z.array(CashMovementViewSchema),
  note: z.string(),
  dailyReport: z.enum(['printed', 'failed', 'noPrinter']).nullable(),
});
export type ShiftView = z.infer<typeof ShiftViewSchema>;

export const CurrentShiftSchema = z.object({ shift: ShiftViewSchema.nullable() });
export type CurrentShift = z.infer<typeof CurrentShiftSchema>;
