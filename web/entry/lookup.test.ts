import { describe, expect, it } from 'vitest';
import type { EntryStudio } from '../../shared/contracts/api/entry';
import { lookupOutcome, studioLoginHref } from './lookup';

const studio = (n: number): EntryStudio => ({
  uuid: `0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5${n}`,
  name: `Studio ${n}`,
  logoUrl: null,
  rootSearchAddress: '',
});

describe('lookupOutcome (login and delete)', () => {
  it('no studio, or isValid false: none', () => {
    expect(lookupOutcome('login', 'a@b.pl', { isValid: false, studios: [] })).toEqual({ kind: 'none' });
    expect(lookupOutcome('login', 'a@b.pl', { isValid: true, studios: [] })).toEqual({ kind: 'none' });
  });

  it('one studio on /login: its front-office login with the email and the show-login-form flag', () => {
    const outcome = lookupOutcome('login', 'anna@example.com', { isValid: true, studios: [studio(1)] });
    expect(outcome).toEqual({
      kind: 'one',
      studio: studio(1),
      href: `/${studio(1).uuid}/frontoffice/login?username=anna%40example.com&showLoginForm=1`,
    });
  });

  it('one studio on /delete: the same plus the profile-deletion target', () => {
    const outcome = lookupOutcome('delete', 'anna@example.com', { isValid: true, studios: [studio(1)] });
    expect(outcome.kind === 'one' && outcome.href).toBe(
      `/${studio(1).uuid}/frontoffice/login?username=anna%40example.com&showLoginForm=1&redirectAfterLogin=profile%2Fdelete`,
    );
  });

  it('several studios: the picker, in the order of the answer', () => {
    expect(lookupOutcome('login', 'a@b.pl', { isValid: true, studios: [studio(2), studio(1)] })).toEqual({
      kind: 'several',
      studios: [studio(2), studio(1)],
    });
  });

  it('studioLoginHref encodes the email', () => {
    expect(studioLoginHref('login', 'u', 'a+b@c.pl')).toBe(
      '/u/frontoffice/login?username=a%2Bb%40c.pl&showLoginForm=1',
    );
  });
});
