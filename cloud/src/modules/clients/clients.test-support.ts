import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, expect } from 'vitest';
import { addMembership, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';
import type { Studio } from '../identity/rows';

/**
 * What the clients integration test files share: one app per file, started at NOW by the hooks
 * `useClientsApp` registers, and the helpers that make studios, staff, clients, tags and passes.
 */
export const NOW = new Date('2026-11-22T12:00:00Z');
export const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
export const unique = () => uuidv7().slice(-12);
export const names = (items: Array<{ firstName: string; lastName: string }>) =>
  items.map((i) => `${i.firstName} ${i.lastName}`);

export interface SeedClient {
  firstName?: string;
  lastName?: string;
  email?: string | null;
  phone?: string | null;
  birthDate?: string | null;
  sex?: number | null;
  createdAt?: Date;
  archived?: boolean;
}

/** Registers the file's app (started before its tests, closed after) and the helpers bound to it. */
export function useClientsApp() {
  const clock = new ManualClock(NOW);
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp({ clock });
  });
  afterAll(async () => started?.close());
  const app = (): TestApp => {
    if (!started) throw new Error('the app starts in beforeAll');
    return started;
  };

  const { ownerStudio, staffWithRole } = studioSessions(app);

  /** A client made the way other modules make them (user + client membership): the trigger adds the record. */
  async function seedClient(studio: Studio, seed: SeedClient = {}): Promise<string> {
    const user = await createUser(app().knex, {
      firstName: seed.firstName ?? 'Seed',
      lastName: seed.lastName ?? 'Client',
      email: seed.email ?? `client-${unique()}@example.com`,
      phone: seed.phone ?? null,
      password: null,
    });
    await addMembership(app().knex, studio, user, { isClient: true });
    const patch: Record<string, unknown> = {};
    if (seed.email === null) patch.email = null;
    if (seed.birthDate !== undefined) patch.birth_date = seed.birthDate;
    if (seed.sex !== undefined) patch.sex = seed.sex;
    if (seed.createdAt) patch.created_at = seed.createdAt;
    if (seed.archived) patch.archived_at = NOW;
    if (Object.keys(patch).length)
      await app().knex('clients').where({ studioId: studio.id, userId: user.id }).update(patch);
    return user.id;
  }

  async function createTag(owner: HttpClient, studio: Studio, name: string, type = 0): Promise<string> {
    const res = await owner.post(api(studio, 'tag'), { name, type });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  }

  async function givePass(studio: Studio, userId: string, pass: { status: number; expiresAt: Date | null }) {
    const option = uuidv7();
    await app()
      .knex('pricing_options')
      .insert({
        id: option,
        studioId: studio.id,
        name: { en: { value: '10 entries' } },
        price: 10000,
      });
    await app().knex('client_pricing_options').insert({
      id: uuidv7(),
      studioId: studio.id,
      clientId: userId,
      pricingOptionId: option,
      status: pass.status,
      expiresAt: pass.expiresAt,
    });
  }

  return { app, clock, ownerStudio, staffWithRole, seedClient, createTag, givePass };
}

/** Every page of a list, following `next`. */
export async function allPages(client: HttpClient, url: string): Promise<any[]> {
  const items: any[] = [];
  let next: string | null = null;
  let pages = 0;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const res: { status: number; text: string; body: any } = await client.get(
      `${url}${next ? `${sep}cursor=${encodeURIComponent(next)}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.items);
    next = res.body.next;
    expect(++pages).toBeLessThan(100);
  } while (next);
  return items;
}
