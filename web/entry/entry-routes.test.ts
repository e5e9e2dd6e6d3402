import { describe, expect, it } from 'vitest';
import { ENTRY_SCREENS, decideEntryRoute } from './entry-routes';

const uuid = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

describe('decideEntryRoute (spec §2: / → /login, any other first segment is a studio uuid)', () => {
  it.each(['', '/', '//'])('%j redirects to /login inside the app', (path) => {
    expect(decideEntryRoute(path)).toEqual({ kind: 'navigate', to: '/login' });
  });

  it.each(ENTRY_SCREENS)('/%s is its screen, whatever the case and a trailing slash', (screen) => {
    expect(decideEntryRoute(`/${screen}`)).toEqual({ kind: 'screen', screen });
    expect(decideEntryRoute(`/${screen}/`)).toEqual({ kind: 'screen', screen });
    expect(decideEntryRoute(`/${screen.toUpperCase()}`)).toEqual({ kind: 'screen', screen });
  });

  it('a screen with more segments goes to the screen itself', () => {
    expect(decideEntryRoute('/login/extra')).toEqual({ kind: 'navigate', to: '/login' });
  });

  it('any other first segment is a studio uuid: its front office, by a full page load', () => {
    expect(decideEntryRoute(`/${uuid}`)).toEqual({ kind: 'studio', href: `/${uuid}/frontoffice` });
    expect(decideEntryRoute(`/${uuid}/`)).toEqual({ kind: 'studio', href: `/${uuid}/frontoffice` });
    // Not checked here: the server answers an unknown studio with its "studio not found" page.
    expect(decideEntryRoute('/some_studio.slug-1')).toEqual({
      kind: 'studio',
      href: '/some_studio.slug-1/frontoffice',
    });
  });

  it("the server's own /app/* pages open the login entry", () => {
    expect(decideEntryRoute('/app/return')).toEqual({ kind: 'navigate', to: '/login' });
    expect(decideEntryRoute('/app/switch-account')).toEqual({ kind: 'navigate', to: '/login' });
  });

  it('never builds an address outside this site from the path', () => {
    for (const path of ['/%2F%2Fevil.example', '/javascript:alert(1)', '/a b', '/ü']) {
      const decision = decideEntryRoute(path);
      if (decision.kind === 'studio') expect(decision.href).toMatch(/^\/[A-Za-z0-9_.-]+\/frontoffice$/);
      else expect(decision).toEqual({ kind: 'navigate', to: '/login' });
    }
  });
});
