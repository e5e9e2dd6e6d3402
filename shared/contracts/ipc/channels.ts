/**
 * The channel names of the IPC contract, without their schemas. The sandboxed preload imports only
 * this file (a sandboxed preload can require nothing but `electron`, so it must not pull in zod);
 * `index.ts` checks at compile time that this list and the contract's keys are the same set.
 */
export const IPC_CHANNELS = [
  'appInfo',
  'stationState',
  'stationSignIn',
  'stationSetPin',
  'stationSwitchStaff',
  'stationLock',
  'stationSignOut',
  'stationSetLocale',
  'apiRequest',
  'syncStatus',
  // Outcomes that came back different from the desk's offline guess (shared/contracts/ipc/sync-notices.ts).
  'syncNotices',
  'syncNoticeAck',
  // Kiosk mode (shared/contracts/ipc/kiosk.ts).
  'kioskState',
  'kioskRequest',
  // The point of sale (shared/contracts/ipc/pos.ts).
  'posState',
  'posCatalog',
  'posChooseStation',
  'posOpenShift',
  'posCashMovement',
  'posCloseShift',
  'posSell',
  'posOpenDrawer',
  'posResolvePending',
  'posConfirmReceipt',
  'posSaleOrders',
  'posInvoicePdf',
] as const;

export type IpcChannelName = (typeof IPC_CHANNELS)[number];

/** Electron channel name of a contract entry (a prefix keeps ours apart from Electron's own). */
export const ipcChannelName = (channel: IpcChannelName) => `studio:${channel}`;
