import { expect, test, type Page } from '@playwright/test';
import { readDemo } from './support/demo';
import { VIEWPORTS, setLanguage, shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * The timetable: the demo manager creates a class series (every day at 21:45, a time the demo
 * timetable does not use), its classes are generated and appear in next week's grid on the studio's
 * clock (the browser runs in UTC, the studio in Warsaw), one is cancelled from its drawer, and the
 * front office's public timetable shows the series with that class marked cancelled. Screenshots in
 * English and Polish at 1280 and 390 px wide.
 */

test('schedule: a manager creates a class series, sees it in the week, cancels one; the front office shows it', async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const page = await backofficePage(browser, demo, { errors });
  await setLanguage(page, 'EN');

  await page.goto(`/${demo.studioUuid}/backoffice#/schedule`);
  await expect(page.getByTestId('schedule-week')).toBeVisible();
  await expect(page.getByTestId('schedule-event').first()).toBeVisible();
  await shootAll(page, 'schedule-week', async () => {
    await expect(page.getByTestId('schedule-event').first()).toBeVisible();
  });

  // ---- A new series: every day at 21:45 in the first location ---------------------------------
  await page.getByTestId('schedule-new-meta').click();
  const meta = page.getByTestId('schedule-meta-form');
  await expect(meta).toBeVisible();
  for (const day of [1, 2, 3, 4, 5, 6, 7]) await meta.getByTestId(`meta-day-${day}`).locator('..').click();
  await meta.getByTestId('meta-start-time').fill('21:45');
  await meta.getByTestId('meta-capacity').fill('10');
  await shootAll(page, 'schedule-meta-editor', async () => expect(meta).toBeVisible(), { dialog: true });
  await meta.getByTestId('meta-submit').click();
  await expect(page.getByTestId('schedule-notice')).toContainText(/created with \d+ classes/);
  await expect(meta).toBeHidden();

  // Generating again adds nothing: the series is already on the timetable.
  await page.getByTestId('schedule-generate').click();
  await expect(page.getByTestId('schedule-notice')).toContainText('0 classes added');

  // Next week has one 21:45 class a day, on the studio's clock (the browser itself runs in UTC).
  await page.getByTestId('schedule-next').click();
  const late = page.getByTestId('schedule-event').filter({ hasText: '21:45–22:' });
  await expect(late).toHaveCount(7);

  const target = late.nth(2);
  await target.click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByTestId('schedule-action-cancel')).toBeVisible();
  await shootAll(
    page,
    'schedule-event-drawer',
    async () => expect(drawer.getByTestId('schedule-action-cancel')).toBeVisible(),
    {
      dialog: true,
    },
  );
  await drawer.getByTestId('schedule-action-cancel').click();
  await expect(drawer.getByTestId('schedule-action-restore')).toBeVisible();
  await expect(drawer).toContainText('Cancelled');
  await page.keyboard.press('Escape');
  await expect(late.nth(2)).toHaveAttribute('data-status', 'cancelled');
  await expect(
    page.locator('[data-testid="schedule-event"][data-status="cancelled"]').filter({ hasText: '21:45' }),
  ).toHaveCount(1);
  await shootAll(page, 'schedule-week-after-cancel', async () => {
    await expect(late).toHaveCount(phoneWidth(page) ? 1 : 7);
  });

  // ---- Front office: anyone sees the timetable -------------------------------------------------
  const visitor = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  const fo = await visitor.newPage();
  fo.on('pageerror', (e) => errors.push(e.message));
  await fo.goto(`/${demo.studioUuid}/frontoffice/timetable`);
  await expect(fo.getByTestId('timetable-week')).toBeVisible();
  await fo.getByTestId('timetable-next').click();
  const foLate = fo.getByTestId('timetable-event').filter({ hasText: '21:45–22:' });
  await expect(foLate).toHaveCount(7);
  await expect(
    fo.locator('[data-testid="timetable-event"][data-cancelled="true"]').filter({ hasText: '21:45' }),
  ).toHaveCount(1);
  await shootAll(fo, 'schedule-frontoffice-timetable', async () => {
    await expect(fo.getByTestId('timetable-event').first()).toBeVisible();
  });

  expect(errors).toEqual([]);
  await visitor.close();
  await page.context().close();
});

function phoneWidth(page: Page): boolean {
  return (page.viewportSize()?.width ?? 1280) < 768;
}
