import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KioskDoorSchema, type KioskDoor } from '../../../shared/contracts/api/kiosk';
import {
  HttpRelayDriver,
  type SmartLockAnswer,
  type SmartLockDriver,
} from '../../../shared/domain/smart-locks/http-relay';
import type { SecretBox } from '../station/station-store';

export const KIOSK_DOOR_FILE = 'kiosk-door.json';

export type DoorLock = NonNullable<KioskDoor['lock']>;

/**
 * The key that seals the door's relay at rest: HKDF-SHA256 of the station's device token (the secret
 * the cloud gave this station at registration), salted with the kiosk's id. The file is useless on
 * another station, after the station registers again (a new token) or for another kiosk; on Electron
 * it is sealed once more with the OS's safeStorage (DPAPI / Keychain), like station.json.
 */
function doorKey(deviceToken: string, kioskId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', deviceToken, kioskId, 'studio-desk kiosk door v1', 32));
}

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
export function sealDoor(lock: DoorLock, deviceToken: string, kioskId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', doorKey(deviceToken, kioskId), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(lock), 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The lock, or null when the seal does not open with this token and kiosk (or was tampered with). */
export function openSealedDoor(sealed: string, deviceToken: string, kioskId: string): DoorLock | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      doorKey(deviceToken, kioskId),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
    const parsed = KioskDoorSchema.shape.lock.safeParse(JSON.parse(plain.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The kiosk's door while the cloud is away (desktop/README.md "The door offline"): the relay of this
 * kiosk's own lock as the cloud last gave it to this station (`GET kiosk/door`, device token + kiosk
 * session), kept sealed in `kiosk-door.json` (0600), and opened through the same HTTP relay protocol
 * the cloud uses (shared/domain/smart-locks). Only after the check-in or entry is durable.
 */
export class KioskDoorKeeper {
  constructor(
    private readonly options: {
      dataDir: string;
      secretBox?: SecretBox | null;
      driver?: SmartLockDriver;
    },
  ) {}

  private get file(): string {
    return path.join(this.options.dataDir, KIOSK_DOOR_FILE);
  }

  /** Keeps the relay (null: the kiosk has no lock any more, the file goes). */
  store(lock: DoorLock | null, deviceToken: string, kioskId: string): void {
    if (!lock) return this.forget();
    const sealed = sealDoor(lock, deviceToken, kioskId);
    const text = JSON.stringify(
      this.options.secretBox ? { box: this.options.secretBox.encrypt(sealed) } : { sealed },
    );
    mkdirSync(this.options.dataDir, { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, this.file);
  }

  forget(): void {
    rmSync(this.file, { force: true });
  }

  /** The kept relay for this kiosk, or null (none kept, or it does not open with this token). */
  load(deviceToken: string | null, kioskId: string): DoorLock | null {
    if (!deviceToken) return null;
    try {
      const raw = JSON.parse(readFileSync(this.file, 'utf8')) as { sealed?: string; box?: string };
      const sealed =
        typeof raw.box === 'string' && this.options.secretBox
          ? this.options.secretBox.decrypt(raw.box)
          : raw.sealed;
      return typeof sealed === 'string' ? openSealedDoor(sealed, deviceToken, kioskId) : null;
    } catch {
      return null;
    }
  }

  /** Opens the door through its relay: `opened`, `failed` (no answer / refused), `none` (no lock kept). */
  async open(
    deviceToken: string | null,
    kioskId: string,
    context: { reason: 'checkIn' | 'entry'; clientId: string },
  ): Promise<'opened' | 'failed' | 'none'> {
    const lock = this.load(deviceToken, kioskId);
    if (!lock) return 'none';
    const answer: SmartLockAnswer = await (this.options.driver ?? new HttpRelayDriver()).open(
      { id: lock.id, driver: lock.driver, config: lock.config },
      context,
    );
    if (!answer.ok) console.warn(`[kiosk] the door did not open: ${answer.message}`);
    return answer.ok ? 'opened' : 'failed';
  }
}
