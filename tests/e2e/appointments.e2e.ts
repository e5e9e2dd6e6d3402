import { expect, test } from '@playwright/test';
import { HttpClient } from '../support/http-client';
import { readDemo, type DemoDetails } from './support/demo';
import { setLanguage, shootAll } from './support/screenshots';
import { backofficePage, frontofficePage } from './support/sign-in';
import { call, managerClient, studioDay } from './support/studio-api';

/**
 * Appointments (issue 21) on the demo studio: a new client books a personal training online (the
 * time is held while they pay at the test bank) and sees it booked; a client's request for a sports
 * massage (confirmed by staff) is confirmed from the back office's staff calendar. Screenshots in
 * English and Polish at 1280 and 390 px: test-results/screenshots/appointments-*.png.
 */
const PASSWORD = 'Appointment-2026!';

/** The next weekday (the demo staff work Monday to Friday) at least `from` days ahead. */
function weekdayAhead(from: number): string {
  for (let d = from; ; d++) {
    const day = studioDay(d);
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
    if (weekday >= 1 && weekday <= 5) return day;
  }
}

async function newClient(demo: DemoDetails, tag: string) {
  const email = `appointments-${tag}@example.com`;
  const visitor = await HttpClient.anonymous(demo.baseURL);
  await call(
    visitor,
    'POST',
    `/api/v4/${demo.studioUuid}/signup`,
    {
      emailAddress: email,
      password: PASSWORD,
      firstName: 'Iga',
      lastName: `Appointment ${tag}`,
      agreements: { terms: true, privacy: true },
    },
    201,
  );
  return { email, name: `Iga Appointment ${tag}` };
}

test('a client books a personal training and pays online', async ({ browser }) => {
  test.setTimeout(240_000);
  const demo = readDemo();
  const tag = Date.now().toString(36);
  const { email } = await newClient(demo, tag);
  const errors: string[] = [];
  const page = await frontofficePage(browser, demo, 'appointments', {
    who: { email, password: PASSWORD },
    errors,
  });
  await setLanguage(page, 'EN');
  await page.getByTestId('appointment-service').filter({ hasText: 'Personal training' }).click();
  await page.getByTestId('appointment-day').fill(weekdayAhead(3));
  const first = page.getByTestId('appointment-time').first();
  await expect(first).toBeVisible();
  await first.click();
  await page.getByTestId('pay-online').check();
  await shootAll(page, 'appointments-book', async (locale) => {
    await expect(page.getByTestId('appointment-book')).toHaveText(locale === 'EN' ? 'Book' : 'Zarezerwuj');
  });
  await page.getByTestId('appointment-service').filter({ hasText: 'Personal training' }).click();
  await first.click();
  await page.getByTestId('pay-online').check();
  await page.getByTestId('appointment-book').click();
  await expect(page).toHaveURL(/\/app\/test-provider\//);
  await expect(page.locator('[data-amount]')).toHaveText('180 zł');
  await page.locator('button[data-outcome="succeeded"]').click();
  await expect(page).toHaveURL(/\/frontoffice\/appointments\?order=/);
  const mine = page.getByTestId('my-appointment').filter({ hasText: 'Personal training' });
  await expect(mine.getByTestId('my-appointment-status')).toHaveText('Booked');
  await shootAll(page, 'appointments-mine', async (locale) => {
    await expect(page.getByTestId('my-appointment-status').first()).toHaveText(
      locale === 'EN' ? 'Booked' : 'Zarezerwowana',
    );
  });
  // Their calendar feed: make the link, read it as a calendar app would, revoke it.
  await page.getByTestId('calendar-feed-button').click();
  const feed = page.getByTestId('calendar-feed');
  await expect(feed.getByTestId('calendar-feed-state')).toHaveText('You have no link yet.');
  await feed.getByRole('button', { name: 'Make a link' }).click();
  const url = await feed.getByTestId('calendar-feed-url').inputValue();
  expect(url).toMatch(/\/api\/v4\/appointment-calendar\/[^/]+\.ics$/);
  const ics = await page.request.get(url);
  expect(ics.status()).toBe(200);
  // The feed is in the studio's language (the demo studio's is Polish).
  expect(await ics.text()).toMatch(/BEGIN:VCALENDAR[\s\S]*SUMMARY:Trening personalny/);
  await shootAll(
    page,
    'appointments-feed',
    async (locale) => {
      await expect(feed.getByTestId('calendar-feed-url')).toBeVisible();
      await expect(
        feed.getByRole('button', { name: locale === 'EN' ? 'Copy link' : 'Kopiuj link' }),
      ).toBeVisible();
    },
    { dialog: true },
  );
  await feed.getByRole('button', { name: 'Revoke the link' }).click();
  await expect(feed.getByTestId('calendar-feed-state')).toHaveText('You have no link yet.');
  expect((await page.request.get(url)).status()).toBe(404);
  expect(errors).toEqual([]);
});

test('staff confirm a sports massage request from the staff calendar', async ({ browser }) => {
  test.setTimeout(240_000);
  const demo = readDemo();
  const studio = demo.studioUuid;
  const tag = Date.now().toString(36);
  const { email, name } = await newClient(demo, tag);
  const { owner } = await managerClient(demo);
  const init = await call(owner, 'GET', `/api/v4/${studio}/appointment/init`);
  const pass = init.passOptions.find(
    (p: { name: { en?: { value: string } } }) => p.name.en?.value === '5 personal trainings',
  );
  const massage = init.services.find(
    (s: { name: { en?: { value: string } } }) => s.name.en?.value === 'Sports massage',
  );
  const found = await call(owner, 'GET', `/api/v4/${studio}/client/search?q=${encodeURIComponent(email)}`);
  await call(
    owner,
    'POST',
    `/api/v2/${studio}/clients/${found.items[0].id}/client-pricing-options/${pass.id}`,
    {},
    201,
  );
  const client = await HttpClient.signedIn(demo.baseURL, email, PASSWORD, studio);
  const day = weekdayAhead(4);
  const slots = await call(client, 'POST', `/api/v4/${studio}/appointment/find`, {
    serviceId: massage.id,
    from: day,
    to: day,
  });
  const booked = await call(client, 'POST', `/api/v4/${studio}/booking/appointment/book`, {
    serviceId: massage.id,
    startsAt: slots.items[slots.items.length - 1].startsAt,
    payment: 'pass',
  });
  expect(booked.appointment.status).toBe('pending');

  const errors: string[] = [];
  const page = await backofficePage(browser, demo, { errors });
  await page.goto(`/${studio}/backoffice#/appointments?date=${day}`);
  const event = page.getByTestId('staff-calendar').getByText(name, { exact: false });
  await expect(event).toBeVisible();
  await shootAll(page, 'appointments-calendar', async () => {
    await expect(page.getByTestId('staff-calendar')).toBeVisible();
  });
  await event.click();
  const dialog = page.getByTestId('appointment-dialog');
  await expect(dialog.getByTestId('appointment-status')).toHaveText('Awaiting confirmation');
  await shootAll(
    page,
    'appointments-confirm-dialog',
    async (locale) => {
      await expect(dialog.getByTestId('appointment-confirm')).toHaveText(
        locale === 'EN' ? 'Confirm' : 'Potwierdź',
      );
    },
    { dialog: true },
  );
  await dialog.getByTestId('appointment-confirm').click();
  await expect(dialog).toHaveCount(0);
  const after = await call(owner, 'GET', `/api/v4/${studio}/appointment-event/${booked.appointment.id}`);
  expect(after.status).toBe('booked');
  expect(errors).toEqual([]);
});
