import { z } from 'zod';
import { requiredText, uuid } from '../api/common';

/** `POST /sync/devices` (a staff session): a front-desk station asks for its device token. */
export const RegisterDeviceInputSchema = z.strictObject({
  /** Chosen by the station once (UUIDv7) and kept in its local database. */
  deviceId: uuid(),
  name: requiredText(100),
  /** Needed only when the signed-in staff member works for more than one studio. */
  studioUuid: uuid().optional(),
});
export type RegisterDeviceInput = z.infer<typeof RegisterDeviceInputSchema>;

/** What a device token lets a station read and do; fixed at registration. */
export const DeviceScopeSchema = z.object({
  /** Synced tables the station receives. */
  tables: z.array(z.string()),
  /** Commands (`name@version`) the station may push. */
  commands: z.array(z.string()),
  /** Visits older than this many days are not sent (rolling window). */
  visitsWindowDays: z.number().int().positive(),
});
export type DeviceScope = z.infer<typeof DeviceScopeSchema>;

export const RegisterDeviceResultSchema = z.object({
  /** Secret: `Authorization: Bearer <deviceToken>` on every other /sync route. Shown once. */
  deviceToken: z.string(),
  deviceId: z.string(),
  /** The studio's id; studios have one id, so `studioUuid` is the same value (the spec's name). */
  studioId: z.string(),
  studioUuid: z.string(),
  scope: DeviceScopeSchema,
  serverTime: z.string(),
});
export type RegisterDeviceResult = z.infer<typeof RegisterDeviceResultSchema>;

/** `GET /sync/devices/me` (device token). */
export const DeviceViewSchema = z.object({
  deviceId: z.string(),
  studioId: z.string(),
  name: z.string(),
  scope: DeviceScopeSchema,
  lastMutationSeq: z.number().int(),
  registeredAt: z.string(),
  lastSeenAt: z.string().nullable(),
  serverTime: z.string(),
});
export type DeviceView = z.infer<typeof DeviceViewSchema>;
