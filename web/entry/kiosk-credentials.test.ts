import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../lib/api-client';
import { KIOSK_CREDENTIALS_KEY, KioskCredentialStore, type CredentialStorage } from './kiosk-credentials';
import { initialKioskState, isRejection, kioskStateAfterFailure } from './kiosk-login';

/** An in-memory Storage, optionally failing every call (blocked storage, quota). */
class FakeStorage implements CredentialStorage {
  readonly items = new Map<string, string>();
  constructor(private readonly failing = false) {}
  getItem(key: string): string | null {
    if (this.failing) throw new DOMException('blocked', 'SecurityError');
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (this.failing) throw new DOMException('full', 'QuotaExceededError');
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    if (this.failing) throw new DOMException('blocked', 'SecurityError');
    this.items.delete(key);
  }
}

const credentials = { uuid: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', kioskKey: 'secret-key' };

describe('KioskCredentialStore (spec §3, §9: local storage under a reverse-domain prefix)', () => {
  it('uses the reverse-domain key', () => {
    expect(KIOSK_CREDENTIALS_KEY).toBe('studio.platform.kiosk.credentials');
  });

  it('saves, loads and clears', () => {
    const storage = new FakeStorage();
    const store = new KioskCredentialStore(storage);
    expect(store.load()).toBeNull();
    expect(store.save({ uuid: ` ${credentials.uuid} `, kioskKey: 'secret-key ' })).toBe(true);
    expect(JSON.parse(storage.items.get(KIOSK_CREDENTIALS_KEY)!)).toEqual(credentials);
    expect(store.load()).toEqual(credentials);
    store.clear();
    expect(store.load()).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it.each([
    'not json',
    '{"uuid":"x"}',
    '{"uuid":"","kioskKey":"k"}',
    '[]',
    'null',
    '{"uuid":1,"kioskKey":2}',
  ])('drops a damaged entry %j', (raw) => {
    const storage = new FakeStorage();
    storage.items.set(KIOSK_CREDENTIALS_KEY, raw);
    expect(new KioskCredentialStore(storage).load()).toBeNull();
    expect(storage.items.has(KIOSK_CREDENTIALS_KEY)).toBe(false);
  });

  it('works without storage, or with storage that throws', () => {
    for (const storage of [null, new FakeStorage(true)]) {
      const store = new KioskCredentialStore(storage);
      expect(store.save(credentials)).toBe(false);
      expect(store.load()).toBeNull();
      expect(() => store.clear()).not.toThrow();
    }
  });
});

describe('kiosk login states (spec §4)', () => {
  it('stored credentials authenticate at once; none: the form', () => {
    expect(initialKioskState(credentials)).toEqual({ status: 'loading', credentials });
    expect(initialKioskState(null)).toEqual({ status: 'unauthorized', credentials: null, rejected: false });
  });

  it('403 (and 400): unauthorized with the failed values; anything else: error with its code', () => {
    const forbidden = new ApiError(403, {
      error: { code: 1106, key: 'auth.kioskInvalid', message: 'invalid uuid or kiosk key' },
    });
    expect(isRejection(forbidden)).toBe(true);
    expect(kioskStateAfterFailure(forbidden, credentials)).toEqual({
      status: 'unauthorized',
      credentials,
      rejected: true,
    });
    expect(kioskStateAfterFailure(new ApiError(400, null), credentials).status).toBe('unauthorized');
    expect(
      kioskStateAfterFailure(
        new ApiError(500, { error: { code: 1999, key: 'internal' as never, message: 'x' } }),
        credentials,
      ),
    ).toEqual({ status: 'error', credentials, code: '500-1999' });
    expect(kioskStateAfterFailure(new NetworkError('offline'), credentials)).toEqual({
      status: 'error',
      credentials,
      code: '100-100',
    });
    expect(isRejection(new NetworkError('offline'))).toBe(false);
  });
});
