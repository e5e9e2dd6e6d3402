import { expect } from 'vitest';
import type { HttpClient } from '../../../../tests/support/http-client';
import type { Studio } from '../identity/rows';

/** What the catalog integration tests share: the v4 path, a text in both languages, a pass. */
export const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
export const lt = (en: string, pl = en) => ({ en: { value: en }, pl: { value: pl } });

/** The body of a pass of 10 entries valid 30 days at 320 zł, for classes; `over` changes any field. */
export const tenEntries = (over: Record<string, unknown> = {}) => ({
  name: lt('10 entries', 'Karnet 10 wejść'),
  price: 32000,
  entries: 10,
  expirationType: 0,
  validityCount: 30,
  validityUnit: 'day',
  serviceTypes: ['classroomPricingOption'],
  ...over,
});

/** Creates the pass through the route (201 expected) and returns its body. */
export async function createOption(owner: HttpClient, studio: Studio, over: Record<string, unknown> = {}) {
  const res = await owner.post(api(studio, 'pricing-option'), tenEntries(over));
  expect(res.status, res.text).toBe(201);
  return res.body;
}
