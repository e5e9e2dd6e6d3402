import { describe, expect, it } from 'vitest';
import { ClientsApi } from '../../../shared/contracts/http/clients';
import { ScheduleApi } from '../../../shared/contracts/http/schedule';
import { OfflineRoutes, isCallOf } from './offline-router';

const studio = '0190f000-0000-7000-8000-000000000001';
const user = '0190f000-0000-7000-8000-000000000002';

describe('the offline router', () => {
  const routes = new OfflineRoutes()
    .on(ClientsApi.getClientSearch, () => 'search')
    .on(ClientsApi.getClient, (p) => `client ${p.user}`)
    .on(ScheduleApi.find, () => 'find');

  it('answers the calls of its contract entries, with their path parameters', () => {
    expect(routes.find('GET', `v4/${studio}/client/search`, studio)?.entry).toBe(ClientsApi.getClientSearch);
    const detail = routes.find('GET', `v4/${studio}/client/${user}`, studio);
    expect(
      detail?.handler(detail.params, {
        method: 'GET',
        query: new URLSearchParams(),
        body: undefined,
        userId: user,
      }),
    ).toBe(`client ${user}`);
    expect(routes.find('POST', `v4/${studio}/schedule/find`, studio)?.entry).toBe(ScheduleApi.find);
  });

  it('leaves other methods, other studios and ids that are not ids to the cloud', () => {
    expect(routes.find('POST', `v4/${studio}/client/search`, studio)).toBeNull();
    expect(routes.find('GET', `v4/${user}/client/search`, studio)).toBeNull();
    expect(routes.find('GET', `v4/${studio}/client/not-an-id`, studio)).toBeNull();
    expect(routes.find('GET', `v4/${studio}/client/${user}/unknown`, studio)).toBeNull();
  });

  it('tells whether a call is one of an entry', () => {
    expect(isCallOf(ClientsApi.getClientProfile, 'GET', `v4/${studio}/client/${user}/profile`, studio)).toBe(
      true,
    );
    expect(isCallOf(ClientsApi.getClientProfile, 'GET', `v4/${studio}/client/${user}/init`, studio)).toBe(
      false,
    );
  });
});
