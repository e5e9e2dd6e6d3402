import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, expect } from 'vitest';
import type { HttpClient } from '../../../../../tests/support/http-client';
import { ManualClock, startTestApp, type TestApp } from '../../../../../tests/support/test-app';
import { studioSessions } from '../../../../../tests/support/sessions';
import type { Studio } from '../../identity/rows';

/** The products integration tests' helpers, over the file's test app. */
export function productsTestKit(app: () => TestApp) {
  const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
  const unique = () => uuidv7().slice(-8);

  async function addTax(
    studio: Studio,
    rateBp: number | null,
    slot: string,
    isDefault = false,
  ): Promise<string> {
    const id = uuidv7();
    await app()
      .knex('taxes')
      .insert({
        id,
        studioId: studio.id,
        name: rateBp === null ? 'zw.' : `VAT ${rateBp / 100}%`,
        rateBp,
        fiscalSlot: slot,
        isDefault,
      });
    return id;
  }

  const sessions = studioSessions(app);

  /** A studio with its owner signed in and two tax rates (23 % default in A, 8 % in B). */
  async function ownerStudio() {
    const scenario = await sessions.ownerStudio();
    const vat23 = await addTax(scenario.studio, 2300, 'A', true);
    const vat8 = await addTax(scenario.studio, 800, 'B');
    return { ...scenario, vat23, vat8 };
  }

  const { staffWithRole } = sessions;

  async function post(client: HttpClient, studio: Studio, path: string, body: unknown, status = 201) {
    const res = await client.post(api(studio, path), body);
    expect(res.status, res.text).toBe(status);
    return res.body;
  }

  async function addPricingOption(studio: Studio, price: number): Promise<string> {
    const id = uuidv7();
    await app()
      .knex('pricing_options')
      .insert({ id, studioId: studio.id, name: { en: { value: '10 entries' } }, price });
    return id;
  }
  return { api, unique, addTax, ownerStudio, staffWithRole, post, addPricingOption };
}

// 23:30 UTC on 22 November is already 23 November in Warsaw (UTC+1): validity runs on studio days.
export const PRODUCTS_NOW = new Date('2026-11-22T23:30:00Z');

/** A products test file's app (started before its tests, closed after) and the helpers over it. */
export function productsTestApp() {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ clock: new ManualClock(PRODUCTS_NOW) });
  });
  afterAll(async () => app?.close());
  const get = () => app;
  return { app: get, ...productsTestKit(get) };
}
