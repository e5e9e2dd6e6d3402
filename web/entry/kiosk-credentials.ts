/**
 * Kiosk credentials kept on the device (spec §3 "Kiosk credentials (uuid, kioskKey) are stored on
 * the device", §9 "kept in local storage under a reverse-domain prefix"), so a kiosk that restarts
 * signs itself in again without anyone typing the key.
 */
export const KIOSK_STORAGE_PREFIX = 'studio.platform.kiosk';
export const KIOSK_CREDENTIALS_KEY = `${KIOSK_STORAGE_PREFIX}.credentials`;

export interface KioskCredentials {
  uuid: string;
  kioskKey: string;
}

export type CredentialStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function isCredentials(value: unknown): value is KioskCredentials {
  if (typeof value !== 'object' || value === null) return false;
  const { uuid, kioskKey } = value as Record<string, unknown>;
  return (
    typeof uuid === 'string' && uuid.trim() !== '' && typeof kioskKey === 'string' && kioskKey.trim() !== ''
  );
}

/**
 * Reads and writes the credentials. Storage may be missing or throw (private mode, disabled storage,
 * quota): the kiosk then simply asks for the key each time; a damaged entry is removed.
 */
export class KioskCredentialStore {
  constructor(private readonly storage: CredentialStorage | null) {}

  load(): KioskCredentials | null {
    let raw: string | null;
    try {
      raw = this.storage?.getItem(KIOSK_CREDENTIALS_KEY) ?? null;
    } catch {
      return null;
    }
    if (raw === null) return null;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isCredentials(parsed)) return { uuid: parsed.uuid.trim(), kioskKey: parsed.kioskKey.trim() };
    } catch {
      // fall through: not JSON
    }
    this.clear();
    return null;
  }

  save(credentials: KioskCredentials): boolean {
    try {
      if (!this.storage) return false;
      this.storage.setItem(
        KIOSK_CREDENTIALS_KEY,
        JSON.stringify({ uuid: credentials.uuid.trim(), kioskKey: credentials.kioskKey.trim() }),
      );
      return true;
    } catch {
      return false;
    }
  }

  clear(): void {
    try {
      this.storage?.removeItem(KIOSK_CREDENTIALS_KEY);
    } catch {
      // nothing stored that we could reach
    }
  }
}

/** window.localStorage, or null where reading it throws (blocked storage). */
export function browserLocalStorage(): CredentialStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}
