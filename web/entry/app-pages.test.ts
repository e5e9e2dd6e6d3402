import { describe, expect, it } from 'vitest';
import { accountChoices, fileTarget } from './app-pages';

describe('/app/file target', () => {
  it.each([
    ['?url=/api/v4/s/invoice/1/pdf&name=FV%201.pdf', { url: '/api/v4/s/invoice/1/pdf', name: 'FV 1.pdf' }],
    ['?url=/api/v4/s/studio-document/9/file', { url: '/api/v4/s/studio-document/9/file', name: 'file' }],
  ])('accepts a path of this site %s', (search, expected) => {
    expect(fileTarget(search)).toEqual(expected);
  });

  it.each([
    '',
    '?url=https://evil.example/x',
    '?url=//evil.example/x',
    '?url=/\\evil.example',
    '?url=/api/../x',
    '?url=/api/%2e%2e/x',
    '?url=javascript:alert(1)',
  ])('refuses %s', (search) => {
    expect(fileTarget(search)).toBeNull();
  });
});

describe('/app/switch-account choices', () => {
  it('lists each back office and each client zone, by studio name', () => {
    const m = (studioUuid: string, studioName: string, isMember: boolean, isClient: boolean) => ({
      studioUuid,
      studioName,
      isMember,
      isClient,
      role: null,
    });
    const choices = accountChoices({
      memberships: [m('b', 'Yoga Bis', false, true), m('a', 'Aerial', true, true)] as never,
    });
    expect(choices.map((c) => [c.kind, c.studioName, c.href])).toEqual([
      ['backoffice', 'Aerial', '/a/backoffice'],
      ['frontoffice', 'Aerial', '/a/frontoffice'],
      ['frontoffice', 'Yoga Bis', '/b/frontoffice'],
    ]);
  });
});
