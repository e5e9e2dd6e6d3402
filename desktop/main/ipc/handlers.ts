import {
  IPC_CONTRACT,
  isIpcChannel,
  type IpcChannel,
  type IpcOutput,
  type IpcParsedInput,
  type IpcResult,
} from '../../../shared/contracts/ipc';
import { AppError, zodIssuesToFields, type ErrorBody } from '../../../shared/errors';
import { CloudHttpError, CloudUnreachableError } from '../station/cloud-client';
import type { MainServices } from '../station/services';

export type IpcHandlers = {
  [C in IpcChannel]: (input: IpcParsedInput<C>) => Promise<IpcOutput<C>> | IpcOutput<C>;
};

/** Thin handlers: the services do the work; this file only maps channels to them. */
export function createIpcHandlers(services: MainServices): IpcHandlers {
  const { station } = services;
  return {
    appInfo: () => services.info,
    stationState: () => station.state(),
    stationSignIn: (input) => station.signIn(input),
    stationSetPin: ({ pin }) => station.setPin(pin),
    stationSwitchStaff: ({ userId, pin }) => station.switchStaff(userId, pin),
    stationLock: () => station.lock(),
    stationSignOut: () => station.signOut(),
    stationSetLocale: ({ locale }) => station.setLocale(locale),
    apiRequest: (input) => station.forwardApi(input),
    syncStatus: () => station.syncStatus(),
    ...syncNoticeHandlers(services),
    kioskState: () => services.kiosk.state(),
    kioskRequest: (input) => services.kiosk.request(input),
    ...posHandlers(services),
  };
}

/** The point of sale's channels (desktop/main/station/pos.service.ts); 503 without the engine. */
function posHandlers(services: MainServices) {
  const pos = () => {
    if (!services.pos)
      throw new AppError('pos.unavailable', { message: 'the POS needs the station database' });
    return services.pos;
  };
  return {
    posState: () => pos().current(),
    posCatalog: ({ locale }) => pos().catalog(locale),
    posChooseStation: ({ posId }) => pos().chooseStation(posId),
    posOpenShift: ({ float }) => pos().openShift(float),
    posCashMovement: (input) => pos().cashMovement(input),
    posCloseShift: (input) => pos().closeShift(input),
    posSell: (input) => pos().sell(input),
    posOpenDrawer: () => pos().openDrawer(),
    posResolvePending: ({ saleId }) => pos().resolvePending(saleId),
    posConfirmReceipt: async (input) => pos().confirmReceipt(input),
    posSaleOrders: ({ saleId }) => pos().saleOrders(saleId),
    posInvoicePdf: ({ invoiceId }) => pos().invoicePdf(invoiceId),
  } satisfies Pick<IpcHandlers, PosChannel>;
}

type PosChannel = Extract<IpcChannel, `pos${string}`>;

/** The desk's changed outcomes (desktop/main/sync/notices.ts); nothing to show without the engine. */
function syncNoticeHandlers(services: MainServices) {
  return {
    syncNotices: () => ({ items: services.notices?.list() ?? [] }),
    syncNoticeAck: ({ seqs }) => {
      const staff = services.station.state().staff;
      if (!staff)
        throw new AppError('station.notSignedIn', { message: 'nobody is signed in at the station' });
      return { items: services.notices?.acknowledge(seqs, staff.userId) ?? [] };
    },
  } satisfies Pick<IpcHandlers, 'syncNotices' | 'syncNoticeAck'>;
}

export interface DispatchOptions {
  /** Logs what became internal.unexpected (a bug), never sent to the renderer. */
  onBug?: (channel: string, error: unknown) => void;
}

/**
 * The one entry of every IPC call, in Electron and on the host: the input is parsed again with the
 * contract's schema (whatever the renderer claims to have checked), the answer is parsed with the
 * output schema (which also strips anything the contract does not list), and errors become values.
 */
export function createDispatcher(handlers: IpcHandlers, options: DispatchOptions = {}) {
  return async function dispatch(channel: unknown, rawInput: unknown): Promise<IpcResult<unknown>> {
    if (!isIpcChannel(channel)) {
      return failure(new AppError('resource.notFound', { message: 'unknown channel' }));
    }
    const contract = IPC_CONTRACT[channel];
    const parsed = contract.input.safeParse(rawInput ?? {});
    if (!parsed.success) {
      return failure(AppError.invalid(zodIssuesToFields(parsed.error.issues)));
    }
    try {
      const handler = handlers[channel] as (input: unknown) => unknown;
      const value = contract.output.parse(await handler(parsed.data));
      return { ok: true, value };
    } catch (error) {
      if (error instanceof AppError) return failure(error);
      if (error instanceof CloudUnreachableError) {
        // Sign-in or registration with the cloud away: the same answer as a forwarded call's.
        return failure(new AppError('station.cloudUnreachable', { message: 'the cloud cannot be reached' }));
      }
      if (error instanceof CloudHttpError) {
        const body: ErrorBody = error.envelope?.error ?? {
          code: 1999,
          key: 'internal.unexpected',
          message: error.message,
        };
        return { ok: false, status: error.status, error: body };
      }
      options.onBug?.(channel, error);
      return failure(new AppError('internal.unexpected', { message: 'unexpected error' }));
    }
  };
}

export type Dispatch = ReturnType<typeof createDispatcher>;

function failure(error: AppError): IpcResult<never> {
  return { ok: false, status: error.status, error: error.toBody() };
}
