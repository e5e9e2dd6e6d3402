import { v7 as uuidv7 } from 'uuid';
import type { Knex } from 'knex';

interface DemoEvent {
  id: string;
  starts_at: Date;
  capacity: number;
}
interface DemoPass {
  id: string;
  client_id: string;
  entries: number | null;
  activated_at: Date;
  expires_at: Date;
}

/**
 * Demo visits (bookings module): the demo client waits (place 1) on a full upcoming class and, with a
 * pass, books like the others; pass holders book a few
 * classes each, attended or missed in the past and booked ahead — within their passes' validity and
 * entries, and never beyond a class's places.
 */
export async function seedDemoVisits(
  trx: Knex,
  studioId: string,
  events: readonly Record<string, unknown>[],
  passes: readonly Record<string, unknown>[],
  demoClientId: string,
  now: Date,
): Promise<number> {
  const evs = (events as unknown as DemoEvent[]).slice().sort((a, b) => +a.starts_at - +b.starts_at);
  const taken = new Map<string, number>();
  const rows: Record<string, unknown>[] = [];
  const visit = (e: DemoEvent, p: DemoPass, status: number) => {
    taken.set(e.id, (taken.get(e.id) ?? 0) + 1);
    rows.push({
      id: uuidv7(),
      studio_id: studioId,
      schedule_event_id: e.id,
      client_id: p.client_id,
      starts_at: e.starts_at,
      status,
      payment: 'pass',
      client_pricing_option_id: p.id,
      booked_by: 'self',
      booked_at: new Date(Math.min(+now, +e.starts_at) - 2 * 86_400_000),
      checked_in_at: status === 1 ? e.starts_at : null,
      attendance_marked_at: status === 1 || status === 2 ? e.starts_at : null,
    });
  };
  let n = 0;
  for (const p of passes as unknown as DemoPass[]) {
    if (p.expires_at <= now) continue;
    const usable = evs.filter((e) => e.starts_at > p.activated_at && e.starts_at < p.expires_at);
    const want = Math.min(p.entries ?? 4, 3);
    const picked: DemoEvent[] = [];
    for (let i = (n * 7) % Math.max(1, usable.length); picked.length < want && i < usable.length; i += 5) {
      const e = usable[i]!;
      if (
        (taken.get(e.id) ?? 0) < e.capacity - 1 &&
        !picked.some((x) => Math.abs(+x.starts_at - +e.starts_at) < 3 * 3_600_000)
      )
        picked.push(e);
    }
    for (const e of picked) visit(e, p, e.starts_at > now ? 0 : n % 6 === 0 ? 2 : 1);
    n += 1;
  }
  // The demo client: a waiting-list place on a full upcoming class (filled with other pass holders).
  const full = evs.find((e) => e.starts_at > new Date(+now + 2 * 86_400_000) && (taken.get(e.id) ?? 0) === 0);
  if (full) {
    await trx('schedule_events').where({ id: full.id }).update({ capacity: 1, waitingListSize: 3 });
    const other = (passes as unknown as DemoPass[]).find(
      (p) => p.client_id !== demoClientId && p.expires_at > full.starts_at && p.activated_at < full.starts_at,
    );
    if (other) {
      visit({ ...full, capacity: 1 }, other, 0);
      rows.push({
        id: uuidv7(),
        studio_id: studioId,
        schedule_event_id: full.id,
        client_id: demoClientId,
        starts_at: full.starts_at,
        status: 8,
        payment: 'desk',
        client_pricing_option_id: null,
        booked_by: 'self',
        booked_at: now,
        waiting_position: 1,
      });
    }
  }
  await trx.batchInsert('client_visits', rows, 200);
  return rows.length;
}
