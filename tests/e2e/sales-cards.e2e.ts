import { expect, test, type Page } from '@playwright/test';
import { FakeStripe } from '../../cloud/src/modules/sales/providers/testing/fake-stripe';
import { HttpClient } from '../support/http-client';
import { readDemo } from './support/demo';
import { VIEWPORTS, setLanguage, shootAll } from './support/screenshots';
import { signInBackoffice, demoManager, backofficePage } from './support/sign-in';
import { addToCartFromPriceList, clientShopPage } from './support/shop';

/**
 * Saved cards end to end, with Stripe (the local fake at STRIPE_API_URL; skipped without it): the
 * manager connects Stripe, the demo client ticks "Save my card" at checkout, pays on Stripe's hosted
 * page and finds the card in the wallet; the manager sees it on the client's "Payments" tab and
 * removes it at the client's request; Stripe is switched off again so the demo keeps paying through
 * the test provider. Screenshots EN/PL at 390 and 1280: <E2E_RESULTS_DIR>/screenshots/cards-*.
 */

async function setStripe(page: Page, enabled: boolean, keys?: { secretKey: string; webhookSecret: string }) {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-tab-paymentProviders').click();
  if (keys) {
    await page.getByTestId('stripe-secret-key').fill(keys.secretKey);
    await page.getByTestId('stripe-webhook-secret').fill(keys.webhookSecret);
  }
  const status = page.getByTestId('provider-status-stripe');
  // textContent, not innerText: the badge is upper-cased by CSS.
  const now = (await status.textContent())?.trim() === 'Enabled';
  if (now !== enabled) await page.getByTestId('stripe-enabled').dispatchEvent('click');
  await page.getByTestId('stripe-save').click();
  await expect(status).toHaveText(enabled ? 'Enabled' : 'Disabled');
}

test('a client saves a card at checkout; staff see it on the profile and remove it', async ({ browser }) => {
  const apiUrl = process.env.STRIPE_API_URL;
  test.skip(!apiUrl, 'needs the server started with STRIPE_API_URL (the fake Stripe listens there)');
  const demo = readDemo();
  const fake = await FakeStripe.start(Number(new URL(apiUrl!).port));
  const account = fake.addAccount();
  const errors: string[] = [];
  const office = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  const manager = await office.newPage();
  manager.on('pageerror', (e) => errors.push(e.message));
  try {
    await signInBackoffice(manager, demo.studioUuid, demoManager(demo));
    await setLanguage(manager, 'EN');
    await setStripe(manager, true, account);

    // ---- the client: cart → "save my card" → Stripe's hosted page → back
    const page = await clientShopPage(browser, demo, errors);
    const pass = await addToCartFromPriceList(page, demo, '8 entries');
    await expect(page.getByTestId('cart-item')).toHaveCount(1);
    const saveCard = page.getByTestId('checkout-save-card');
    await expect(saveCard).toBeVisible();
    await expect(saveCard).not.toBeChecked();
    // Paying from the wallet keeps no card: the box is for online payments only.
    await shootAll(page, 'cards-checkout', async (locale) => {
      await expect(
        page.getByText(
          locale === 'EN'
            ? 'Save my card for later payments'
            : 'Zapamiętaj moją kartę do kolejnych płatności',
        ),
      ).toBeVisible();
    });
    await saveCard.check();
    await page.getByTestId('method-online').check();
    await page.getByTestId('checkout-pay').click();
    await expect(page).toHaveURL(new RegExp(`^${apiUrl!.replace(/[.]/g, '\\.')}/pay/cs_test_`));
    await page.locator('button[data-outcome="pay"]').click();
    await expect(page).toHaveURL(/\/frontoffice\/purchases\?order=/);
    await expect(page.getByTestId('payment-result')).toHaveAttribute('data-outcome', 'succeeded');

    await page.goto(`/${demo.studioUuid}/frontoffice/wallet`);
    const card = page.getByTestId('saved-cards').getByTestId('payment-card');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('Visa ending in 4242');
    await expect(card).toContainText('Expires 12/30');
    await shootAll(page, 'cards-wallet', async (locale) => {
      await expect(card).toContainText(locale === 'EN' ? 'Visa ending in 4242' : 'Visa z końcówką 4242');
    });

    // ---- an abandoned checkout: the client leaves Stripe's page without paying (order awaiting)
    await page.goto(`/${demo.studioUuid}/frontoffice/cart?add=pricingOption:${pass.id}`);
    await expect(page.getByTestId('cart-item')).toHaveCount(1);
    await page.getByTestId('method-online').check();
    await page.getByTestId('checkout-pay').click();
    await expect(page).toHaveURL(/\/pay\/cs_test_/);
    await page.goto(`/${demo.studioUuid}/frontoffice/wallet`);

    // ---- staff: bulk charge takes it from the saved card
    await manager.getByTestId('nav-orders').click();
    await manager.getByTestId('orders-search').fill(demo.clientEmail!);
    await manager.getByTestId('orders-status').selectOption('5');
    const awaiting = manager.getByTestId('order-row').first();
    await expect(awaiting.getByTestId('order-status')).toHaveText('Awaiting payment');
    await manager.getByTestId('order-charge-select').first().check();
    await expect(manager.getByTestId('bulk-charge-bar')).toContainText('1 order chosen');
    await shootAll(manager, 'cards-orders-bulk-charge', async () => {
      await expect(manager.getByTestId('bulk-charge-submit')).toBeVisible();
    });
    await manager.getByTestId('bulk-charge-submit').click();
    await expect(manager.getByTestId('bulk-charge-result')).toHaveText('1 order charged.');
    const charged = [...fake.paymentIntents.values()].filter((i) => i.off_session === true);
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ amount: 28000, status: 'succeeded' });

    // ---- staff: the client's Payments tab, read-only list with a guarded remove
    await manager.getByTestId('nav-clients').click();
    await manager.getByTestId('clients-search').fill(demo.clientEmail!);
    await expect(manager.getByTestId('client-row')).toHaveCount(1);
    await manager.getByTestId('client-row').getByTestId('client-open').click();
    await manager.getByTestId('client-tab-payments').click();
    await expect(manager).toHaveURL(/#\/clients\/[0-9a-f-]+\/payments$/);
    const staffCard = manager.getByTestId('client-cards').getByTestId('payment-card');
    await expect(staffCard).toHaveCount(1);
    await expect(staffCard).toContainText('Visa ending in 4242');
    await expect(manager.getByTestId('client-order').first()).toBeVisible();
    await shootAll(manager, 'cards-client-payments', async () => {
      await expect(staffCard).toBeVisible();
    });
    await staffCard.getByTestId('payment-card-remove').click();
    await expect(staffCard.getByTestId('payment-card-confirm')).toContainText('Remove this card?');
    await staffCard.getByTestId('payment-card-remove-confirm').click();
    await expect(manager.getByTestId('client-cards-empty')).toBeVisible();
    // Detached at Stripe too, and gone from the client's wallet.
    expect([...fake.paymentMethods.values()].filter((m) => m.customer !== null)).toHaveLength(0);
    await page.reload();
    await expect(page.getByTestId('wallet-balance')).toBeVisible();
    await expect(page.getByTestId('saved-cards')).toHaveCount(0);
    expect(errors).toEqual([]);
  } finally {
    await setStripe(manager, false).catch(() => undefined);
    await fake.close();
  }
});

test('staff take payment at the desk for a visit booked to be paid there', async ({ browser }) => {
  const demo = readDemo();
  // Set-up through the API as the manager: book the demo client "pay at the desk" on a paid class.
  const staffApi = await HttpClient.signedIn(
    demo.baseURL,
    demo.managerEmail,
    demo.managerPassword,
    demo.studioUuid,
  );
  const base = `/api/v4/${demo.studioUuid}`;
  const client = (await staffApi.get(`${base}/client/search?q=${encodeURIComponent(demo.clientEmail!)}`)).body
    .items[0] as { id: string };
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const events = (await staffApi.post(`${base}/schedule/find`, { from: day(1), to: day(6) })).body
    .items as Array<{
    id: string;
  }>;
  let booked = false;
  for (const event of events) {
    const res = await staffApi.post(`${base}/schedule-event/${event.id}/enrollment/enroll`, {
      clientId: client.id,
      payAtDesk: true,
      waitingList: false,
    });
    if (res.status < 300 && res.body.outcome === 'unconfirmed') {
      booked = true;
      break;
    }
  }
  expect(booked, 'a paid class with a free place in the coming week').toBe(true);

  const errors: string[] = [];
  const page = await backofficePage(browser, demo, { errors });
  await setLanguage(page, 'EN');
  await page.goto(`/${demo.studioUuid}/backoffice#/clients/${client.id}/payments`);
  const section = page.getByTestId('visits-to-pay');
  await expect(section.getByTestId('visit-to-pay')).toHaveCount(1);
  await expect(page.getByTestId('visits-pay')).toBeDisabled();
  await section.getByTestId('visit-to-pay').check();
  await page.getByTestId('visit-price').fill('35');
  await expect(page.getByTestId('visits-pay')).toHaveText('Take 35 zł for 1 visit');
  await shootAll(page, 'cards-visits-to-pay', async (locale) => {
    await expect(page.getByTestId('visits-pay')).toHaveText(
      locale === 'EN' ? 'Take 35 zł for 1 visit' : 'Pobierz 35 zł za 1 wizytę',
    );
  });
  await page.getByTestId('visits-pay').click();
  await expect(page.getByTestId('visits-paid')).toContainText('Paid and booked');
  await expect(section.getByTestId('visit-to-pay')).toHaveCount(0);
  // The visit's order is the client's newest: 35 zł, paid in cash.
  const order = page.getByTestId('client-order').first();
  await expect(order).toContainText('35 zł');
  await expect(order.getByTestId('order-status')).toHaveText('Paid');
  expect(errors).toEqual([]);
  await page.context().close();
});
