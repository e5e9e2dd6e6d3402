import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { VIEWPORTS, setLanguage, shootAll } from './support/screenshots';
import { demoManager, signInBackoffice } from './support/sign-in';

/**
 * Campaigns (issue 23) on the demo studio: the manager sees the sent newsletter and the draft, creates
 * an e-mail campaign, starts its text from a template, saves it, previews the e-mail, sends a test to
 * themselves, schedules it for later in the studio's zone and takes that back, and sends it to the clients who agreed (the job runner delivers it). Screenshots in EN
 * and PL at 390 and 1280 px: <E2E_RESULTS_DIR>/screenshots/campaigns-*.
 */
test('campaigns: compose, preview, test-send and send', async ({ browser }) => {
  const demo = readDemo();
  const errors: string[] = [];
  const context = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await signInBackoffice(page, demo.studioUuid, demoManager(demo));
  await setLanguage(page, 'EN');
  await page.goto(`/${demo.studioUuid}/backoffice#/campaigns`);
  const list = page.getByTestId('campaign-list');
  await expect(list).toContainText('Listopadowe nowości');
  await expect(list).toContainText('Świąteczna promocja');
  await shootAll(page, 'campaigns-list', async () => {
    await expect(list).toBeVisible();
  });
  await setLanguage(page, 'EN');

  const name = `Weekend workshop ${Date.now()}`;
  await page.getByTestId('campaign-new').getByLabel('Name of a new campaign').fill(name);
  await page.getByTestId('campaign-new-submit').click();
  await expect(page.getByTestId('campaign-title')).toHaveText(name);
  await expect(page.getByTestId('campaign-recipients')).toContainText(/Reaches \d+ clients/);

  await page.getByTestId('content-template').click();
  await page.getByRole('option', { name: 'Event' }).click();
  await expect(page.getByTestId('content-subject')).toHaveValue(/Harmonia/);
  await page.getByTestId('content-save').click();
  await expect(page.getByTestId('campaign-cost')).toContainText('recipients');

  await page.getByTestId('content-preview').click();
  const frame = page.frameLocator('[data-testid="preview-frame"]');
  await expect(frame.getByText('Wypisz się')).toBeVisible();
  await shootAll(
    page,
    'campaigns-preview',
    async () => {
      await expect(page.getByTestId('preview-frame')).toBeVisible();
    },
    { dialog: true },
  );
  await page.keyboard.press('Escape');
  await setLanguage(page, 'EN');

  await page.getByTestId('campaign-test').click();
  await expect(page.getByTestId('campaign-message')).toContainText('A test went to');

  // Send later, in the studio's zone; then back to a draft and send now.
  await page.getByTestId('campaign-schedule-at').fill('2030-06-01T10:00');
  await page.getByTestId('campaign-schedule').click();
  await expect(page.getByTestId('campaign-status')).toHaveText('Scheduled');
  await expect(page.getByTestId('campaign-scheduled-at')).toContainText('Europe/Warsaw');
  await expect(page.getByTestId('campaign-scheduled-at')).toContainText('10:00');
  await page.getByTestId('campaign-unschedule').click();
  await expect(page.getByTestId('campaign-status')).toHaveText('Draft');

  await page.getByTestId('campaign-send').click();
  await page.getByTestId('campaign-send-confirm').click();
  await expect(page.getByTestId('campaign-status')).toHaveText(/Sending|Sent/);
  await expect(page.getByTestId('campaign-status')).toHaveText('Sent', { timeout: 20_000 });
  await expect(page.getByTestId('campaign-stats')).toContainText('Sent');
  await shootAll(page, 'campaigns-sent', async () => {
    await expect(page.getByTestId('campaign-stats')).toBeVisible();
  });

  await page.goto(`/${demo.studioUuid}/backoffice#/campaigns`);
  await page.getByTestId('tab-automations').click();
  await expect(page.getByTestId('reminder-log')).toBeVisible();
  await shootAll(page, 'campaigns-automations', async () => {
    await expect(page.getByTestId('reminder-log')).toBeVisible();
  });
  expect(errors).toEqual([]);
  await context.close();
});
