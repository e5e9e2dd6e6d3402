import type { Me } from '../../shared/contracts/api/auth';
import { backOfficePath, frontOfficePath } from '../../shared/contracts/routes';

/**
 * The server's utility pages under `/app/*` (spec §2; behaviour not shown, decided in README.md),
 * kept free of React so they are unit-tested.
 */

/**
 * `/app/file?url=…&name=…`: a file of this site to open or save (a native shell cannot download
 * from inside its web view). Only a path of this origin is accepted: no scheme, no `//host`, no
 * backslash, no dot segments — the page must not become a way to send people elsewhere.
 */
export function fileTarget(search: string): { url: string; name: string } | null {
  const params = new URLSearchParams(search);
  const url = params.get('url') ?? '';
  if (!url.startsWith('/') || url.startsWith('//') || url.includes('\\')) return null;
  const path = url.split(/[?#]/)[0]!;
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return null;
  if (/%2f|%5c|%2e/i.test(path)) return null;
  const fromPath = decodeURIComponent(path.split('/').filter(Boolean).pop() ?? '');
  const name = (params.get('name') ?? '').trim() || fromPath || 'file';
  return { url, name: name.slice(0, 200) };
}

export interface AccountChoice {
  kind: 'backoffice' | 'frontoffice';
  studioUuid: string;
  studioName: string;
  href: string;
}

/** `/app/switch-account`: every place the signed-in person may go — each back office, each client zone. */
export function accountChoices(me: Pick<Me, 'memberships'>): AccountChoice[] {
  const byName = [...me.memberships].sort((a, b) => a.studioName.localeCompare(b.studioName));
  return byName.flatMap((m) => [
    ...(m.isMember
      ? [
          {
            kind: 'backoffice' as const,
            studioUuid: m.studioUuid,
            studioName: m.studioName,
            href: backOfficePath(m.studioUuid),
          },
        ]
      : []),
    ...(m.isClient
      ? [
          {
            kind: 'frontoffice' as const,
            studioUuid: m.studioUuid,
            studioName: m.studioName,
            href: frontOfficePath(m.studioUuid),
          },
        ]
      : []),
  ]);
}
