import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor';

describe('list cursors', () => {
  it('round-trips, Unicode included, as URL-safe text', () => {
    const cursor = { sort: 'name', values: ['żółć', 'anna', '0190a0b1-0000-7000-8000-000000000001'] };
    const encoded = encodeCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(encoded, 'name', 3)).toEqual(cursor);
  });

  it.each([
    ['another sort', encodeCursor({ sort: 'created', values: ['x', 'y'] }), 'name', 3],
    ['wrong key count', encodeCursor({ sort: 'name', values: ['x'] }), 'name', 3],
    ['not base64url', 'a+b/c==', 'name', 1],
    ['not JSON', 'bm90IGpzb24', 'name', 1],
    ['not an array', encodeURIComponent(btoa('{"a":1}')), 'name', 1],
    ['object values', encodeCursor({ sort: 'name', values: [{} as never] }), 'name', 1],
    ['invalid UTF-8', btoa('\xff\xfe').replace(/=+$/, ''), 'name', 1],
    ['empty', '', 'name', 1],
  ])('refuses %s', (_name, value, sort, count) => {
    expect(decodeCursor(value, sort, count)).toBeNull();
  });
});
