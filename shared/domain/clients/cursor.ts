/**
 * Keyset pagination cursors: the sort key values of the last row of a page, opaque to clients
 * (base64url of JSON). A cursor names the sort it was made for, so a cursor of one sort is refused
 * by another instead of silently skipping rows.
 */
export interface ListCursor {
  sort: string;
  values: Array<string | number | null>;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(value: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return null;
  try {
    const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

export function encodeCursor(cursor: ListCursor): string {
  return toBase64Url(JSON.stringify([cursor.sort, ...cursor.values]));
}

/** The cursor, or null when it is not one of ours or was made for another sort / key count. */
export function decodeCursor(value: string, sort: string, keyCount: number): ListCursor | null {
  const json = fromBase64Url(value);
  if (json === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== keyCount + 1 || parsed[0] !== sort) return null;
  const values = parsed.slice(1);
  if (!values.every((v) => v === null || typeof v === 'string' || typeof v === 'number')) return null;
  return { sort, values: values as ListCursor['values'] };
}
