import type { Page } from '@playwright/test';
import { CloudClient } from '../../desktop/main/station/cloud-client';
import { ClientVisitStatus } from '../../shared/enums/visits';
import {
  expect,
  MANAGER,
  setStationPin,
  shoot as shootAt,
  signInStation,
  stationCall,
  stationState,
  test,
  zlotyToMinor,
} from './support/desk';

/**
 * The station keeps working offline through the back office's own screens, answered from SQLite by
 * main (desktop/main/station/offline-api.ts), and delivers what was done once the cloud is back,
 * through desktop/host with the real sync engine and a real cloud process:
 * the station is set up and syncs, a client is added online, and the desk's POS is set up online (a
 * studio-pos station created and chosen, a shift opened, which the cloud has); the cloud is stopped
 * (Offline); the client list finds the client; today's class shows its attendees; the client is
 * enrolled and marked present (2 changes waiting); a product is sold for cash at the POS (recorded
 * locally, no fiscal printer at this desk: 3 changes waiting); the desktop process is killed and
 * started again (still 3 waiting, still present at the desk, the shift still open); the cloud starts
 * again → All changes synced; the cloud has the client on today's classes exactly once, present, and
 * the shift at that POS counts the one sale with its cash.
 *
 * Own ports (DESKTOP_OFFLINE_CLOUD_PORT, DESKTOP_OFFLINE_HOST_PORT, and DESKTOP_OFFLINE_SIDE_PORT,
 * the cloud's + 2 unless set: mind PostgreSQL's 5432) so it may run next to desktop-station.e2e.ts.
 */
const CLOUD_PORT = Number(process.env.DESKTOP_OFFLINE_CLOUD_PORT ?? 4330);
/** The same cloud on another port: "online elsewhere" while the station still cannot reach it. */
const SIDE_PORT = Number(process.env.DESKTOP_OFFLINE_SIDE_PORT ?? CLOUD_PORT + 2);
const HOST_PORT = Number(process.env.DESKTOP_OFFLINE_HOST_PORT ?? 4329);
test.use({ deskOptions: { name: 'desktop-offline', cloudPort: CLOUD_PORT, hostPort: HOST_PORT } });
test.describe.configure({ mode: 'serial' });

const shoot = (page: Page, name: string, widths: readonly number[] = [1280]) =>
  shootAt(page, name, { sizes: widths.map((w) => [w, 800] as const) });

/** A call through the station (as the renderer makes it): the cloud's answer, or the offline one. */
const viaStation = async <T>(page: Page, method: 'GET' | 'POST', apiPath: string, body?: unknown) =>
  (await stationCall(page, method, apiPath, body)).body as T;

/** Today's first class in the week view, opened in its drawer (attendees loaded). */
async function openTodaysClass(page: Page, today: string): Promise<void> {
  await page.getByTestId('nav-schedule').click();
  const day = page.getByTestId(`schedule-day-${today}`);
  // The week on screen is loaded; a day of next week (tomorrow on a Sunday) is one step forward.
  await expect(page.locator('[data-testid^="schedule-day-"]').first()).toBeVisible({ timeout: 15_000 });
  if (!(await day.isVisible())) await page.getByTestId('schedule-next').click();
  await expect(day).toBeVisible({ timeout: 15_000 });
  await day.locator('[data-testid="schedule-event"][data-status="scheduled"]').first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByTestId('event-attendees')).toBeVisible({ timeout: 15_000 });
}

test('offline at the desk: search a client, enrol and check them in from SQLite, sell a product; survives a killed desktop; reaches the cloud once', async ({
  page,
  desk,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(desk.hostUrl);
  await signInStation(page, MANAGER.email, MANAGER.password, 'Front desk 2');
  await setStationPin(page, '2468');
  await expect(page.getByTestId('status-staff')).toHaveText(MANAGER.name);

  const online = page.getByTestId('sync-online');
  const pending = page.getByTestId('sync-pending');
  const last = page.getByTestId('sync-last');
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });
  await expect(last).toHaveText(/^Last sync \d{2}:\d{2}:\d{2}/, { timeout: 30_000 });

  // Online, the desk adds a client (the cloud pokes the station, which pulls it into SQLite) and
  // looks at today's class once (the station keeps the timetable's settings and what staff may do).
  const { studioUuid } = await stationState(page);
  const lastName = `Offline${Date.now().toString(36)}`;
  const beforeCreate = await last.textContent();
  const created = await viaStation<{ id?: string; client?: { id: string } }>(
    page,
    'POST',
    `v4/${studioUuid}/client`,
    {
      firstName: 'Ewa',
      lastName,
    },
  );
  expect(created).toBeTruthy();
  await expect(last).not.toHaveText(beforeCreate!, { timeout: 30_000 });
  const { timeZone } = await viaStation<{ timeZone: string }>(page, 'GET', `v4/${studioUuid}/schedule/init`);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
  await openTodaysClass(page, today);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // Online, the desk's POS: a studio-pos station set up in the cloud, chosen here (the catalog is kept
  // for offline), a shift opened with a float; the cloud has the shift before the internet goes.
  const pos = await viaStation<{ id: string }>(page, 'POST', `v4/${studioUuid}/studio-pos`, {
    name: 'Recepcja 2',
    slug: 'recepcja-offline',
  });
  expect(pos.id).toBeTruthy();
  const cloudShift = async () =>
    (
      await viaStation<{ shift?: { sales: number; cashSales: number } | null }>(
        page,
        'GET',
        `v4/${studioUuid}/studio-pos/${pos.id}/shift/current`,
      )
    ).shift ?? null;
  await page.getByTestId('nav-pos').click();
  await expect(page.getByTestId('pos-station-screen')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('pos-station').selectOption(pos.id);
  await page.getByTestId('shift-float').fill('100');
  await page.getByTestId('shift-open').click();
  await expect(page.getByTestId('shift-bar')).toBeVisible({ timeout: 15_000 });
  await expect.poll(async () => (await cloudShift())?.sales ?? null, { timeout: 30_000 }).toBe(0);
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });

  await page.getByTestId('nav-clients').click();
  await expect(page.getByTestId('client-row').first()).toBeVisible();

  // The internet goes away.
  await desk.stopCloud();
  await expect(online).toHaveAttribute('data-state', 'offline', { timeout: 15_000 });
  const firstSync = await last.textContent();

  // Client search, answered from SQLite.
  await page.getByTestId('clients-search').fill(lastName);
  await expect(page.getByTestId('client-row')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByTestId('client-row')).toContainText(`${lastName} Ewa`);

  // Today's class: its attendees from SQLite; the client enrolled and checked in at the desk.
  await openTodaysClass(page, today);
  await page.getByTestId('enrol-search').fill(lastName);
  await page.getByTestId('enrol-option').filter({ hasText: lastName }).click();
  const row = page.getByTestId('attendee-row').filter({ hasText: lastName });
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  await row.getByTestId('attendee-present').click();
  await expect(row.getByTestId('visit-status')).toHaveText('Present', { timeout: 15_000 });
  await expect(pending).toHaveText('2 changes waiting to sync', { timeout: 10_000 });
  await expect(last).toHaveText(firstSync!);
  await shoot(page, 'offline-check-in');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // A product sold at the POS, paid in cash: priced from the kept catalog, recorded here (3 waiting).
  await page.getByTestId('nav-pos').click();
  await expect(page.getByTestId('shift-bar')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('pos-search').fill('Kombucha');
  await page.getByTestId('pos-search').press('Enter');
  await expect(page.getByTestId('pos-basket-line')).toHaveCount(1);
  await expect(page.getByTestId('pos-basket-line')).toContainText('Kombucha');
  const due = (await page.getByTestId('pos-due').textContent())!;
  await page.getByTestId('pos-payment-rest-0').click();
  await page.getByTestId('pos-sell').click();
  await expect(page.getByTestId('pos-done')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('pos-done-total')).toContainText(due);
  await expect(page.getByTestId('pos-done-receipt')).toHaveAttribute('data-status', 'noPrinter');
  await expect(pending).toHaveText('3 changes waiting to sync', { timeout: 10_000 });
  await shoot(page, 'offline-pos-sale');
  await page.getByTestId('pos-new-sale').click();

  // The desktop process dies (kill -9) and starts again, still without the cloud.
  await desk.stopHost('SIGKILL');
  await desk.startHost();
  await page.reload();
  await expect(page.getByTestId('status-staff')).toHaveText(MANAGER.name);
  await expect(online).toHaveAttribute('data-state', 'offline', { timeout: 15_000 });
  await expect(pending).toHaveText('3 changes waiting to sync');
  // What was done offline is still there at the desk.
  await openTodaysClass(page, today);
  await expect(
    page.getByTestId('attendee-row').filter({ hasText: lastName }).getByTestId('visit-status'),
  ).toHaveText('Present');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await page.getByTestId('nav-pos').click();
  await expect(page.getByTestId('shift-bar')).toBeVisible({ timeout: 20_000 });

  // The cloud is back: the changes go up on their own, once.
  await desk.startCloud();
  await expect(online).toHaveAttribute('data-state', 'online', { timeout: 20_000 });
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });
  await expect(last).not.toHaveText(firstSync!);

  // The cloud has the client on today's classes exactly once, present.
  const week = await viaStation<{ items: Array<{ id: string }> }>(
    page,
    'POST',
    `v4/${studioUuid}/schedule/find`,
    {
      from: today,
      to: today,
    },
  );
  const visits: number[] = [];
  for (const event of week.items) {
    const enrollments = await viaStation<{
      attendees: Array<{ status: number; client: { lastName: string } }>;
    }>(page, 'GET', `v4/${studioUuid}/schedule-event/${event.id}/enrollments/init`);
    visits.push(...enrollments.attendees.filter((a) => a.client.lastName === lastName).map((a) => a.status));
  }
  expect(visits).toEqual([ClientVisitStatus.present]);
  // The cloud's shift at that POS counts the one sale, its cash taken once.
  await expect.poll(async () => (await cloudShift())?.sales ?? null, { timeout: 30_000 }).toBe(1);
  expect((await cloudShift())?.cashSales).toBe(zlotyToMinor(due));
  await openTodaysClass(page, today);
  await expect(page.getByTestId('attendee-row').filter({ hasText: lastName })).toHaveCount(1);
  await shoot(page, 'synced-check-in');
});

test('offline: a client added at the desk is booked, marked waiting to sync; back online it is in the cloud once; the booking the studio waitlisted is shown', async ({
  page,
  desk,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(desk.hostUrl);
  await expect(page.getByTestId('status-staff')).toHaveText(MANAGER.name, { timeout: 15_000 });
  const online = page.getByTestId('sync-online');
  const pending = page.getByTestId('sync-pending');
  await expect(online).toHaveAttribute('data-state', 'online', { timeout: 20_000 });
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });
  const { studioUuid } = await stationState(page);
  const { timeZone } = await viaStation<{ timeZone: string }>(page, 'GET', `v4/${studioUuid}/schedule/init`);
  // Tomorrow's first class: today's may be over already, and the studio refuses bookings of a past class.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(Date.now() + 86_400_000));

  // Online once: the client screens (their settings are kept) and today's class, whose id we note.
  await page.getByTestId('nav-clients').click();
  await expect(page.getByTestId('client-row').first()).toBeVisible();
  await page.getByTestId('clients-add').click();
  await expect(page.getByTestId('client-add-form')).toBeVisible();
  await page.keyboard.press('Escape');
  const opened = page.waitForRequest(
    (r) => r.url().endsWith('/ipc/apiRequest') && (r.postData() ?? '').includes('enrollments/init'),
  );
  await openTodaysClass(page, today);
  const eventId = /schedule-event\/([0-9a-f-]{36})\/enrollments/.exec((await opened).postData() ?? '')![1]!;
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  // A client with a valid pass who is not on that class yet (the waiting list asks for a pass).
  const onClass = await viaStation<{
    attendees: Array<{ client: { id: string } }>;
    waitingList: Array<{ client: { id: string } }>;
  }>(page, 'GET', `v4/${studioUuid}/schedule-event/${eventId}/enrollments/init`);
  const busy = new Set([...onClass.attendees, ...onClass.waitingList].map((v) => v.client.id));
  const passHolders = await viaStation<{ items: Array<{ id: string; lastName: string; firstName: string }> }>(
    page,
    'GET',
    `v4/${studioUuid}/client/collection?hasValidPass=true&limit=100`,
  );
  const holder = passHolders.items.find((c) => !busy.has(c.id))!;
  expect(holder).toBeTruthy();
  // Another pass holder, told apart from the first by last name on the screens.
  const refused = passHolders.items.find((c) => !busy.has(c.id) && c.lastName !== holder.lastName)!;
  expect(refused).toBeTruthy();

  await desk.stopCloud();
  await expect(online).toHaveAttribute('data-state', 'offline', { timeout: 15_000 });

  // A new client, through the back office's own dialog, answered from SQLite (createClient queued).
  const lastName = `Desk${Date.now().toString(36)}`;
  await page.getByTestId('nav-clients').click();
  await page.getByTestId('clients-add').click();
  const form = page.getByTestId('client-add-form');
  await form.locator('input').nth(0).fill('Iga');
  await form.locator('input').nth(1).fill(lastName);
  await page.getByTestId('client-add-submit').click();
  // No duplicates: the dialog opens the new profile itself.
  await expect(page.getByTestId('client-name')).toHaveText(`Iga ${lastName}`, { timeout: 15_000 });
  await expect(page.getByTestId('provisional-badge')).toHaveText('Waiting to sync');
  // A tab whose data the station does not keep says so.
  await page.getByTestId('client-tab-notes').click();
  await expect(page.getByTestId('client-tab-offline')).toContainText('Not available offline');
  await shoot(page, 'offline-new-client', [1280, 1024]);
  await page.getByTestId('nav-clients').click();
  await page.getByTestId('clients-search').fill(lastName);
  await expect(page.getByTestId('client-row')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByTestId('client-row').getByTestId('provisional-badge')).toBeVisible();

  // Booked on today's class at the desk: provisional until synced.
  await openTodaysClass(page, today);
  // The new client has no pass yet: paid at the desk (else the studio refuses the booking).
  // Not forced: Playwright waits until the drawer has stopped sliding in (a forced check while it
  // moved was "outside of the viewport"). Mantine's switch input lies transparent over its label.
  const payAtDesk = page.getByRole('dialog').getByRole('switch');
  await payAtDesk.check();
  await page.getByTestId('enrol-search').fill(lastName);
  await page.getByTestId('enrol-option').filter({ hasText: lastName }).click();
  const row = page.getByTestId('attendee-row').filter({ hasText: lastName });
  await expect(row.getByTestId('visit-status')).toHaveText('Booked', { timeout: 15_000 });
  await expect(row.getByTestId('provisional-badge')).toBeVisible();
  // …and a client with a pass, after them (pushed in this order).
  await payAtDesk.uncheck();
  await page.getByTestId('enrol-search').fill(holder.lastName);
  await page.getByTestId('enrol-option').filter({ hasText: holder.lastName }).first().click();
  const holderRow = page.getByTestId('attendee-row').filter({ hasText: holder.lastName });
  await expect(holderRow.getByTestId('provisional-badge')).toBeVisible({ timeout: 15_000 });
  // …and one more client with a pass, whom the studio will refuse (its waiting list will be full).
  await page.getByTestId('enrol-search').fill(refused.lastName);
  await page
    .getByTestId('enrol-option')
    .filter({ hasText: `${refused.firstName} ${refused.lastName}` })
    .first()
    .click();
  await expect(page.getByTestId('attendee-row').filter({ hasText: refused.lastName }).first()).toBeVisible({
    timeout: 15_000,
  });
  await expect(pending).toHaveText('4 changes waiting to sync');
  await shoot(page, 'offline-provisional', [1280, 1024]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // The pass holder's profile offline: the Passes tab from SQLite (the booking just made takes an
  // entry of a pass, waiting to sync), and the Visits tab shows that booking waiting to sync too.
  await page.evaluate((hash) => (window.location.hash = hash), `#/clients/${holder.id}/passes`);
  const passesTab = page.getByTestId('client-passes');
  await expect(passesTab).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('client-tab-offline')).toHaveCount(0);
  await expect(page.getByTestId('client-passes-offline')).toBeVisible();
  await expect(passesTab.getByTestId('pass-card').first()).toBeVisible();
  await expect(passesTab.getByTestId('pass-entries').first()).not.toBeEmpty();
  await expect(passesTab.getByTestId('pass-card').getByTestId('provisional-badge')).toHaveCount(1);
  await expect(page.getByTestId('sell-pass-open')).toHaveCount(0);
  await shoot(page, 'offline-passes', [1024, 1280, 1920]);
  await page.getByTestId('client-tab-visits').click();
  // Tomorrow's class, booked here offline: among the upcoming visits, waiting to sync.
  await expect(page.getByTestId('client-visit-row').getByTestId('provisional-badge').first()).toBeVisible({
    timeout: 15_000,
  });
  await shoot(page, 'offline-visits', [1024, 1280]);

  // Meanwhile, online elsewhere, the studio leaves the class one free place (same data, another port:
  // the station still cannot reach it): the new client takes it, the pass holder is waitlisted.
  await desk.startCloud(SIDE_PORT);
  const side = new CloudClient(`http://localhost:${SIDE_PORT}`);
  const login = await side.login({ emailAddress: MANAGER.email, password: MANAGER.password, studioUuid });
  const credentials = { userId: login.userId, sessionId: login.sessionId, csrfToken: login.token };
  const sideCall = async (method: 'GET' | 'PATCH', apiPath: string, body?: unknown) => {
    const res = await side.forward(credentials, {
      method,
      path: apiPath,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, res.body).toBe(200);
    return JSON.parse(res.body) as { taken: number; waitingListSize: number; waitingList: unknown[] };
  };
  const there = await sideCall('GET', `v4/${studioUuid}/schedule-event/${eventId}/enrollments/init`);
  // One free place (the new client's) and one place on the waiting list (the pass holder's): the
  // third booking is refused.
  await sideCall('PATCH', `v2/${studioUuid}/schedule-events/${eventId}`, {
    capacity: there.taken + 1,
    waitingListSize: there.waitingList.length + 1,
  });
  await desk.stopCloud();

  // The cloud is back where the station looks: the second booking comes back waitlisted; the desk says so.
  await desk.startCloud();
  await expect(online).toHaveAttribute('data-state', 'online', { timeout: 20_000 });
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });
  await page.getByTestId('sync-notices-open').click();
  const notice = page.getByTestId('sync-notice').filter({ hasText: holder.lastName });
  await expect(notice.getByTestId('sync-notice-status')).toHaveText('Waiting list');
  // The refused booking says why, in the desk's language (the cloud's visit.classFull).
  const refusal = page.getByTestId('sync-notice').filter({ hasText: refused.lastName });
  await expect(refusal.getByTestId('sync-notice-status')).toHaveText('Refused');
  // (The studio refuses it as full, or, when that client's passes do not cover the class, for that.)
  await expect(refusal.getByTestId('sync-notice-reason')).toHaveText(
    /^Why: (The class and its waiting list are full|No pass of this client covers this class)\.$/,
  );
  await shoot(page, 'sync-notices', [1024, 1280, 1920]);
  await page.getByTestId('language-switch').first().getByText('PL', { exact: true }).dispatchEvent('click');
  await expect(refusal.getByTestId('sync-notice-reason')).toHaveText(
    /^Powód: (Brak miejsc na zajęciach i na liście rezerwowej|Żaden karnet klienta nie obejmuje tych zajęć)\.$/,
  );
  await page.getByTestId('language-switch').first().getByText('EN', { exact: true }).dispatchEvent('click');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await notice.getByTestId('sync-notice-ack').click();
  await expect(notice).toHaveCount(0);
  await page.keyboard.press('Escape');

  // The cloud has the new client exactly once, on the class; the pass holder on its waiting list; the
  // desk shows both, confirmed.
  const found = await viaStation<{ items: Array<{ id: string }> }>(
    page,
    'GET',
    `v4/${studioUuid}/client/search?q=${lastName}&limit=10`,
  );
  expect(found.items).toHaveLength(1);
  const enrollments = await viaStation<{
    attendees: Array<{ client: { id: string; lastName: string } }>;
    waitingList: Array<{ client: { id: string; lastName: string } }>;
  }>(page, 'GET', `v4/${studioUuid}/schedule-event/${eventId}/enrollments/init`);
  expect(enrollments.attendees.filter((a) => a.client.lastName === lastName)).toHaveLength(1);
  expect(enrollments.waitingList.filter((a) => a.client.lastName === holder.lastName)).toHaveLength(1);
  expect(
    [...enrollments.attendees, ...enrollments.waitingList].filter((a) => a.client.id === refused.id),
  ).toEqual([]);
  await openTodaysClass(page, today);
  await expect(page.getByTestId('attendee-row').filter({ hasText: lastName })).toHaveCount(1);
  const waiting = page.getByTestId('waiting-row').filter({ hasText: holder.lastName });
  await expect(waiting).toHaveCount(1);
  await expect(page.getByRole('dialog').getByTestId('provisional-badge')).toHaveCount(0);
});
