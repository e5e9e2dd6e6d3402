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
] as const;

export type IpcChannelName = (typeof IPC_CHANNELS)[number];

/** Electron channel name of a contract entry (a prefix keeps ours apart from Electron's own). */
export const ipcChannelName = (channel: IpcChannelName) => `studio:${channel}`;
