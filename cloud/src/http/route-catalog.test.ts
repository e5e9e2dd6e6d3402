import { describe, expect, it } from 'vitest';
import { API_CONTRACTS } from '../../../shared/contracts/http';
import { describeApiRoutes } from '../app';
import { ROUTES_WITHOUT_CONTRACT } from './route-catalog.exceptions';

const routes = describeApiRoutes();
const key = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`;

describe('the route catalog', () => {
  it('every registered route implements a contract entry with a response schema (or says it answers no JSON)', () => {
    const missing = routes
      .filter((r) => !ROUTES_WITHOUT_CONTRACT.has(key(r)))
      .filter((r) => !r.name || !API_CONTRACTS.has(r.name) || (!r.response && !r.responseKind))
      .map(key);
    expect(missing).toEqual([]);
  });

  it('a route is the entry it names: same method, path, access, ability, status and schemas', () => {
    for (const route of routes.filter((r) => r.name)) {
      const entry = API_CONTRACTS.get(route.name!);
      expect(entry, route.name).toBeDefined();
      for (const field of [
        'method',
        'path',
        'access',
        'ability',
        'status',
        'params',
        'query',
        'body',
        'response',
        'contentType',
      ] as const)
        expect(route[field], `${route.name}.${field}`).toBe(entry![field]);
    }
  });

  it('every entry is implemented by exactly one route', () => {
    const implemented = routes.map((r) => r.name).filter(Boolean);
    expect(implemented.length).toBe(new Set(implemented).size);
    expect([...API_CONTRACTS.keys()].filter((name) => !implemented.includes(name))).toEqual([]);
  });

  it('the list of routes still without a contract only shrinks: each one is a registered route without one', () => {
    const uncovered = new Set(routes.filter((r) => !r.name || (!r.response && !r.responseKind)).map(key));
    expect([...ROUTES_WITHOUT_CONTRACT].filter((route) => !uncovered.has(route))).toEqual([]);
  });
});
