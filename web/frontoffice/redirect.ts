/**
 * `redirectAfterLogin` comes from the URL, so anyone can craft it: only paths inside this studio's
 * front office are accepted (an open redirect would let a phishing link bounce users elsewhere
 * after a genuine sign-in). Accepted forms, all meaning the same place:
 *   `profile/delete`, `/profile/delete`, `/{uuid}/frontoffice/profile/delete`
 * Returns the router path (with a leading slash, relative to the front-office basename) or null.
 */
export function safeRedirectTarget(raw: string | null | undefined, basename: string): string | null {
  if (!raw) return null;
  const value = raw.trim();
  if (value.length === 0 || value.length > 500) return null;
  // Schemes (https:, javascript:), protocol-relative (//host), backslashes browsers treat as
  // slashes, and control characters are never a path inside the front office.
  if (
    /^[a-z][a-z0-9+.-]*:/i.test(value) ||
    value.startsWith('//') ||
    value.includes('\\') ||
    hasControlCharacter(value)
  ) {
    return null;
  }

  let path = value;
  const prefix = basename.replace(/\/+$/, '');
  if (prefix && (path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`))) {
    path = path.slice(prefix.length);
  }
  if (!path.startsWith('/')) path = `/${path}`;

  // Resolve against a dummy origin to catch dot segments and encoded tricks, then demand that the
  // result is still the same path under the same origin.
  let url: URL;
  try {
    url = new URL(path, 'https://front-office.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'https://front-office.invalid') return null;
  const pathname = url.pathname;
  const segments = pathname.split('/');
  if (segments.some((s) => s === '..' || s === '.' || /%2e|%2f|%5c/i.test(s))) return null;
  if (pathname !== path.split(/[?#]/)[0]) return null;
  return `${pathname}${url.search}${url.hash}`;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
