import { expect } from 'vitest';
import { createStudioScenario } from './factories';
import type { TestApp } from './test-app';

/**
 * Calls a route as the manager of ANOTHER studio and expects 404 with nothing of the first studio
 * in the answer. Every studio-scoped route's tests call this (ARCHITECTURE: tenancy).
 */
export async function expectHiddenFromOtherStudio(
  app: TestApp,
  request: { method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'; path: string; body?: unknown },
  secrets: string[] = [],
): Promise<void> {
  const other = await createStudioScenario(app.knex);
  const client = await app.signedIn(other.manager.email, other.manager.password);
  const res = await client.request(request.method, request.path, request.body);
  expect(res.status, `${request.method} ${request.path} as another studio`).toBe(404);
  expect(res.body.error?.key).toBe('resource.notFound');
  for (const secret of secrets) expect(res.text).not.toContain(secret);
}
