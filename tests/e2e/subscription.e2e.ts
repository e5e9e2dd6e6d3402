import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { LAPTOP_AND_PHONE, VIEWPORTS, saveScreenshot, setLanguage } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * Issue 25, the studio's subscription to the platform: the demo manager opens Settings →
 * Subscription (Pro plan, active, two paid months with the platform's invoices), buys 500 SMS
 * through the test bank, comes back to the period paid, sees the SMS credits grow by 500 and the
 * new period's invoice (a PDF). Screenshots in English and Polish at 390 px (periods as cards, no
 * sideways scrolling) and 1280 px (a table).
 */
test('subscription: the manager buys SMS credits through the test provider and gets the invoice', async ({
  browser,
}) => {
  const demo = readDemo();
  const pageErrors: string[] = [];
  const page = await backofficePage(browser, demo, { errors: pageErrors });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-tab-subscription').click();
  await expect(page).toHaveURL(/#\/settings\/subscription$/);
  await expect(page.getByTestId('subscription-plan')).toContainText('Pro');
  await expect(page.getByTestId('subscription-status')).toHaveText('Active');
  const rows = page.getByTestId('subscription-period-row');
  await expect(rows.first()).toBeVisible();
  const rowsBefore = await rows.count();
  const smsBefore = Number(
    (await page.getByTestId('subscription-sms-credits').innerText()).replace(/\D/g, ''),
  );
  expect(smsBefore).toBeGreaterThan(0);

  for (const locale of ['EN', 'PL'] as const) {
    await setLanguage(page, locale);
    for (const [size, viewport] of LAPTOP_AND_PHONE) {
      await page.setViewportSize(viewport);
      // A phone shows the periods as cards, a laptop as a table; neither scrolls sideways.
      await expect(
        page.getByTestId(size === '390' ? 'subscription-period-cards' : 'subscription-periods'),
      ).toBeVisible();
      await expect(
        page.getByTestId(size === '390' ? 'subscription-periods' : 'subscription-period-cards'),
      ).toBeHidden();
      // Polled: after a viewport change Mantine's tabs and buttons settle a frame or more later (on a
      // slow machine the first read still saw the laptop's layout: 137 px too wide).
      await expect
        .poll(() =>
          page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        )
        .toBeLessThanOrEqual(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await saveScreenshot(page, `subscription-${locale.toLowerCase()}-${size}`);
    }
  }
  await setLanguage(page, 'EN');
  await page.setViewportSize(VIEWPORTS.laptop);

  // 500 SMS on their own (no plan): the quote, then the test bank.
  await page.getByTestId('subscription-addon-sms-500').check();
  await expect(page.getByTestId('subscription-quote')).toContainText('Add-ons in');
  const total = await page.getByTestId('subscription-total').innerText();
  await expect(page.getByTestId('subscription-pay')).toContainText(total);
  await page.getByTestId('subscription-pay').click();
  await expect(page).toHaveURL(/\/app\/test-provider\//);
  await expect(page.locator('[data-amount]')).toBeVisible();
  await page.locator('button[data-outcome="succeeded"]').click();

  // Back in the back office on the period: paid, credits, the invoice.
  await expect(page).toHaveURL(/#\/settings\/subscription\?period=/);
  await expect(page.getByTestId('subscription-returned')).toContainText('Payment received');
  await expect(page.getByTestId('subscription-sms-credits')).toHaveText(
    new RegExp(`^${(smsBefore + 500).toLocaleString('en').replace(/,/g, ',?')}$`),
  );
  await expect(rows).toHaveCount(rowsBefore + 1);
  const invoice = page.getByTestId('subscription-returned');
  const number = /SUB\/\d{4}\/\d{5}/.exec(await invoice.innerText())![0];
  const link = page
    .getByTestId('subscription-periods')
    .getByTestId('subscription-invoice')
    .filter({ hasText: number });
  await expect(link).toBeVisible();
  const pdf = await page.request.get((await link.getAttribute('href'))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  await page.setViewportSize(VIEWPORTS.phone);
  await expect(
    page
      .getByTestId('subscription-period-card')
      .filter({ hasText: number })
      .getByTestId('subscription-invoice'),
  ).toBeVisible();
  await saveScreenshot(page, 'subscription-paid-en-390');
  expect(pageErrors).toEqual([]);
  await page.context().close();
});
