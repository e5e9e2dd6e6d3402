import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';

const lt = (en: string, pl: string) => JSON.stringify({ en: { value: en }, pl: { value: pl } });

/**
 * Demo data for entry services (issue 22): an open gym at Mokotów (weekdays 6–22, weekends 8–20,
 * 20 people at once, one entry a day) and a sauna (6 at once, 90 minutes), a gym pass of 8 entries
 * held by the demo client and a dozen others, and two weeks of entries — at the desk and at the
 * kiosk — each spending an entry of its pass.
 */
export async function seedDemoEntries(
  trx: Knex.Transaction,
  studioId: string,
  locationId: string,
  clientIds: readonly string[],
  now: Date,
): Promise<void> {
  const gym = uuidv7();
  const sauna = uuidv7();
  await trx('entry_services').insert([
    {
      id: gym,
      studioId,
      name: lt('Open gym', 'Siłownia (open)'),
      locationId,
      maxEntriesPerDay: 1,
      capacity: 20,
      stayMinutes: 120,
      // A day ticket the desk sells (issue 22).
      price: 3000,
      vatRate: '800',
      openingHours: JSON.stringify([
        { weekdays: [1, 2, 3, 4, 5], fromMinutes: 360, toMinutes: 1320 },
        { weekdays: [0, 6], fromMinutes: 480, toMinutes: 1200 },
      ]),
    },
    {
      id: sauna,
      studioId,
      name: lt('Sauna', 'Sauna'),
      locationId,
      maxEntriesPerDay: null,
      capacity: 6,
      stayMinutes: 90,
      price: 4000,
      vatRate: '800',
      openingHours: JSON.stringify([{ weekdays: [0, 1, 2, 3, 4, 5, 6], fromMinutes: 600, toMinutes: 1260 }]),
    },
  ]);
  const option = uuidv7();
  await trx('pricing_options').insert({
    id: option,
    studioId,
    name: lt('Gym & sauna – 8 entries', 'Siłownia i sauna – 8 wejść'),
    price: 12000,
    taxRateBp: 2300,
    entries: 8,
    validityDays: 30,
    validityCount: 30,
    validityUnit: 'day',
    expirationType: 0,
    serviceTypes: JSON.stringify(['entryPricingOption']),
  });
  const holders = [clientIds[0]!, ...clientIds.slice(10, 22)];
  const soldAt = new Date(now.getTime() - 16 * 86_400_000);
  const passes = holders.map((clientId) => ({
    id: uuidv7(),
    studioId,
    clientId,
    pricingOptionId: option,
    status: 1,
    entries: 8,
    soldAt,
    activatedAt: soldAt,
    expiresAt: new Date(soldAt.getTime() + 30 * 86_400_000),
    pricePaid: 12000,
    expirationType: 0,
    validityCount: 30,
    validityUnit: 'day',
  }));
  await trx('client_pricing_options').insert(passes);
  const entries: Array<Record<string, unknown>> = [];
  passes.forEach((pass, i) => {
    // Two to five entries in the last fortnight, late afternoons, at the desk or the kiosk.
    const count = 2 + (i % 4);
    for (let k = 0; k < count; k++) {
      const daysAgo = 1 + ((i * 3 + k * 4) % 14);
      const enteredAt = new Date(now.getTime() - daysAgo * 86_400_000);
      enteredAt.setUTCHours(15 + (k % 3), (i * 7) % 60, 0, 0);
      const service = k % 3 === 2 ? sauna : gym;
      entries.push({
        id: uuidv7(),
        studioId,
        entryServiceId: service,
        clientId: pass.clientId,
        enteredAt,
        leavesAt: new Date(enteredAt.getTime() + (service === gym ? 120 : 90) * 60_000),
        clientPricingOptionId: pass.id,
        source: k % 2 === 0 ? 'desk' : 'kiosk',
      });
    }
  });
  await trx.batchInsert('client_entries', entries, 200);
}
