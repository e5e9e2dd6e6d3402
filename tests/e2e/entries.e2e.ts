import { expect, test } from '@playwright/test';
import { readDemo, type DemoDetails } from './support/demo';
import { shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';
import { managerApi, managerSession } from './support/studio-api';

/**
 * Entry services end to end (issue 22). Through the API the demo manager adds an always-open
 * climbing wall (5 at once, one entry a day) and a client with a membership card and the demo's
 * 8-entry gym pass. At the kiosk the client types the card and walks in (an entry of the wall, a pass
 * entry spent); a second try the same day is refused with the daily limit. In the back office the
 * entry services show who is inside, the desk sells a walk-in the wall's day ticket (paid by card,
 * let in at once), and the client's entries tab lists the kiosk entry.
 * Screens EN/PL at 1280 and 390 px: screenshots/entries-*.png.
 */
type Item = { id: string; name?: Record<string, { value: string }> };

test('entry at the kiosk with a covering pass, the limits, and what the back office shows', async ({
  page,
  request,
  browser,
}) => {
  const demo = readDemo() as DemoDetails & { kioskKey?: string | null };
  test.skip(!demo.kioskKey, 'demo.json has no kioskKey (restart the e2e server)');
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const call = await managerApi(request, demo);
  const v4 = (p: string) => `/api/v4/${demo.studioUuid}/${p}`;
  const tag = Date.now().toString(36).slice(-5).toUpperCase();
  // The kiosk lets a client into the first service they may enter: the demo's gym and sauna (whose
  // hours depend on the time of the run) are archived so the wall is the one.
  const existing = await call<{ items: Array<{ id: string; archived: boolean }> }>(
    'GET',
    v4('entry-service/collection'),
  );
  const { headers } = await managerSession(request, demo, demo.studioUuid);
  for (const s of existing.items.filter((x) => !x.archived))
    await request.fetch(v4(`entry-service/${s.id}`), { method: 'PATCH', headers, data: { archived: true } });
  const wall = await call<{ id: string }>('POST', v4('entry-service'), {
    name: { en: { value: `Climbing wall ${tag}` }, pl: { value: `Ścianka ${tag}` } },
    capacity: 5,
    maxEntriesPerDay: 1,
    stayMinutes: 120,
    openingHours: [],
    // A single entry the desk sells (a day ticket): 25 zł.
    price: 2500,
  });
  const options = await call<{ items: Item[] }>('GET', v4('pricing-option/all'));
  const gymPass = options.items.find((o) => o.name?.en?.value === 'Gym & sauna – 8 entries')!;
  const made = await call<{ client: { id: string } }>('POST', v4('client'), {
    firstName: 'Wiktor',
    lastName: `Wspinacz${tag}`,
  });
  const clientId = made.client.id;
  await call(
    'POST',
    `/api/v2/${demo.studioUuid}/clients/${clientId}/client-pricing-options/${gymPass.id}`,
    {},
  );
  const card = `W-${tag}`;
  await call('POST', v4(`client/${clientId}/client-identity`), { cardNumber: card });

  // The kiosk, set up with the studio's key.
  await page.goto('/kiosk');
  await page.locator('input[name="uuid"]').fill(demo.studioUuid);
  await page.locator('input[name="kioskKey"]').fill(demo.kioskKey!);
  await page.getByTestId('kiosk-submit').click();
  await expect(page.getByTestId('kiosk-start')).toBeVisible();
  await page.getByTestId('kiosk-code').pressSequentially(card);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('kiosk-hello')).toHaveText('Hello, Wiktor!');
  await page.getByTestId('kiosk-entry').click();
  await expect(page.getByTestId('kiosk-done-title')).toHaveText('Welcome in, Wiktor!');
  await shootAll(page, 'entries-kiosk-done', () => expect(page.getByTestId('kiosk-done')).toBeVisible());
  await page.getByTestId('kiosk-done-back').click();

  // The same day again: today's entry is used (the wall allows one a day), said in the client's words.
  await page.getByTestId('kiosk-code').pressSequentially(card);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('kiosk-hello')).toHaveText('Hello, Wiktor!');
  await expect(page.getByTestId('kiosk-entry')).toHaveCount(0);

  // The back office: the wall with one inside, the client's entries tab with the kiosk entry.
  const office = await backofficePage(browser, demo, { errors });
  await office.goto(`/${demo.studioUuid}/backoffice#/entries`);
  await office.getByTestId('entries-tab-services').click();
  const wallCard = office.getByTestId('entry-service-card').filter({ hasText: `Climbing wall ${tag}` });
  await expect(wallCard.getByTestId('entry-service-inside')).toHaveText('1 inside now of 5');
  await shootAll(office, 'entries-services', () =>
    expect(office.getByTestId('entry-service-card').first()).toBeVisible(),
  );

  // The desk: the client may not enter the wall again today; the reason is shown.
  await office.getByTestId('entries-tab-desk').click();
  await office.getByTestId('entry-client-search').fill(`Wspinacz${tag}`);
  await office.getByTestId('entry-client-result').first().click();
  const deskWall = office.getByTestId('entry-desk-service').filter({ hasText: tag });
  await expect(deskWall).toContainText("Today's entries are used up.");
  await shootAll(office, 'entries-desk', () => expect(deskWall).toBeVisible());

  // A walk-in without a pass: the desk sells the day ticket and lets them in, in one go.
  const walkIn = await call<{ client: { id: string } }>('POST', v4('client'), {
    firstName: 'Sylwia',
    lastName: `Gosc${tag}`,
  });
  await office.getByTestId('entry-desk-other-client').click();
  await office.getByTestId('entry-client-search').fill(`Gosc${tag}`);
  await office.getByTestId('entry-client-result').first().click();
  const sellWall = office.getByTestId('entry-desk-service').filter({ hasText: tag });
  await expect(sellWall.getByTestId('entry-desk-sell')).toHaveText('Sell entry · 25 zł');
  await shootAll(office, 'entries-desk-sell', () =>
    expect(sellWall.getByTestId('entry-desk-sell')).toBeVisible(),
  );
  await sellWall.getByTestId('entry-desk-sell-method').selectOption({ label: 'Card terminal' });
  await sellWall.getByTestId('entry-desk-sell').click();
  await expect(office.getByTestId('entry-desk-done')).toContainText('ticket sold for');
  const sold = await call<{ items: Array<{ orderId: string | null }> }>(
    'GET',
    v4(`client/${walkIn.client.id}/client-entry/collection`),
  );
  expect(sold.items).toHaveLength(1);
  expect(sold.items[0]!.orderId).toBeTruthy();

  await office.goto(`/${demo.studioUuid}/backoffice#/clients/${clientId}/entries`);
  await expect(office.getByTestId('client-entry-row')).toHaveCount(1);
  await expect(office.getByTestId('client-entry-row')).toContainText(`Climbing wall ${tag}`);
  await shootAll(office, 'entries-client-tab', () =>
    expect(office.getByTestId('client-entries')).toBeVisible(),
  );
  expect(wall.id).toBeTruthy();
  expect(errors).toEqual([]);
});
