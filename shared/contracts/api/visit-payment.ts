import { z } from 'zod';
import { MyVisitSchema } from './bookings';
import { uuid } from './common';

/**
 * A client paying a visit booked "to pay at the desk" (front office "My visits"), see
 * cloud/src/modules/bookings/README.md ("Paying a visit online"):
 * - `POST /api/v4/{uuid}/client-visits/pay-options` (VisitPayOptionsInput → VisitPayOptions): what
 *   would pay it — passes and memberships the client holds that cover the class, and the pricing
 *   options sold online that would cover it if bought now (the same entitlement rules as booking);
 * - `POST /api/v4/{uuid}/client-visits/pay-with-pass` (VisitPayWithPassInput → MyVisitView): pays it
 *   now with a held pass (or, without one named, with what the booking rule chooses);
 * - buying one of the options: `shopping-cart/prepare` with `{ type: pricingOption, id, forVisitId }`,
 *   then the normal checkout; the order's fulfilment pays the visit with the new pass.
 */

export const VisitPayOptionsInputSchema = z.strictObject({ clientVisitId: uuid() });
export type VisitPayOptionsInput = z.infer<typeof VisitPayOptionsInputSchema>;

export const VisitPayWithPassInputSchema = z.strictObject({
  clientVisitId: uuid(),
  /** A pass the client holds; without it the booking rule chooses (a covering membership first). */
  clientPricingOptionId: uuid().optional(),
});
export type VisitPayWithPassInput = z.infer<typeof VisitPayWithPassInputSchema>;

const LocaleText = z.record(z.string(), z.object({ value: z.string() }));

export const HeldEntitlementSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('pass'),
    id: z.string(),
    name: LocaleText,
    /** Entries left before this visit; null = unlimited. */
    entriesLeft: z.number().nullable(),
    expiresAt: z.string().nullable(),
  }),
  z.object({ kind: z.literal('contract'), id: z.string(), name: LocaleText }),
]);
export type HeldEntitlement = z.infer<typeof HeldEntitlementSchema>;

export const CoveringPricingOptionSchema = z.object({
  id: z.string(),
  name: LocaleText,
  description: LocaleText,
  /** The price today (a running promotion's), minor units. */
  price: z.number(),
  currency: z.string(),
  entries: z.number().nullable(),
  expirationType: z.number(),
  validityCount: z.number().nullable(),
  validityUnit: z.string().nullable(),
  validUntil: z.string().nullable(),
});
export type CoveringPricingOption = z.infer<typeof CoveringPricingOptionSchema>;

export const VisitPayOptionsSchema = z.object({
  visit: MyVisitSchema,
  held: z.array(HeldEntitlementSchema),
  pricingOptions: z.array(CoveringPricingOptionSchema),
  /** The studio takes online payments (an enabled provider). */
  onlinePayment: z.boolean(),
});
export type VisitPayOptions = z.infer<typeof VisitPayOptionsSchema>;

/**
 * `GET /api/v4/{uuid}/schedule-event/{scheduleEvent}/covering-pricing-options?clientId=` (staff,
 * issue 26): the passes sold at the desk that would cover this class for this client — what the
 * desk offers to sell when enrolling them is refused with `visit.noPass`.
 */
export const DeskCoveringOptionsQuerySchema = z.strictObject({ clientId: uuid() });
export const DeskCoveringOptionsSchema = z.object({ items: z.array(CoveringPricingOptionSchema) });
export type DeskCoveringOptions = z.infer<typeof DeskCoveringOptionsSchema>;
