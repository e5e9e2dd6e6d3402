import { describe, expect, it } from 'vitest';
import { apiRouter } from '../app';
import { memoizeRouteMatching, pathShape } from './route-match-memo';

const U1 = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const U2 = 'ffffffff-0000-4000-b000-123456789abc';
const fill = (path: string, value: (name: string) => string) =>
  path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => value(name));
const layers = (m: {
  pathAndMethod: Array<{ path: string | RegExp; methods: string[] }>;
  route: boolean;
}) => ({
  route: m.route,
  layers: m.pathAndMethod.map((l) => `${l.methods.join(',')} ${l.path}`),
});

describe('remembering which routes match a path’s shape', () => {
  const plain = apiRouter();
  const paths = plain.stack.map((l) => ({ path: String(l.path), methods: l.methods }));

  it('holds for the catalogue: no uuid-shaped literal, no parameter with a pattern of its own', () => {
    for (const { path } of paths) {
      expect(path, path).not.toMatch(/[()*?{}]/);
      for (const segment of path.split('/'))
        if (!segment.startsWith(':')) expect(pathShape(segment)).toBe(segment);
    }
  });

  it('answers for a path what matching it afresh answers, after another path of its shape', () => {
    const memo = memoizeRouteMatching(apiRouter());
    for (const { path, methods } of paths)
      for (const method of methods) {
        // Warm the shape with one set of ids, then ask with another (and with words where ids go).
        memo.match(
          fill(path, () => U1),
          method,
        );
        for (const concrete of [fill(path, () => U2), fill(path, (n) => `${n}-x`)])
          expect(layers(memo.match(concrete, method)), `${method} ${concrete}`).toEqual(
            layers(plain.match(concrete, method)),
          );
      }
    const unknown = `/api/v4/${U2}/no/such/route`;
    memo.match(`/api/v4/${U1}/no/such/route`, 'GET');
    expect(layers(memo.match(unknown, 'GET'))).toEqual(layers(plain.match(unknown, 'GET')));
    expect(memo.match(unknown, 'GET').route).toBe(false);
  });

  it('gives each call its own list of matched layers (the router appends to it when routers nest)', () => {
    const memo = memoizeRouteMatching(apiRouter());
    const path = `/api/v4/${U1}/booking/classroom/book`;
    const first = memo.match(path, 'POST');
    expect(first.route).toBe(true);
    const before = first.path.length;
    first.path.push(...first.path);
    expect(memo.match(path, 'POST').path.length).toBe(before);
  });
});
