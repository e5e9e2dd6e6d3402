import { z } from 'zod';
import { LOCALES } from '../../i18n/locales';
import type { ErrorBody } from '../../errors/app-error';
import { email, requiredText, uuid } from '../api/common';
import type { IpcChannelName } from './channels';
import { KioskStationStateSchema } from './kiosk';
import { POS_IPC_CONTRACT } from './pos';
import { SYNC_NOTICES_IPC_CONTRACT } from './sync-notices';

export { IPC_CHANNELS, ipcChannelName } from './channels';
export * from './pos';
export * from './sync-notices';
export * from './kiosk';

/**
 * The desktop IPC contract: one map from channel to its input and output schemas. The preload
 * exposes exactly one method per key (`window.api[channel](input)`), main re-validates every input
 * with the same schema, and the host carries the same map over HTTP for Playwright. Nothing crosses
 * the bridge that is not listed here.
 */

const empty = z.strictObject({});

/** A person of staff as the station knows them (no secrets: never the session id or PIN hash). */
export const StationStaffSchema = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailAddress: z.string(),
  hasPin: z.boolean(),
});
export type StationStaff = z.infer<typeof StationStaffSchema>;

export const StationStateSchema = z.object({
  /** The station holds a device token: it was signed in once and registered with the cloud. */
  registered: z.boolean(),
  device: z
    .object({
      deviceId: z.string(),
      name: z.string(),
      studioUuid: z.string(),
      studioName: z.string(),
      registeredAt: z.string(),
    })
    .nullable(),
  /** Who works at the station now; null = locked (sign-in or PIN needed). */
  staff: StationStaffSchema.nullable(),
  /** Everyone who set a PIN on this station: the quick switch offers them. */
  switchable: z.array(StationStaffSchema),
  locale: z.enum(LOCALES),
});
export type StationState = z.infer<typeof StationStateSchema>;

export const PinSchema = z.string().regex(/^\d{4,8}$/, 'pin must be 4 to 8 digits');

export const StationSignInInputSchema = z.strictObject({
  emailAddress: email(),
  password: z.string().min(1, 'required').max(200),
  /** Only before registration, when the person is staff of more than one studio. */
  studioUuid: uuid().optional(),
  /** Only before registration: the name the back office will show for this device. */
  stationName: requiredText(80).optional(),
});
export type StationSignInInput = z.infer<typeof StationSignInInputSchema>;

export const StationSignInResultSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('signedIn'), state: StationStateSchema }),
  /** Staff of several studios signing in on a new station: pick the studio, then sign in again. */
  z.object({
    outcome: z.literal('chooseStudio'),
    studios: z.array(z.object({ studioUuid: z.string(), studioName: z.string() })),
  }),
]);
export type StationSignInResult = z.infer<typeof StationSignInResultSchema>;

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * One API call forwarded by main to the cloud with the station's credentials. `path` is the part
 * after `/api/` (e.g. `v4/{uuid}/client/list`), already normalised by the renderer; main checks it
 * again and only forwards calls of the station's own studio.
 */
export const ApiRequestInputSchema = z.strictObject({
  method: z.enum(HTTP_METHODS),
  path: z
    .string()
    .min(1)
    .max(2000)
    .regex(/^v[24]\/[A-Za-z0-9._~\-/%]*(\?[^#\s]*)?$/, 'invalid api path'),
  /** JSON text of the body, as fetch would send it. */
  body: z.string().max(5_000_000).optional(),
  accept: z.string().max(300).optional(),
});
export type ApiRequestInput = z.infer<typeof ApiRequestInputSchema>;

export const ApiResponseSchema = z.object({
  status: z.number().int(),
  contentType: z.string().nullable(),
  contentDisposition: z.string().nullable(),
  /** utf8 for JSON and text, base64 for anything else (XLSX exports). */
  encoding: z.enum(['utf8', 'base64']),
  body: z.string(),
});
export type ApiResponse = z.infer<typeof ApiResponseSchema>;

export const SyncStatusSchema = z.object({
  /** The cloud answered recently. */
  online: z.boolean(),
  /** Changes recorded here and not yet acknowledged by the cloud; null while no sync engine runs. */
  pending: z.number().int().nonnegative().nullable(),
  lastSyncAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type SyncStatus = z.infer<typeof SyncStatusSchema>;

export const AppInfoSchema = z.object({
  version: z.string(),
  /** `electron` in the app, `host` under desktop/host (Node + Chromium). */
  runtime: z.enum(['electron', 'host']),
  platform: z.string(),
  cloudUrl: z.string(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const IPC_CONTRACT = {
  appInfo: { input: empty, output: AppInfoSchema },
  stationState: { input: empty, output: StationStateSchema },
  stationSignIn: { input: StationSignInInputSchema, output: StationSignInResultSchema },
  stationSetPin: { input: z.strictObject({ pin: PinSchema }), output: StationStateSchema },
  stationSwitchStaff: {
    input: z.strictObject({ userId: uuid(), pin: PinSchema }),
    output: StationStateSchema,
  },
  stationLock: { input: empty, output: StationStateSchema },
  stationSignOut: { input: empty, output: StationStateSchema },
  stationSetLocale: { input: z.strictObject({ locale: z.enum(LOCALES) }), output: StationStateSchema },
  apiRequest: { input: ApiRequestInputSchema, output: ApiResponseSchema },
  syncStatus: { input: empty, output: SyncStatusSchema },
  ...SYNC_NOTICES_IPC_CONTRACT,
  // Kiosk mode (./kiosk.ts): the web kiosk's calls, answered by main (online or from the mirror).
  kioskState: { input: empty, output: KioskStationStateSchema },
  kioskRequest: { input: ApiRequestInputSchema, output: ApiResponseSchema },
  ...POS_IPC_CONTRACT,
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export type IpcContract = typeof IPC_CONTRACT;
export type IpcChannel = keyof IpcContract;
export type IpcInput<C extends IpcChannel> = z.input<IpcContract[C]['input']>;
export type IpcParsedInput<C extends IpcChannel> = z.output<IpcContract[C]['input']>;
export type IpcOutput<C extends IpcChannel> = z.output<IpcContract[C]['output']>;

// The zod-free channel list (channels.ts) and the contract's keys must be the same set.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const channelsMatchContract: Same<IpcChannel, IpcChannelName> = true;
void channelsMatchContract;

/**
 * What every channel answers. Errors travel as values: Electron keeps only the message of a thrown
 * error, and the renderer needs the envelope (code, key, field errors) the web screens understand.
 */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; status: number; error: ErrorBody };

/** `window.api` in the renderer: one method per contract entry, nothing else. */
export type DesktopApi = {
  [C in IpcChannel]: (input: IpcInput<C>) => Promise<IpcResult<IpcOutput<C>>>;
};

export function isIpcChannel(value: unknown): value is IpcChannel {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(IPC_CONTRACT, value);
}
