import { describe, expect, it } from 'vitest';
import { afterLogin } from './login-destinations';

const HERE = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const m = (studioUuid: string, isClient: boolean, isMember: boolean) => ({
  studioUuid,
  studioName: studioUuid === HERE ? 'Here' : 'Other',
  isClient,
  isMember,
  role: isMember ? 'owner' : null,
});

describe('afterLogin', () => {
  it('keeps a client in the client zone', () => {
    expect(afterLogin({ memberships: [m(HERE, true, false), m(OTHER, true, false)] }, HERE, false)).toEqual({
      kind: 'client',
    });
  });
  it('sends staff of one studio with no client account straight to its back office', () => {
    expect(afterLogin({ memberships: [m(HERE, false, true)] }, HERE, false)).toEqual({
      kind: 'backoffice',
      href: `/${HERE}/backoffice`,
    });
  });
  it('lets staff who are also clients here choose, this studio first', () => {
    const result = afterLogin({ memberships: [m(OTHER, false, true), m(HERE, true, true)] }, HERE, false);
    expect(result.kind).toBe('choose');
    if (result.kind !== 'choose') return;
    expect(result.destinations.map((d) => `${d.kind}:${d.studioName}`)).toEqual([
      'backoffice:Here',
      'backoffice:Other',
      'client:Here',
    ]);
  });
  it('honours an explicit redirect target', () => {
    expect(afterLogin({ memberships: [m(HERE, false, true)] }, HERE, true)).toEqual({ kind: 'client' });
  });
});
