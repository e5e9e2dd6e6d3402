import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { readDemo, type DemoDetails } from './support/demo';
import { setLanguage, shootAll } from './support/screenshots';
import { backofficePage, frontofficePage } from './support/sign-in';
import { studioSlot } from './support/studio-api';

/**
 * Bookings end to end. The demo manager sets up a free class (Places → class services) and a one-off
 * class of it starting in about 40 minutes (so check-in is open), with one place and a waiting list.
 * The demo client books it on the front-office timetable with one tap, finds it in "my visits",
 * cancels it there (two taps) and books again. The manager opens the class: the client is on the
 * attendee list with their cancellation below; the manager enrols a second client (the class is full:
 * waiting list), checks the first one in (present), gives the class a second place and moves the
 * waiting client onto it. The client's visit now says "Present". Screenshots of every screen in
 * English and Polish at 1280 and 390 px go to E2E_RESULTS_DIR/screenshots/bookings-*.png.
 * Needs a freshly seeded demo (as Playwright's webServer gives): on a reused server the class made by
 * an earlier run overlaps this one and the client's booking is refused as a conflict.
 */
async function staffSignIn(browser: Browser, demo: DemoDetails, errors: string[]): Promise<Page> {
  const page = await backofficePage(browser, demo, { errors, label: 'backoffice' });
  await setLanguage(page, 'EN');
  return page;
}

async function clientSignIn(browser: Browser, demo: DemoDetails, errors: string[]): Promise<Page> {
  const page = await frontofficePage(browser, demo, 'timetable', { errors, label: 'frontoffice' });
  await setLanguage(page, 'EN');
  return page;
}

/** The class's card on the front-office timetable week (next week when it falls there). */
async function timetableCard(page: Page, name: string): Promise<Locator> {
  await expect(page.getByTestId('timetable-week')).toBeVisible();
  await expect(page.getByTestId('timetable-event').first()).toBeVisible();
  const card = page.getByTestId('timetable-event').filter({ hasText: name });
  if ((await card.count()) === 0) await page.getByTestId('timetable-next').click();
  await expect(card).toHaveCount(1);
  return card;
}

test('bookings: a client books, sees and cancels a class; staff see them, check them in, move the waiting list', async ({
  browser,
}) => {
  test.setTimeout(540_000);
  const demo = readDemo();
  test.skip(!demo.clientEmail || !demo.clientPassword, 'the demo has no client login');
  const errors: string[] = [];
  const name = `Stretch ${Date.now().toString(36)}`;
  const slot = studioSlot(40);

  // ---- Back office: a free class service and a one-off class of it, 40 minutes from now ----------
  const staff = await staffSignIn(browser, demo, errors);
  await staff.goto(`/${demo.studioUuid}/backoffice#/places/services`);
  await expect(staff.getByTestId('services-panel')).toBeVisible();
  await staff.getByTestId('service-add').click();
  const serviceForm = staff.getByTestId('service-form');
  await serviceForm.getByLabel('Name (English)').fill(name);
  await serviceForm.getByLabel('Name (Polish)').fill(`${name} PL`);
  await serviceForm.getByLabel('Duration (minutes)').fill('45');
  await serviceForm.getByTestId('service-free').check({ force: true });
  await serviceForm.getByTestId('service-submit').click();
  await expect(serviceForm).toBeHidden();
  const serviceRow = staff.getByTestId('service-row').filter({ hasText: name });
  await expect(serviceRow.getByTestId('service-free-badge')).toHaveText('Free');
  await shootAll(staff, 'bookings-places-services', () => expect(serviceRow).toBeVisible());
  await staff.getByTestId('places-tab-locations').click();
  await expect(staff.getByTestId('places-screen')).toBeVisible();
  await shootAll(staff, 'bookings-places-locations', () =>
    expect(staff.getByTestId('places-screen')).toBeVisible(),
  );

  await staff.goto(`/${demo.studioUuid}/backoffice#/schedule`);
  await expect(staff.getByTestId('schedule-week')).toBeVisible();
  await staff.getByTestId('schedule-new-meta').click();
  const meta = staff.getByTestId('schedule-meta-form');
  await meta.getByTestId('meta-class-service').click();
  await staff.getByRole('option', { name, exact: true }).click();
  await meta.getByTestId(`meta-day-${slot.isoWeekday}`).locator('..').click();
  await meta.getByTestId('meta-start-time').fill(slot.time);
  await meta.getByTestId('meta-first-date').fill(slot.date);
  await meta.getByTestId('meta-last-date').fill(slot.date);
  await meta.getByTestId('meta-capacity').fill('1');
  await meta.getByTestId('meta-waiting-list').fill('3');
  await meta.getByTestId('meta-cancellation-cutoff').fill('0');
  await meta.getByTestId('meta-submit').click();
  await expect(staff.getByTestId('schedule-notice')).toContainText('created with 1 class');

  // ---- Front office: book with one tap, see it in my visits, cancel with two, book again -------
  const client = await clientSignIn(browser, demo, errors);
  let card = await timetableCard(client, name);
  await expect(card.getByTestId('places-left')).toHaveText('1 place left');
  await card.getByTestId('timetable-book').click();
  await expect(card.getByTestId('my-status')).toHaveText('Booked');
  await expect(card.getByTestId('booking-feedback')).toBeVisible();
  await shootAll(client, 'bookings-timetable-booked', async () => {
    // Phones show one day at a time: the class's day.
    if (client.viewportSize()!.width < 768) {
      const day = client.getByTestId('timetable-event').filter({ hasText: name });
      for (let i = 0; i < 7 && (await day.count()) === 0; i += 1)
        await client.getByTestId('timetable-next').click();
      await expect(day.getByTestId('my-status')).toBeVisible();
    } else await expect(client.getByTestId('timetable-week')).toBeVisible();
  });

  await client.goto(`/${demo.studioUuid}/frontoffice/visits`);
  const visit = client.getByTestId('visit-card').filter({ hasText: name });
  await expect(visit.getByTestId('visit-status')).toHaveText('Booked');
  await shootAll(client, 'bookings-my-visits', () => expect(visit).toBeVisible());
  await visit.getByTestId('visit-cancel').click();
  await expect(visit).toContainText('Your place goes to someone else; nothing is charged.');
  await visit.getByTestId('visit-cancel-confirm').click();
  await expect(visit.getByTestId('visit-status')).toHaveText('Early cancellation by client');
  await expect(visit.getByTestId('visit-cancel')).toHaveCount(0);

  await client.goto(`/${demo.studioUuid}/frontoffice/timetable`);
  card = await timetableCard(client, name);
  await expect(card.getByTestId('places-left')).toHaveText('1 place left');
  await card.getByTestId('timetable-book').click();
  await expect(card.getByTestId('my-status')).toHaveText('Booked');

  // ---- Back office: the attendee, the cancellation, enrolment onto the waiting list, check-in ----
  await staff.reload();
  await expect(staff.getByTestId('schedule-week')).toBeVisible();
  await expect(staff.getByTestId('schedule-event').first()).toBeVisible();
  const event = staff.getByTestId('schedule-event').filter({ hasText: name });
  if ((await event.count()) === 0) await staff.getByTestId('schedule-next').click();
  await event.click();
  const drawer = staff.getByRole('dialog');
  const attendees = drawer.getByTestId('event-attendees');
  await expect(attendees.getByTestId('attendee-row')).toHaveCount(1);
  const clientRow = attendees.getByTestId('attendee-row').filter({ hasText: 'Julia Nowak' });
  await expect(clientRow.getByTestId('attendee-name')).toHaveText('Julia Nowak');
  await expect(clientRow.getByTestId('visit-status')).toHaveText('Booked');
  await expect(attendees.getByTestId('attendees-summary')).toContainText('1 / 1 booked');
  await attendees.getByTestId('cancelled-toggle').click();
  await expect(attendees.getByTestId('cancelled-row')).toContainText('Early cancellation by client');

  // The class is full: the next client goes onto the waiting list.
  await attendees.getByTestId('enrol-search').fill('kowal');
  const option = staff.getByTestId('enrol-option').filter({ hasNotText: 'Julia Nowak' }).first();
  await expect(option).toBeVisible();
  const waitingName = ((await option.locator('p').first().textContent()) ?? '').trim();
  await option.click();
  await expect(attendees.getByTestId('attendees-message')).toContainText('waiting list');
  const waitingRow = attendees.getByTestId('waiting-row');
  await expect(waitingRow).toHaveCount(1);
  await expect(waitingRow).toContainText(`1. ${waitingName}`);

  await clientRow.getByTestId('attendee-present').click();
  await expect(clientRow.getByTestId('visit-status')).toHaveText('Present');
  await shootAll(staff, 'bookings-event-attendees', () => expect(clientRow).toBeVisible(), { dialog: true });

  // A second place, then the waiting client is moved onto the class by hand (within the last hour
  // before the start the studio's promotion cut-off keeps a freed place from filling by itself).
  await drawer.getByTestId('schedule-event-capacity').fill('2');
  await drawer.getByTestId('schedule-event-capacity-save').click();
  await expect(attendees.getByTestId('attendees-summary')).toContainText('1 / 2 booked');
  await expect(attendees.getByTestId('waiting-row')).toHaveCount(1);
  await attendees.getByTestId('waiting-promote').click();
  await expect(attendees.getByTestId('attendees-message')).toContainText(
    `${waitingName} is now on the class.`,
  );
  await expect(attendees.getByTestId('attendee-row')).toHaveCount(2);
  await expect(attendees.getByTestId('waiting-row')).toHaveCount(0);
  await expect(attendees.getByTestId('attendees-summary')).toContainText('2 / 2 booked');
  await expect(attendees.getByTestId('attendee-row').filter({ hasText: waitingName })).toHaveCount(1);
  await shootAll(staff, 'bookings-event-attendees-promoted', () => expect(clientRow).toBeVisible(), {
    dialog: true,
  });

  // ---- The client's visit says they were there ---------------------------------------------------
  await client.goto(`/${demo.studioUuid}/frontoffice/visits`);
  // Two cards for this class: the booking cancelled earlier, and the one they attended.
  await expect(
    client
      .getByTestId('visit-card')
      .filter({ hasText: name })
      .getByTestId('visit-status')
      .filter({ hasText: 'Present' }),
  ).toHaveCount(1);

  expect(errors).toEqual([]);
  await staff.context().close();
  await client.context().close();
});
