import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from './redirect';

const BASE = '/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/frontoffice';

describe('safeRedirectTarget', () => {
  it.each([
    ['profile/delete', '/profile/delete'],
    ['/profile/delete', '/profile/delete'],
    [`${BASE}/profile/delete`, '/profile/delete'],
    [BASE, '/'],
    ['schedule?week=2', '/schedule?week=2'],
  ])('accepts %s', (raw, expected) => {
    expect(safeRedirectTarget(raw, BASE)).toBe(expected);
  });

  it.each([
    null,
    '',
    'https://evil.example/profile',
    '//evil.example/profile',
    '/\\evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    '../../other-studio/frontoffice',
    '/profile/../../backoffice',
    '/%2e%2e/backoffice',
    '/profile%2fdelete',
    'profile\n/delete',
    'data:text/html,hi',
  ])('rejects %s', (raw) => {
    expect(safeRedirectTarget(raw, BASE)).toBeNull();
  });
});
