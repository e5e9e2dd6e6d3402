import { describe, expect, it } from 'vitest';
import type { SignupStudio, StudioCreateResult } from '../../shared/contracts/api/entry';
import { INITIAL_SIGNUP_STATE, signupStudioLogo, signupTransition, type SignupState } from './signup-flow';

const studio = (logos: { appearance?: string; settings?: string; logoUrl?: string } = {}): SignupStudio => ({
  uuid: 'u-1',
  name: 'Harmonia',
  logoUrl: logos.logoUrl ?? null,
  rootSearchAddress: '',
  appearance: { defaultLogo: logos.appearance ? { absoluteUrl: logos.appearance } : null },
  settings: { defaultLogo: logos.settings ? { absoluteUrl: logos.settings } : null },
  frontOfficeLink: 'http://localhost/u-1/frontoffice',
});
const result = { backofficeUrl: 'http://localhost/u-2/backoffice' } as StudioCreateResult;

describe('sign-up states (spec §2, §4)', () => {
  it('signup with bullets and the existence check first', () => {
    expect(INITIAL_SIGNUP_STATE).toEqual({ step: 'signup', showBullets: true, checkExisting: true });
  });

  it('signup → studioAlreadyExists → (Create account) signup without bullets and without the check', () => {
    const exists = signupTransition(INITIAL_SIGNUP_STATE, { type: 'existingFound', studios: [studio()] });
    expect(exists).toEqual({ step: 'studioAlreadyExists', studios: [studio()] });
    const again = signupTransition(exists, { type: 'createAccount' });
    expect(again).toEqual({ step: 'signup', showBullets: false, checkExisting: false });
    // No further existence check: a late "found" cannot send the form back.
    expect(signupTransition(again, { type: 'existingFound', studios: [studio()] })).toBe(again);
    expect(signupTransition(again, { type: 'created', emailAddress: 'a@b.pl', result })).toEqual({
      step: 'success',
      emailAddress: 'a@b.pl',
      result,
    });
  });

  it('signup → success', () => {
    expect(
      signupTransition(INITIAL_SIGNUP_STATE, { type: 'created', emailAddress: 'a@b.pl', result }).step,
    ).toBe('success');
  });

  it('ignores events that do not belong to the state', () => {
    const success: SignupState = { step: 'success', emailAddress: 'a@b.pl', result };
    expect(signupTransition(success, { type: 'createAccount' })).toBe(success);
    expect(signupTransition(INITIAL_SIGNUP_STATE, { type: 'createAccount' })).toBe(INITIAL_SIGNUP_STATE);
    expect(signupTransition(INITIAL_SIGNUP_STATE, { type: 'existingFound', studios: [] })).toBe(
      INITIAL_SIGNUP_STATE,
    );
  });

  it('logo: appearance, then settings, then logoUrl, else none', () => {
    expect(signupStudioLogo(studio({ appearance: 'a', settings: 's', logoUrl: 'l' }))).toBe('a');
    expect(signupStudioLogo(studio({ settings: 's', logoUrl: 'l' }))).toBe('s');
    expect(signupStudioLogo(studio({ logoUrl: 'l' }))).toBe('l');
    expect(signupStudioLogo(studio())).toBeNull();
  });
});
