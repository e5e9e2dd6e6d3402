import { expect, test } from '@playwright/test';
import { FakeStripe } from '../../cloud/src/modules/sales/providers/testing/fake-stripe';
import { readDemo } from './support/demo';
import { VIEWPORTS, LAPTOP_AND_PHONE, saveScreenshot, setLanguage } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * Settings → Online payments: the demo manager types Stripe keys, tests the connection, saves them
 * (only a hint comes back) and switches Stripe off again at the end, so the demo keeps paying through
 * the test provider. When the server was started with STRIPE_API_URL (a local port), the fake Stripe
 * listens there and the connection test must succeed; otherwise it must report a failure clearly.
 * Screenshots in English and Polish at 390 px and 1280 px.
 */

test('online payments: a manager enters Stripe keys and tests the connection', async ({ browser }) => {
  const demo = readDemo();
  const apiUrl = process.env.STRIPE_API_URL;
  const fake = apiUrl ? await FakeStripe.start(Number(new URL(apiUrl).port)) : null;
  const account = fake?.addAccount() ?? {
    secretKey: 'sk_test_e2eNotAKnownKey1234',
    webhookSecret: 'whsec_e2eNotAKnownSecret1234',
  };
  try {
    const pageErrors: string[] = [];
    const page = await backofficePage(browser, demo, { errors: pageErrors });
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-paymentProviders').click();
    await expect(page).toHaveURL(/#\/settings\/payment-providers$/);
    const stripe = page.getByTestId('provider-stripe');
    await expect(stripe).toBeVisible();
    await expect(page.getByTestId('provider-status-stripe')).toHaveText('Not configured');
    await expect(stripe).toContainText(`/app/payment-notification/stripe?studio=${demo.studioUuid}`);

    // A key of the wrong shape: the server's field error lands on the input.
    await page.getByTestId('stripe-secret-key').fill('pk_test_123');
    await page.getByTestId('stripe-webhook-secret').fill(account.webhookSecret);
    await page.getByTestId('stripe-save').click();
    await expect(page.getByTestId('stripe-secret-key')).toHaveAttribute('data-invalid', 'true');
    await expect(page.getByTestId('provider-stripe')).toContainText('This is not a Stripe secret key');

    await page.getByTestId('stripe-secret-key').fill(account.secretKey);
    await page.getByTestId('stripe-test-connection').click();
    const result = page.getByTestId('provider-test-result');
    if (fake) {
      await expect(result).toContainText('Connection works');
      await expect(result).toContainText('test mode');
    } else await expect(result).toBeVisible();

    for (const locale of ['EN', 'PL'] as const) {
      await setLanguage(page, locale);
      for (const [size, viewport] of LAPTOP_AND_PHONE) {
        await page.setViewportSize(viewport);
        await expect(stripe).toBeVisible();
        await page.evaluate(() => window.scrollTo(0, 0));
        await saveScreenshot(page, `payment-providers-${locale.toLowerCase()}-${size}`);
      }
    }
    await setLanguage(page, 'EN');
    await page.setViewportSize(VIEWPORTS.laptop);

    // Saved: the keys are not shown again, only a hint.
    await page.getByTestId('stripe-enabled').dispatchEvent('click');
    await page.getByTestId('stripe-save').click();
    await expect(page.getByTestId('stripe-key-hint')).toContainText(`…${account.secretKey.slice(-4)}`);
    await expect(page.getByTestId('provider-status-stripe')).toHaveText('Enabled');
    await expect(page.getByTestId('stripe-secret-key')).toHaveValue('');
    await page.setViewportSize(VIEWPORTS.phone);
    await saveScreenshot(page, 'payment-providers-saved-en-390');

    // Off again: the demo keeps selling through the test provider.
    await expect(page.getByTestId('stripe-save')).toHaveAttribute('data-state', 'idle');
    await page.getByTestId('stripe-enabled').dispatchEvent('click');
    await page.getByTestId('stripe-save').click();
    await expect(page.getByTestId('provider-status-stripe')).toHaveText('Disabled');
    expect(pageErrors).toEqual([]);
    await page.context().close();
  } finally {
    await fake?.close();
  }
});
