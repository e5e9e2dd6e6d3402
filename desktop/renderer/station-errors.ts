/** Station error keys (shared/errors, codes 2250–2257) → what the screens say. */
export const STATION_ERROR_MESSAGES: Record<string, string> = {
  'auth.invalidCredentials': 'common:errors.invalidCredentials',
  'station.wrongPin': 'desktop:errors.wrongPin',
  'station.pinLocked': 'desktop:errors.pinLocked',
  'station.unknownStaff': 'desktop:errors.unknownStaff',
  'station.cloudUnreachable': 'desktop:errors.cloudUnreachable',
  'station.notStaffHere': 'desktop:errors.notStaffHere',
  'station.notSignedIn': 'desktop:errors.notSignedIn',
  'station.notRegistered': 'desktop:errors.notRegistered',
  'station.pathNotAllowed': 'desktop:errors.pathNotAllowed',
};
