import { z } from 'zod';

/**
 * The desktop in kiosk mode (desktop/README.md "Kiosk mode"). The web kiosk's calls
 * (`/api/v4/{uuid}/kiosk/…`) go to main over `kioskRequest`, in the same request/response shape as
 * `apiRequest` (the entries are in index.ts, next to those schemas); main keeps the kiosk session and answers offline from the station's mirror.
 */
export const KioskStationStateSchema = z.object({
  /** `kiosk`: the station runs the kiosk screens full screen (DESKTOP_MODE=kiosk). */
  mode: z.enum(['desk', 'kiosk']),
  /** Staff registered the station once (its sync engine runs): the kiosk can work offline. */
  stationReady: z.boolean(),
  kioskId: z.string().nullable(),
  signedIn: z.boolean(),
  /** A ticket printer is configured at this station. */
  ticketPrinter: z.boolean(),
});
export type KioskStationState = z.infer<typeof KioskStationStateSchema>;
