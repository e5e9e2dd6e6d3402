import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { VIEWPORTS, shootAll } from './support/screenshots';
import { frontofficePage } from './support/sign-in';

/**
 * Issue 26 in the client zone: its header shows the studio's name and logo and a sign-out on every
 * screen (phone and desktop); a class of the timetable opens its details (description, level,
 * instructor, room); the cards' room and instructor lines wrap rather than being cut. Screenshots in
 * English and Polish at 1280 and 390 px: E2E_RESULTS_DIR/screenshots/frontoffice-class-details-*.png
 * and frontoffice-timetable-*.png.
 */
test('client zone: studio name and logo, sign-out on every screen, class details from the timetable', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const demo = readDemo();
  test.skip(!demo.clientEmail || !demo.clientPassword, 'the demo has no client login');
  const errors: string[] = [];
  const page = await frontofficePage(browser, demo, 'timetable', { errors, englishCookie: true });

  // The header: the studio's own name and logo, and sign-out, on screens other than the start page.
  for (const screen of ['timetable', 'passes', 'visits']) {
    await page.goto(`/${demo.studioUuid}/frontoffice/${screen}`);
    await expect(page.getByTestId('frontoffice-studio-name')).toHaveText(demo.studioName);
    await expect(page.locator('header').getByTestId('studio-logo')).toBeVisible();
    await expect(page.getByTestId('frontoffice-sign-out').locator('visible=true')).toHaveCount(1);
  }
  await page.setViewportSize(VIEWPORTS.phone);
  await expect(page.getByTestId('frontoffice-sign-out').locator('visible=true')).toBeVisible();

  // The week (laptop): a class's name opens its details.
  await page.setViewportSize(VIEWPORTS.laptop);
  await page.goto(`/${demo.studioUuid}/frontoffice/timetable`);
  const cards = page
    .getByTestId('timetable-event')
    .filter({ has: page.getByTestId('timetable-event-details') });
  await expect(cards.first()).toBeVisible();
  const card = cards.first();
  const place = ((await card.getByTestId('timetable-event-place').textContent()) ?? '').trim();
  await card.getByTestId('timetable-event-details').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('class-details-description')).toBeVisible();
  await expect(dialog.getByTestId('class-details-level')).not.toBeEmpty();
  await expect(dialog.getByTestId('class-details-instructor')).not.toHaveText('—');
  // The card names the room (or the location without one); the dialog names both.
  await expect(dialog.getByTestId('class-details-where')).toContainText(place.split(' · ')[0]!);
  await shootAll(
    page,
    'frontoffice-class-details',
    async () => {
      await expect(dialog.getByTestId('class-details-description')).toBeVisible();
    },
    { dialog: true },
  );
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // Phone: the day's cards keep their room and instructor whole.
  await page.setViewportSize(VIEWPORTS.phone);
  await expect(page.getByTestId('timetable-day')).toBeVisible();
  const clipped = await page
    .getByTestId('timetable-event-place')
    .evaluateAll((nodes) =>
      nodes
        .filter((n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)
        .map((n) => n.textContent),
    );
  expect(clipped).toEqual([]);
  await shootAll(page, 'frontoffice-timetable', async () => {
    await expect(page.getByTestId('frontoffice-studio-name')).toBeVisible();
  });

  // Signing out from the timetable leaves the client zone signed out, on the same studio's pages.
  await page.getByTestId('frontoffice-sign-out').locator('visible=true').click();
  await expect(page.getByTestId('frontoffice-sign-out')).toHaveCount(0);
  await expect(page.getByTestId('frontoffice-studio-name')).toHaveText(demo.studioName);
  expect(errors).toEqual([]);
});
