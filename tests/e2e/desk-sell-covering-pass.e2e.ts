import { expect, test, type Locator } from '@playwright/test';
import { HttpClient } from '../support/http-client';
import { readDemo, type DemoDetails } from './support/demo';
import { VIEWPORTS, shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';
import { addClassService, addScheduleMeta, call, managerClient, studioDay } from './support/studio-api';

/**
 * Issue 26 at the desk: enrolling a client with no covering pass offers to sell one there and then,
 * and the class is booked once it is paid (the POS checkout, then the enrolment). The schedule's
 * cards wrap the room's name rather than cutting it at 390 px. Set up through the API: a class
 * service with one class tomorrow in a room with a long name, a single-entry pass sold at the desk
 * that covers only that service, a new client (signed up, no pass). Screenshots in English and
 * Polish at 1280 and 390 px: E2E_RESULTS_DIR/screenshots/desk-sell-pass-*.png, schedule-cards-*.png.
 */

async function arrange(demo: DemoDetails, tag: string) {
  const studio = demo.studioUuid;
  const { owner, init } = await managerClient(demo);
  const service = await addClassService(owner, studio, {
    serviceType: 'classroom',
    name: { en: { value: `Sell flow ${tag}` }, pl: { value: `Sprzedaż ${tag}` } },
    durationMinutes: 45,
  });
  const day = studioDay(1);
  const meta = await addScheduleMeta(owner, studio, service.id, {
    locationId: init.locations[0].id as string,
    daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
    startTime: '06:10',
    durationMinutes: 45,
    firstDate: day,
    lastDate: day,
    capacity: 8,
    waitingListSize: 0,
  });
  await call(owner, 'POST', `/api/v2/${studio}/schedule-events/generate`, { scheduleMetaIds: [meta.id] });
  await call(
    owner,
    'POST',
    `/api/v4/${studio}/pricing-option`,
    {
      name: { en: { value: `Single ${tag}` }, pl: { value: `Jednorazowe ${tag}` } },
      price: 4500,
      entries: 1,
      expirationType: 0,
      validityCount: 30,
      validityUnit: 'day',
      serviceTypes: ['classroomPricingOption'],
      restrictions: { classServiceIds: [service.id], locationIds: [], timeWindows: [], tagIds: [] },
      sellOnline: false,
      sellAtDesk: true,
    },
    201,
  );
  const visitor = await HttpClient.anonymous(demo.baseURL);
  await call(
    visitor,
    'POST',
    `/api/v4/${studio}/signup`,
    {
      emailAddress: `sell-pass-${tag}@example.com`,
      password: 'Sell-pass-2026!',
      firstName: 'Zofia',
      lastName: `Walkin${tag}`,
      agreements: { terms: true, privacy: true },
    },
    201,
  );
  return { className: `Sell flow ${tag}`, clientLast: `Walkin${tag}`, passName: `Single ${tag}` };
}

/** Text cut by an ellipsis or a line clamp shows less than it holds. */
async function expectNotCut(texts: Locator) {
  const cut = await texts.evaluateAll((nodes) =>
    nodes
      .filter((n) => {
        const style = getComputedStyle(n);
        return (
          n.scrollWidth > n.clientWidth + 1 ||
          n.scrollHeight > n.clientHeight + 1 ||
          style.textOverflow === 'ellipsis' ||
          style.getPropertyValue('-webkit-line-clamp') !== 'none'
        );
      })
      .map((n) => n.textContent),
  );
  expect(cut).toEqual([]);
}

test('enrolling without a pass sells a covering pass at the desk and books the class; cards wrap', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const demo = readDemo();
  const tag = Date.now().toString(36).slice(-5);
  const { className, clientLast, passName } = await arrange(demo, tag);
  const errors: string[] = [];
  const staff = await backofficePage(browser, demo, { errors });

  await staff.goto(`/${demo.studioUuid}/backoffice#/schedule`);
  await expect(staff.getByTestId('schedule-event').first()).toBeVisible();
  const event = staff.getByTestId('schedule-event').filter({ hasText: className });
  if ((await event.count()) === 0) await staff.getByTestId('schedule-next').click();
  await event.click();
  const attendees = staff.getByRole('dialog').getByTestId('event-attendees');
  await attendees.getByTestId('enrol-search').fill(clientLast);
  await staff.getByTestId('enrol-option').filter({ hasText: clientLast }).click();

  // Refused for want of a pass: the message says so and the desk offers the covering pass.
  await expect(attendees.getByTestId('attendees-message')).toContainText('pass');
  const offer = attendees.getByTestId('sell-covering');
  // The studio's general passes cover it too; the one made for this class is among them.
  const ours = offer.getByTestId('sell-covering-option').filter({ hasText: passName });
  await expect(ours).toHaveText(`Sell ${passName} · 45 zł and book`);
  await shootAll(
    staff,
    'desk-sell-pass',
    async () => {
      await expect(offer.getByTestId('sell-covering-option').first()).toBeVisible();
    },
    { dialog: true },
  );
  await offer.getByTestId('sell-covering-method').getByText('Payment terminal').click();
  await ours.click();

  await expect(attendees.getByTestId('attendees-message')).toContainText(`Sold ${passName}`);
  const row = attendees.getByTestId('attendee-row').filter({ hasText: clientLast });
  await expect(row.getByTestId('visit-status')).toHaveText('Booked');
  await expect(row).toContainText(passName);
  await expect(attendees.getByTestId('sell-covering')).toHaveCount(0);

  // The schedule's cards at a phone's width: every room and instructor line whole.
  await staff.keyboard.press('Escape');
  await staff.setViewportSize(VIEWPORTS.phone);
  await expect(staff.getByTestId('schedule-event').first()).toBeVisible();
  await expectNotCut(staff.getByTestId('schedule-event-place'));
  await shootAll(staff, 'schedule-cards', async () => {
    await expect(staff.getByTestId('schedule-event').first()).toBeVisible();
  });
  // Sign-out stays one tap away on a phone: the header's user menu.
  await staff.getByTestId('user-menu').click();
  await expect(staff.getByTestId('sign-out')).toBeVisible();
  expect(errors).toEqual([]);
});
