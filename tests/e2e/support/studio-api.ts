import { expect, type APIRequestContext } from '@playwright/test';
import {
  AUTH_HEADER,
  CSRF_HEADER,
  REQUESTED_WITH_HEADER,
  REQUESTED_WITH_VALUE,
} from '../../../shared/contracts/page-context';
import { HttpClient } from '../../support/http-client';
import type { DemoDetails } from './demo';

/** The demo studio's time zone. */
export const STUDIO_TZ = 'Europe/Warsaw';

/** A start about `minutes` from now on the studio's clock, on a 5-minute mark. */
export function studioSlot(minutes: number): { date: string; time: string; isoWeekday: number } {
  const at = new Date(Math.ceil((Date.now() + minutes * 60_000) / 300_000) * 300_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: STUDIO_TZ,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    isoWeekday: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!) + 1,
  };
}

/** The studio's calendar day `days` from now (Warsaw), as YYYY-MM-DD. */
export function studioDay(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: STUDIO_TZ }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

/** One API call through `client` that must answer `status`; its body. */
export async function call(
  client: HttpClient,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  status = 200,
): Promise<any> {
  const res = await client.request(method, url, body);
  expect(res.status, `${method} ${url}: ${res.text}`).toBe(status);
  return res.body;
}

/**
 * Signs the demo manager in on `request` (its cookie jar keeps the session) with the headers the web
 * apps send. `base` is the anonymous header set; `headers` the signed-in one. `studioUuid` goes with the
 * login when given.
 */
export async function managerSession(
  request: APIRequestContext,
  demo: DemoDetails,
  studioUuid?: string,
): Promise<{ base: Record<string, string>; headers: Record<string, string> }> {
  const base = { [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE };
  const csrf = (await (await request.get('/api/v4/auth/csrf', { headers: base })).json()) as {
    token: string;
  };
  const login = await request.post('/api/v4/auth/login', {
    headers: { ...base, [CSRF_HEADER]: csrf.token },
    data: {
      emailAddress: demo.managerEmail,
      password: demo.managerPassword,
      ...(studioUuid ? { studioUuid } : {}),
    },
  });
  expect(login.status(), await login.text()).toBe(200);
  const session = (await login.json()) as { userId: string; sessionId: string; token: string };
  const headers = {
    ...base,
    [CSRF_HEADER]: session.token,
    [AUTH_HEADER]: `${session.userId}:${session.sessionId}`,
  };
  return { base, headers };
}

/** The demo manager's API calls (signed in with the studio) on `request`; each must answer 2xx. */
export async function managerApi(request: APIRequestContext, demo: DemoDetails) {
  const { headers } = await managerSession(request, demo, demo.studioUuid);
  return async <T>(method: 'GET' | 'POST', url: string, data?: unknown): Promise<T> => {
    const res = await request.fetch(url, { method, headers, data });
    expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
}

/** The demo manager's API client and the schedule's set-up data (locations…). */
export async function managerClient(demo: DemoDetails): Promise<{ owner: HttpClient; init: any }> {
  const owner = await HttpClient.signedIn(
    demo.baseURL,
    demo.managerEmail,
    demo.managerPassword,
    demo.studioUuid,
  );
  const init = await call(owner, 'GET', `/api/v4/${demo.studioUuid}/schedule/init`);
  return { owner, init };
}

/** Adds a class service (201); its body. */
export function addClassService(owner: HttpClient, studio: string, body: unknown): Promise<any> {
  return call(owner, 'POST', `/api/v4/${studio}/class-service`, body, 201);
}

/** Adds a schedule meta (a series of classes) to a class service (201); its body. */
export function addScheduleMeta(
  owner: HttpClient,
  studio: string,
  serviceId: string,
  body: unknown,
): Promise<any> {
  return call(owner, 'POST', `/api/v2/${studio}/class-services/${serviceId}/schedule-metas`, body, 201);
}

/** A manager's API call that must succeed: its body. */
export type ManagerCall = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => Promise<T>;

/** One class (a one-day series of an hour) of a class service at `slot`, generated: its event id. */
export async function addOneClass(
  call: ManagerCall,
  studioUuid: string,
  at: { serviceId: string; locationId: string; capacity: number; slot: ReturnType<typeof studioSlot> },
): Promise<string> {
  const { slot } = at;
  const v2 = (p: string) => `/api/v2/${studioUuid}/${p}`;
  const meta = await call<{ id: string }>('POST', v2(`class-services/${at.serviceId}/schedule-metas`), {
    locationId: at.locationId,
    daysOfWeek: [slot.isoWeekday],
    startTime: slot.time,
    durationMinutes: 60,
    firstDate: slot.date,
    lastDate: slot.date,
    capacity: at.capacity,
  });
  await call('POST', v2('schedule-events/generate'), {
    scheduleMetaIds: [meta.id],
    from: slot.date,
    to: slot.date,
  });
  const events = await call<{ items: Array<{ id: string }> }>(
    'GET',
    v2(`schedule-metas/${meta.id}/schedule-events/all`),
  );
  return events.items[0]!.id;
}
