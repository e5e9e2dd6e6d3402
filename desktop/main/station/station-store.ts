import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_LOCALE, LOCALES } from '../../../shared/i18n/locales';

/**
 * What the station keeps between runs, in one file only main reads: the device token, the cloud
 * sessions of the staff who signed in here and their PIN hashes. The renderer never sees any of it
 * (the IPC contract's StationState has no secret field, and outputs are parsed, which drops extras).
 */
const StoredStaffSchema = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailAddress: z.string(),
  /** The cloud session opened by this person's full sign-in here. */
  sessionId: z.string(),
  csrfToken: z.string(),
  pinHash: z.string().nullable(),
  failedPins: z.number().int().nonnegative(),
  signedInAt: z.string(),
});
export type StoredStaff = z.infer<typeof StoredStaffSchema>;

const StoredDeviceSchema = z.object({
  deviceId: z.string(),
  name: z.string(),
  studioUuid: z.string(),
  studioName: z.string(),
  /** Null while the cloud has no device registration endpoint yet (registration is retried). */
  deviceToken: z.string().nullable(),
  scope: z.unknown().optional(),
  registeredAt: z.string(),
});
export type StoredDevice = z.infer<typeof StoredDeviceSchema>;

export const StationFileSchema = z.object({
  version: z.literal(1),
  device: StoredDeviceSchema.nullable(),
  staff: z.array(StoredStaffSchema),
  currentUserId: z.string().nullable(),
  locale: z.enum(LOCALES),
});
export type StationFile = z.infer<typeof StationFileSchema>;

/** Encrypts the file at rest (Electron: safeStorage, i.e. DPAPI / Keychain). Absent on the host. */
export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export const STATION_FILE_NAME = 'station.json';

export function emptyStation(): StationFile {
  return { version: 1, device: null, staff: [], currentUserId: null, locale: DEFAULT_LOCALE };
}

export class StationStore {
  readonly file: string;

  constructor(
    readonly dir: string,
    private readonly box: SecretBox | null = null,
  ) {
    this.file = path.join(dir, STATION_FILE_NAME);
  }

  load(): StationFile {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return emptyStation();
    }
    const raw = JSON.parse(text) as unknown;
    const inner =
      raw && typeof raw === 'object' && 'sealed' in raw && typeof raw.sealed === 'string'
        ? (JSON.parse(this.requireBox().decrypt(raw.sealed)) as unknown)
        : raw;
    return StationFileSchema.parse(inner);
  }

  /** Atomic write (temp file + rename), owner-only permissions on the file and its folder. */
  save(data: StationFile): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const json = JSON.stringify(StationFileSchema.parse(data));
    const text = this.box ? JSON.stringify({ sealed: this.box.encrypt(json) }) : json;
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }

  clear(): void {
    rmSync(this.file, { force: true });
  }

  private requireBox(): SecretBox {
    if (!this.box) throw new Error(`${this.file} is encrypted but no SecretBox was given`);
    return this.box;
  }
}
