import {
  KioskCredentialStore,
  browserLocalStorage,
  type CredentialStorage,
} from '../entry/kiosk-credentials';

const PREFIX = 'studio.platform.kiosk';

/**
 * What a kiosk device keeps in local storage (spec §9, reverse-domain prefix): the studio's uuid and
 * kiosk key (the entry app's `/kiosk` writes them; so does a set-up QR code) and, per kiosk, its
 * session token, so a restarted kiosk is back at once.
 */
export class KioskDeviceStore {
  private readonly credentials: KioskCredentialStore;

  constructor(private readonly storage: CredentialStorage | null = browserLocalStorage()) {
    this.credentials = new KioskCredentialStore(storage);
  }

  /** The key stored for this kiosk: its own (QR set-up), else the studio's from `/kiosk`. */
  keyFor(uuid: string, kioskId: string): string | null {
    const own = this.read(`${PREFIX}.key.${kioskId}`);
    if (own) return own;
    const stored = this.credentials.load();
    return stored && stored.uuid === uuid ? stored.kioskKey : null;
  }

  saveKey(uuid: string, kioskId: string, key: string): void {
    this.write(`${PREFIX}.key.${kioskId}`, key);
    void uuid;
  }

  forgetKey(uuid: string, kioskId: string): void {
    this.write(`${PREFIX}.key.${kioskId}`, null);
    const stored = this.credentials.load();
    if (stored && stored.uuid === uuid) this.credentials.clear();
  }

  token(kioskId: string): string | null {
    return this.read(`${PREFIX}.session.${kioskId}`);
  }

  saveToken(kioskId: string, token: string | null): void {
    this.write(`${PREFIX}.session.${kioskId}`, token);
  }

  private read(key: string): string | null {
    try {
      return this.storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  private write(key: string, value: string | null): void {
    try {
      if (value === null) this.storage?.removeItem(key);
      else this.storage?.setItem(key, value);
    } catch {
      // storage unavailable: the kiosk asks for its key next time
    }
  }
}

/** `/{uuid}/kiosk/{kioskId}` → its parts; the key a set-up QR code put in the fragment (`#key=`). */
export function kioskLocation(loc: Pick<Location, 'pathname' | 'hash'>): {
  uuid: string;
  kioskId: string;
  keyFromLink: string | null;
} {
  const [uuid = '', , kioskId = ''] = loc.pathname.split('/').filter(Boolean);
  const match = /(?:^#|&)key=([^&]+)/.exec(loc.hash);
  return { uuid, kioskId, keyFromLink: match ? decodeURIComponent(match[1]!) : null };
}
