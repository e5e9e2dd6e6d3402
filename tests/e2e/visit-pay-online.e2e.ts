import { expect, test } from '@playwright/test';
import { HttpClient } from '../support/http-client';
import { readDemo, type DemoDetails } from './support/demo';
import { setLanguage, shootAll } from './support/screenshots';
import { frontofficePage } from './support/sign-in';
import { call, studioDay, managerClient, addClassService, addScheduleMeta } from './support/studio-api';

/**
 * Paying a visit online from "My visits" (cloud/src/modules/bookings/README.md, "Paying a visit
 * online"). Set up through the API: a class service with one class in two days, a single-entry pass
 * sold online that covers only that service, a new client (signed up, no pass) whom the manager books
 * "to pay at the desk". The client opens My visits, presses Pay, chooses the pass, pays it at the test
 * bank and comes back to My visits, where the visit is paid by the new pass. Screenshots in English
 * and Polish at 1280 and 390 px: E2E_RESULTS_DIR/screenshots/visit-pay-*.png.
 */

const PASSWORD = 'Visit-pay-2026!';

async function arrange(demo: DemoDetails, tag: string) {
  const studio = demo.studioUuid;
  const { owner, init } = await managerClient(demo);
  const service = await addClassService(owner, studio, {
    serviceType: 'classroom',
    name: { en: { value: `Desk flow ${tag}` }, pl: { value: `Desk flow ${tag} PL` } },
    durationMinutes: 45,
  });
  const day = studioDay(2);
  const meta = await addScheduleMeta(owner, studio, service.id, {
    locationId: init.locations[0].id as string,
    daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
    startTime: '07:20',
    durationMinutes: 45,
    firstDate: day,
    lastDate: day,
    capacity: 8,
    waitingListSize: 0,
  });
  await call(owner, 'POST', `/api/v2/${studio}/schedule-events/generate`, { scheduleMetaIds: [meta.id] });
  const events = await call(owner, 'GET', `/api/v2/${studio}/schedule-metas/${meta.id}/schedule-events/all`);
  const option = await call(
    owner,
    'POST',
    `/api/v4/${studio}/pricing-option`,
    {
      name: { en: { value: `Drop-in ${tag}` }, pl: { value: `Wejście ${tag}` } },
      price: 3500,
      entries: 1,
      expirationType: 0,
      validityCount: 30,
      validityUnit: 'day',
      serviceTypes: ['classroomPricingOption'],
      restrictions: { classServiceIds: [service.id], locationIds: [], timeWindows: [], tagIds: [] },
      sellOnline: true,
      sellAtDesk: true,
    },
    201,
  );

  // A new client with no pass, signed up like anyone on the studio's page.
  const email = `visit-pay-${tag}@example.com`;
  const visitor = await HttpClient.anonymous(demo.baseURL);
  await call(
    visitor,
    'POST',
    `/api/v4/${studio}/signup`,
    {
      emailAddress: email,
      password: PASSWORD,
      firstName: 'Ola',
      lastName: `Desk ${tag}`,
      agreements: { terms: true, privacy: true },
    },
    201,
  );
  const found = await call(owner, 'GET', `/api/v4/${studio}/client/search?q=${encodeURIComponent(email)}`);
  const clientId = found.items[0].id as string;
  const booked = await call(
    owner,
    'POST',
    `/api/v4/${studio}/schedule-event/${events.items[0].id as string}/enrollment/enroll`,
    { clientId, payAtDesk: true },
  );
  expect(booked.outcome).toBe('unconfirmed');
  return { email, className: `Desk flow ${tag}`, passName: `Drop-in ${tag}`, optionId: option.id as string };
}

test('a visit booked to pay at the desk is paid online from my visits with a new pass', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const demo = readDemo();
  const tag = Date.now().toString(36);
  const { email, className, passName } = await arrange(demo, tag);
  const errors: string[] = [];
  const page = await frontofficePage(browser, demo, 'visits', { who: { email, password: PASSWORD }, errors });
  await setLanguage(page, 'EN');
  const card = page.getByTestId('visit-card').filter({ hasText: className });
  await expect(card.getByTestId('visit-payment')).toHaveText('To pay at the desk');
  await expect(card.getByTestId('visit-pay')).toBeVisible();
  await shootAll(page, 'visit-pay-my-visits', async (locale) => {
    await expect(card.getByTestId('visit-pay')).toHaveText(locale === 'EN' ? 'Pay' : 'Zapłać');
  });

  // The choice: the pass on sale that covers this class.
  await card.getByTestId('visit-pay').click();
  const dialog = page.getByTestId('visit-pay-dialog');
  const option = dialog.getByTestId('visit-pay-option').filter({ hasText: passName });
  await expect(option.getByTestId('visit-pay-price')).toHaveText('35 zł');
  await expect(option).toContainText('1 entry');
  await expect(dialog.getByTestId('visit-pay-held')).toHaveCount(0);
  await shootAll(
    page,
    'visit-pay-dialog',
    async (locale) => {
      await expect(dialog).toContainText(locale === 'EN' ? 'Pay for your visit' : 'Opłać wizytę');
      await expect(
        dialog
          .getByTestId('visit-pay-option')
          .filter({ hasText: locale === 'EN' ? passName : `Wejście ${tag}` }),
      ).toBeVisible();
    },
    { dialog: true },
  );

  // Into the cart, which says which visit the pass pays, then the normal online checkout.
  await option.getByTestId('visit-pay-choose').click();
  await expect(page).toHaveURL(/\/frontoffice\/cart/);
  const item = page.getByTestId('cart-item').filter({ hasText: passName });
  await expect(item.getByTestId('cart-item-for-visit')).toContainText(className);
  await page.getByTestId('method-online').check();
  await page.getByTestId('checkout-pay').click();
  await expect(page).toHaveURL(/\/app\/test-provider\//);
  await expect(page.locator('[data-amount]')).toHaveText('35 zł');
  await page.locator('button[data-outcome="succeeded"]').click();

  // Back on My visits: paid, and the visit is paid by the new pass.
  await expect(page).toHaveURL(/\/frontoffice\/visits\?order=/);
  await expect(page.getByTestId('visit-pay-result')).toHaveAttribute('data-outcome', 'succeeded');
  await expect(card.getByTestId('visit-payment')).toHaveText(`Pass: ${passName}`);
  await expect(card.getByTestId('visit-status')).toHaveText('Booked');
  await expect(card.getByTestId('visit-pay')).toHaveCount(0);
  await shootAll(page, 'visit-pay-paid', async (locale) => {
    await expect(card.getByTestId('visit-payment')).toHaveText(
      locale === 'EN' ? `Pass: ${passName}` : `Karnet: Wejście ${tag}`,
    );
  });
  expect(errors).toEqual([]);
});
