import { expect, test } from '@playwright/test';
import { readDemo, type DemoDetails } from './support/demo';
import { shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';
import { call, studioDay, managerClient, addClassService, addScheduleMeta } from './support/studio-api';

/**
 * The back office's course pages. The demo manager makes a paid course through the staff API (a
 * `course` class service, a meta with a class on each of three days from the day after tomorrow at
 * 21:15, a 2-entry course pass attached as its price) and a new client holding that pass. In the back
 * office: the course list shows the course; "Sign up a client" finds the client, says the course's
 * price and that the pass pays two classes and the third is paid at the desk; the confirm page lists
 * all three classes with what pays each; confirming books them (one transaction); the attendance
 * list shows the client, sorted by the URL's field and method. Screenshots EN/PL at 1280 and 390:
 * E2E_RESULTS_DIR/screenshots/course-*.png.
 */

async function arrange(demo: DemoDetails, tag: string) {
  const studio = demo.studioUuid;
  const { owner, init } = await managerClient(demo);
  const service = await addClassService(owner, studio, {
    serviceType: 'course',
    name: { en: { value: `Wheel throwing ${tag}` }, pl: { value: `Toczenie na kole ${tag}` } },
    durationMinutes: 60,
  });
  const meta = await addScheduleMeta(owner, studio, service.id, {
    locationId: init.locations[0].id,
    daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
    startTime: '21:15',
    durationMinutes: 60,
    firstDate: studioDay(2),
    lastDate: studioDay(4),
    capacity: 8,
    waitingListSize: 0,
  });
  await call(owner, 'POST', `/api/v2/${studio}/schedule-events/generate`, { scheduleMetaIds: [meta.id] });
  const option = await call(
    owner,
    'POST',
    `/api/v4/${studio}/pricing-option`,
    {
      name: { en: { value: `Course pass ${tag}` }, pl: { value: `Karnet kursowy ${tag}` } },
      price: 24000,
      entries: 2,
      expirationType: 0,
      validityCount: 3,
      validityUnit: 'month',
      serviceTypes: ['coursePricingOption'],
    },
    201,
  );
  await call(owner, 'POST', `/api/v2/${studio}/schedule-metas/${meta.id}/pricing-options/attach`, {
    pricingOptionIds: [option.id],
  });
  const lastName = `Kowalczyk${tag}`;
  const created = await call(
    owner,
    'POST',
    `/api/v4/${studio}/client`,
    { firstName: 'Helena', lastName },
    201,
  );
  const clientId = created.client.id as string;
  const pass = await call(
    owner,
    'POST',
    `/api/v2/${studio}/clients/${clientId}/client-pricing-options/${option.id}`,
    {},
    201,
  );
  return { owner, metaId: meta.id as string, clientId, lastName, passId: pass.id as string };
}

test('staff sign a client up for a whole course, confirm every class, and see the attendance list', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const demo = readDemo();
  const tag = Date.now().toString(36).slice(-5);
  const { owner, metaId, clientId, lastName, passId } = await arrange(demo, tag);
  const errors: string[] = [];
  const page = await backofficePage(browser, demo, { errors });

  // ---- Course list ---------------------------------------------------------------------------------
  await page.getByRole('link', { name: 'Courses' }).first().click();
  await expect(page).toHaveURL(/#\/courses$/);
  // The tag is in both languages' names.
  const card = page.getByTestId('course-card').filter({ hasText: tag });
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('course-sessions')).toHaveText('3 of 3 classes to come');
  await expect(card.getByTestId('course-places')).toHaveText('8 places left');
  await expect(card.getByTestId('course-enrolled')).toHaveText('0 clients');
  await shootAll(page, 'course-list', async () => {
    await expect(card.getByTestId('course-signup-link')).toBeVisible();
  });

  // ---- Signup: find the client, see the price and what pays ---------------------------------------
  await card.getByTestId('course-signup-link').click();
  await expect(page).toHaveURL(new RegExp(`#/courses/${metaId}/signup$`));
  await page.getByTestId('signup-client-search').fill(lastName);
  await page.getByTestId('signup-client-result').filter({ hasText: lastName }).click();
  await expect(page.getByTestId('signup-client')).toContainText(`Helena ${lastName}`);
  const coverage = page.getByTestId('signup-coverage');
  await expect(coverage.getByTestId('signup-prices')).toContainText('Course price:');
  await expect(coverage.getByTestId('signup-prices')).toContainText(`Course pass ${tag}`);
  const lines = coverage.getByTestId('signup-coverage-lines');
  await expect(lines).toContainText(`2 classes`);
  await expect(lines).toContainText(`Course pass ${tag}`);
  await expect(lines).toContainText('1 class');
  await expect(lines).toContainText('Pays at the desk');
  await shootAll(page, 'course-signup', async () => {
    await expect(page.getByTestId('signup-continue')).toBeEnabled();
  });

  // ---- Confirm: every class with what pays it; book them all ---------------------------------------
  await page.getByTestId('signup-continue').click();
  await expect(page).toHaveURL(
    new RegExp(`#/courses/${metaId}/signup/confirm\\?clientId=${clientId}&payment=auto`),
  );
  const classes = page.getByTestId('confirm-class');
  await expect(classes).toHaveCount(3);
  await expect(classes.nth(0).getByTestId('confirm-class-payment')).toHaveText(`Course pass ${tag}`);
  await expect(classes.nth(1).getByTestId('confirm-class-payment')).toHaveText(`Course pass ${tag}`);
  await expect(classes.nth(2).getByTestId('confirm-class-payment')).toHaveText('Pays at the desk');
  await expect(page.getByTestId('confirm-client')).toHaveText(`Client: Helena ${lastName}`);
  // The preview kept nothing.
  const before = await call(
    owner,
    'GET',
    `/api/v4/${demo.studioUuid}/client/${clientId}/client-visit/collection`,
  );
  expect(before.items).toEqual([]);
  await shootAll(page, 'course-confirm', async () => {
    await expect(page.getByTestId('confirm-submit')).toBeEnabled();
  });
  await page.getByTestId('confirm-submit').click();
  await expect(page.getByTestId('confirm-done')).toContainText(
    `Helena ${lastName} is booked into 3 classes; some are to be paid at the desk.`,
  );
  const after = await call(
    owner,
    'GET',
    `/api/v4/${demo.studioUuid}/client/${clientId}/client-visit/collection`,
  );
  expect(after.items.map((v: { status: number }) => v.status).sort()).toEqual([0, 0, 9]);
  const passes = await call(
    owner,
    'GET',
    `/api/v4/${demo.studioUuid}/client/${clientId}/client-pricing-option/all`,
  );
  expect(passes.items.find((p: { id: string }) => p.id === passId).entriesUsed).toBe(2);

  // ---- Attendance list, sortable through the URL ---------------------------------------------------
  await page.getByTestId('confirm-to-attendance').click();
  await expect(page).toHaveURL(new RegExp(`#/courses/${metaId}/attendance`));
  const row = page.getByTestId('attendance-row').filter({ hasText: lastName });
  await expect(row).toHaveCount(1);
  // One dot per class: booked, booked, unconfirmed (to pay at the desk).
  await expect(row.getByTestId('attendance-visit')).toHaveCount(3);
  await expect(row.getByTestId('attendance-visit').nth(2)).toHaveAttribute('data-status', '9');
  await expect(page.getByTestId('attendance-field')).toHaveValue('First name');
  await page.getByTestId('attendance-sort-lastName').click();
  await expect(page).toHaveURL(/field=lastName&method=ASC/);
  await page.getByTestId('attendance-sort-lastName').click();
  await expect(page).toHaveURL(/field=lastName&method=DESC/);
  await page.goto(page.url().replace(/\?.*$/, '?field=booked&method=DESC'));
  await expect(page.getByTestId('attendance-field')).toHaveValue('Booked');
  await expect(row).toHaveCount(1);
  await shootAll(page, 'course-attendance', async () => {
    await expect(page.getByTestId('attendance-row').filter({ hasText: lastName })).toBeVisible();
  });

  // Back on the list the course counts the client.
  await page.goto(page.url().replace(/#.*$/, '#/courses'));
  await expect(card.getByTestId('course-enrolled')).toHaveText('1 client');
  expect(errors).toEqual([]);
});
