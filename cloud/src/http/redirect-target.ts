/**
 * A redirect target taken from a query string is attacker-controlled: only a path on this origin is
 * accepted. The value is parsed as a URL against a placeholder origin (the way a browser resolves a
 * Location header, where `\` counts as `/` and tabs and newlines vanish), so `//host`, `/\host`,
 * `/\thost`, schemes and encoded variants that resolve elsewhere are refused. The normalised path
 * (never the raw text) is returned, or null.
 */
const PLACEHOLDER_ORIGIN = 'https://same-origin.invalid';

export function sameOriginPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) return null;
  if (!raw.startsWith('/')) return null;
  let url: URL;
  try {
    url = new URL(raw, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return null;
  const target = `${url.pathname}${url.search}${url.hash}`;
  // The normalised path must itself stay a path: a pathname that begins with `//` would be read as a
  // host by whoever follows it.
  if (target.startsWith('//') || target.startsWith('/\\')) return null;
  return target;
}
