import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll } from 'vitest';
import type { Mutation } from '../../../shared/contracts/sync';
import { addMembership, createStudioScenario, createUser } from '../../../tests/support/factories';
import { useTestApp, type TestApp } from '../../../tests/support/test-app';
import type { Studio } from '../modules/identity/rows';

export interface Station {
  deviceId: string;
  token: string;
  studio: Studio;
  ownerId: string;
  call<T = any>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T; text: string; headers: Headers }>;
  mutation(seq: number, name: string, args: Record<string, unknown>, extra?: Partial<Mutation>): Mutation;
}

/** A studio with its owner, and a station registered by that owner (device token in hand). */
export async function studioWithStation(
  app: TestApp,
  studio?: Studio,
): Promise<Station & { owner: Awaited<ReturnType<TestApp['signedIn']>> }> {
  let ownerId: string;
  let email: string;
  let password: string;
  if (studio) {
    const user = await createUser(app.knex, { firstName: 'Owner', lastName: 'Two' });
    await addMembership(app.knex, studio, user, { isMember: true, role: 'owner' });
    ({ email, password } = user);
    ownerId = user.id;
  } else {
    const scenario = await createStudioScenario(app.knex);
    studio = scenario.studio;
    ({ email, password } = scenario.manager);
    ownerId = scenario.manager.id;
  }
  const owner = await app.signedIn(email, password);
  const deviceId = uuidv7();
  const res = await owner.post('/sync/devices', { deviceId, name: 'Front desk 1' });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  const token = res.body.deviceToken as string;
  return {
    deviceId,
    token,
    studio,
    ownerId,
    owner,
    call: (method, path, body) => deviceCall(app.url, token, method, path, body),
    mutation: (seq, name, args, extra = {}) => ({
      id: uuidv7(),
      seq,
      name,
      version: 1,
      args,
      occurredAt: new Date().toISOString(),
      ...extra,
    }),
  };
}

export async function deviceCall(
  baseUrl: string,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any; text: string; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(baseUrl + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** createClient@1 arguments with fresh ids. */
export function newClientArgs(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { userId: uuidv7(), clientId: uuidv7(), firstName: 'Ola', lastName: 'Nowak', ...overrides };
}

/**
 * The file's app and a temporary folder for its stations' SQLite files (made before the tests,
 * removed after them); `dbFile` names a new file in it.
 */
export function useSyncApp(tmpPrefix: string) {
  const app = useTestApp();
  let tmp = '';
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const dbFile = () => path.join(tmp, `${uuidv7()}.db`);
  return { app, dbFile };
}

/** A signed-in owner's session cookie value, as the desktop holds it after staff sign-in. */
export async function ownerCookie(app: TestApp, email: string, password: string): Promise<string> {
  const owner = await app.signedIn(email, password);
  return encodeURIComponent(`${owner.session!.userId}:${owner.session!.sessionId}`);
}
