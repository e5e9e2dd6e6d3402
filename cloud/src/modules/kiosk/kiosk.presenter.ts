import type { KioskDevice, SmartLock, StudioKiosk } from '../../../../shared/contracts/api/kiosk';
import { ticketPrinterOf } from '../../../../shared/contracts/api/ticket-printers';
import type { Studio } from '../identity/index';
import { kioskUrl, type KioskRow, type SmartLockRow } from './kiosk-admin.service';

const iso = (d: Date | string) => new Date(d).toISOString();

/** A kiosk for the back office; its key only to staff who may edit settings. */
export function presentKiosk(
  row: KioskRow,
  studio: Studio,
  publicUrl: string,
  showKey: boolean,
): StudioKiosk {
  return {
    id: row.id,
    name: row.name,
    isDefault: row.isDefault,
    locationId: row.locationId,
    smartLockId: row.smartLockId,
    settings: row.settings,
    kioskUrl: kioskUrl(publicUrl, studio.id, row.id),
    kioskKey: showKey ? (row.kioskKey ?? studio.kioskKey) : null,
    createdAt: iso(row.createdAt),
    ticketPrinter: ticketPrinterOf(row.ticketPrinter),
  };
}

/** A smart lock; its secret never leaves the server. */
export function presentSmartLock(row: SmartLockRow, kioskIds: string[]): SmartLock {
  return {
    id: row.id,
    name: row.name,
    driver: row.driver,
    config: {
      url: row.config.url,
      method: row.config.method,
      openSeconds: row.config.openSeconds,
      hasSecret: Boolean(row.config.secret),
    },
    lastTest:
      row.lastTestedAt && row.lastTestOk !== null
        ? {
            at: iso(row.lastTestedAt),
            ok: row.lastTestOk,
            message: row.lastTestMessage ?? '',
            reason: row.lastTestReason ?? null,
            httpStatus: row.lastTestStatus ?? null,
          }
        : null,
    kioskIds,
  };
}

/** What a signed-in kiosk device knows about itself. */
export function presentDevice(studio: Studio, kiosk: KioskRow): KioskDevice {
  return {
    id: kiosk.id,
    name: kiosk.name,
    studio: {
      uuid: studio.id,
      name: studio.name,
      timeZone: studio.timeZone,
      defaultLocale: studio.defaultLocale,
    },
    settings: kiosk.settings,
    hasLock: kiosk.smartLockId !== null,
    locationId: kiosk.locationId,
  };
}
