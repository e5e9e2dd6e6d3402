import { expect, test, type Browser, type Page } from '@playwright/test';
import { readDemo, type DemoDetails } from './support/demo';
import { setLanguage, shootAll, VIEWPORTS } from './support/screenshots';
import { frontofficePage } from './support/sign-in';
import { call, studioDay, managerClient, addClassService, addScheduleMeta } from './support/studio-api';

/**
 * Courses in the front office. The demo studio has no course, so the demo manager makes one through
 * the staff API: a free class service of type `course` and a meta with a class on each of three days
 * starting the day after tomorrow. The demo client finds a class of it on the timetable, which offers
 * "See the course" instead of "Book"; it leads to the Courses view, where the client books the whole
 * course (a place on all three classes), sees it under "My courses" and as three classes in "my
 * visits", then cancels the course (confirmed with a second tap): gone from "My courses", three
 * early cancellations in "my visits", bookable again. A visitor is asked to sign in. Screenshots in English and Polish at
 * 1280 and 390 px: E2E_RESULTS_DIR/screenshots/courses-*.png.
 */

async function arrangeCourse(demo: DemoDetails, name: string): Promise<{ serviceId: string }> {
  const studio = demo.studioUuid;
  const { owner, init } = await managerClient(demo);
  const service = await addClassService(owner, studio, {
    serviceType: 'course',
    name: { en: { value: name }, pl: { value: `${name} PL` } },
    description: {
      en: { value: 'Three mornings of wheel throwing for complete beginners.' },
      pl: { value: 'Trzy poranki toczenia na kole dla zupełnie początkujących.' },
    },
    durationMinutes: 45,
    freeOfCharge: true,
  });
  const meta = await addScheduleMeta(owner, studio, service.id, {
    locationId: init.locations[0].id,
    daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
    startTime: '05:00', // ends 05:45: before bookings-visit-payment's 06:05 class on the same day, same client
    durationMinutes: 45,
    firstDate: studioDay(2),
    lastDate: studioDay(4),
    capacity: 6,
    waitingListSize: 0,
  });
  await call(owner, 'POST', `/api/v2/${studio}/schedule-events/generate`, { scheduleMetaIds: [meta.id] });
  return { serviceId: service.id as string };
}

async function clientSignIn(browser: Browser, demo: DemoDetails, errors: string[]): Promise<Page> {
  const page = await frontofficePage(browser, demo, 'timetable', { errors });
  await setLanguage(page, 'EN');
  return page;
}

test('a client books a whole course from the Courses view, sees it, and cancels it', async ({ browser }) => {
  test.setTimeout(300_000);
  const demo = readDemo();
  test.skip(!demo.clientEmail || !demo.clientPassword, 'the demo has no client login');
  const errors: string[] = [];
  const name = `Pottery course ${Date.now().toString(36)}`;
  const { serviceId } = await arrangeCourse(demo, name);
  const page = await clientSignIn(browser, demo, errors);

  // ---- Timetable: a course's class leads to the course, no Book button -----------------------------
  await expect(page.getByTestId('timetable-week')).toBeVisible();
  const classCard = page.getByTestId('timetable-event').filter({ hasText: name });
  if ((await classCard.count()) === 0) await page.getByTestId('timetable-next').click();
  await expect(classCard.first()).toBeVisible();
  await expect(classCard.first().getByTestId('course-class')).toHaveText('Part of a course');
  await expect(classCard.first().getByTestId('timetable-book')).toHaveCount(0);
  await classCard.first().getByTestId('timetable-to-course').click();
  await expect(page).toHaveURL(new RegExp(`/frontoffice/courses\\?classService=${serviceId}`));

  // ---- Courses: the course with its times, places and pass note --------------------------------------
  const course = page.getByTestId('course-card').filter({ hasText: name });
  await expect(course).toHaveCount(1);
  await expect(page.getByTestId('course-card')).toHaveCount(1); // only this course: it came from its class
  await expect(course.getByTestId('course-when')).toHaveText('Every day at 05:00');
  await expect(course.getByTestId('course-sessions')).toContainText('3 classes to come');
  await expect(course.getByTestId('course-places')).toHaveText('6 places left');
  await expect(course.getByTestId('course-pass-note')).toContainText('3 entries in all');
  await shootAll(page, 'courses-open', async () => {
    await expect(course.getByTestId('course-book')).toBeVisible();
  });

  await course.getByTestId('course-book').click();
  await expect(course.getByTestId('course-feedback')).toHaveText(
    'Booked: you have a place on all 3 classes.',
  );
  await expect(course.getByTestId('course-enrolled')).toHaveText('Booked: 3 classes');
  await expect(course.getByTestId('course-book')).toHaveCount(0);

  // ---- My courses ----------------------------------------------------------------------------------
  await page.getByTestId('courses-show-all').click();
  await page.getByTestId('courses-scope').getByText('My courses').click();
  const mine = page.getByTestId('course-card').filter({ hasText: name });
  await expect(mine.getByTestId('course-enrolled')).toHaveText('Booked: 3 classes');
  await shootAll(page, 'courses-mine', async () => {
    await expect(mine.getByTestId('course-cancel')).toBeVisible();
  });

  // ---- My visits: one visit per class of the course --------------------------------------------------
  await page.getByRole('link', { name: 'My visits' }).first().click();
  await expect(page).toHaveURL(/\/frontoffice\/visits/);
  const visits = page.getByTestId('visit-card').filter({ hasText: name });
  await expect(visits).toHaveCount(3);
  await expect(visits.first().getByTestId('visit-status')).toHaveText('Booked');

  // ---- The timetable now says the class is booked with the course -----------------------------------
  await page.goto(`/${demo.studioUuid}/frontoffice/timetable?date=${studioDay(2)}`);
  const myStatus = page
    .getByTestId('timetable-event')
    .filter({ hasText: name })
    .first()
    .getByTestId('my-status');
  await expect(myStatus).toHaveText('Booked'); // a narrow week card
  await page.setViewportSize(VIEWPORTS.phone);
  await expect(myStatus).toHaveText('Booked with the course'); // the phone's day view has room
  await page.setViewportSize(VIEWPORTS.laptop);

  await shootAll(page, 'courses-timetable', async () => {
    await expect(
      page.getByTestId('timetable-event').filter({ hasText: name }).first().getByTestId('my-status'),
    ).toBeVisible();
  });

  // ---- Cancel the course (two taps) ------------------------------------------------------------------
  await page.goto(`/${demo.studioUuid}/frontoffice/courses`);
  await page.getByTestId('courses-scope').getByText('My courses').click();
  await mine.getByTestId('course-cancel').click();
  await expect(mine.getByTestId('course-cancel-confirmation')).toContainText(
    'Cancel your places on all 3 classes of the course still to come?',
  );
  await shootAll(page, 'courses-cancel', async () => {
    await expect(mine.getByTestId('course-cancel-confirm')).toBeVisible();
  });
  await mine.getByTestId('course-cancel-confirm').click();
  await expect(page.getByTestId('course-card').filter({ hasText: name })).toHaveCount(0);
  await page.getByTestId('courses-scope').getByText('Open courses').click();
  const again = page.getByTestId('course-card').filter({ hasText: name });
  await expect(again.getByTestId('course-book')).toBeVisible();
  await expect(again.getByTestId('course-places')).toHaveText('6 places left');
  await page.getByRole('link', { name: 'My visits' }).first().click();
  await expect(page.getByTestId('visits-screen')).toBeVisible();
  // The three visits stay in "my visits" as early cancellations (the entries are back).
  const cancelled = page.getByTestId('visit-card').filter({ hasText: name });
  await expect(cancelled).toHaveCount(3);
  for (const status of await cancelled.getByTestId('visit-status').all())
    await expect(status).toHaveText(/early cancellation/i);

  // ---- A visitor is asked to sign in -----------------------------------------------------------------
  const visitor = await browser.newPage({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  visitor.on('pageerror', (e) => errors.push(e.message));
  await visitor.goto(`/${demo.studioUuid}/frontoffice/courses`);
  await expect(visitor.getByTestId('courses-signed-out')).toBeVisible();
  await shootAll(visitor, 'courses-signed-out', async () => {
    await expect(visitor.getByTestId('courses-sign-in')).toBeVisible();
  });
  await visitor.getByTestId('courses-sign-in').click();
  await expect(visitor).toHaveURL(/\/frontoffice\/login\?.*courses/);

  expect(errors).toEqual([]);
});
