import { describe, expect, it } from 'vitest';
import { checkResponseContract, routeOf } from '../../../tests/support/response-contracts';

const studio = '0190f000-0000-7000-8000-000000000001';
const event = '0190f000-0000-7000-8000-000000000002';

describe("the integration tests' response check", () => {
  it('finds the route that answers a request, fixed words before ids, as the router does', () => {
    expect(routeOf('GET', `/api/v4/${studio}/schedule/init`)?.name).toBe('schedule.init');
    expect(routeOf('GET', `/api/v4/${studio}/schedule-event/init?scheduleEvent=${event}`)?.name).toBe(
      'schedule.scheduleEventInit',
    );
    expect(routeOf('GET', `/api/v4/${studio}/schedule-event/${event}`)?.name).toBe('schedule.event');
    expect(routeOf('POST', `/api/v2/${studio}/schedule-events/cancel/bulk`)?.name).toBe(
      'schedule.bulkEventAction.cancel',
    );
  });

  it('fails a 2xx answer that does not match the response schema, naming the route and the field', () => {
    expect(() =>
      checkResponseContract('GET', `/api/v4/${studio}/location/collection`, 200, {
        items: [{ id: 1 }],
        next: null,
      }),
    ).toThrow(/schedule\.locations .*items\.0\.id/);
    expect(() =>
      checkResponseContract('GET', `/api/v4/${studio}/location/collection`, 200, { items: [], next: null }),
    ).not.toThrow();
  });

  it('leaves refusals, empty answers and routes without a schema alone', () => {
    expect(() =>
      checkResponseContract('GET', `/api/v4/${studio}/location/collection`, 404, { x: 1 }),
    ).not.toThrow();
    expect(() =>
      checkResponseContract('DELETE', `/api/v2/${studio}/schedule-metas/${event}`, 204, undefined),
    ).not.toThrow();
    expect(() => checkResponseContract('GET', '/api/v4/no/such/route', 200, 'x')).not.toThrow();
  });
});
