import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import en from '../../locales/en/kiosk.json';
import pl from '../../locales/pl/kiosk.json';
import { ApiError } from '../lib/api-client';
import { kioskErrorMessage } from './kiosk-messages';

const t = ((key: string) => key) as unknown as TFunction;

describe('kiosk messages', () => {
  it('explains the lock-out after too many identification attempts, in EN and PL', () => {
    const locked = new ApiError(429, {
      error: { code: 1300, key: 'rateLimit.exceeded', message: 'too many requests, try again later' },
    });
    expect(kioskErrorMessage(locked, t)).toBe('errors.tooManyAttempts');
    expect(en.errors.tooManyAttempts).toMatch(/too many attempts/i);
    expect(pl.errors.tooManyAttempts).toMatch(/zbyt wiele prób/i);
  });
});
