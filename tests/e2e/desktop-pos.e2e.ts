import {
  addPosItem,
  DRAWER_KICK,
  expect,
  openTill,
  signInManager,
  test,
  viaStation,
  usePosDesk,
  zlotyToMinor,
  sellPrinted,
  shoot as shootDesk,
} from './support/desk';
import { DESK_SMALL, expectSaleInView } from './support/pos';

/**
 * A full shift at the desktop POS through desktop/host, with a real cloud process and the POSNET
 * emulator on TCP (configured in the cloud as the station's fiscal printer, as a real printer is):
 * set up the station and its POS, open the shift with a float, sell products (cash with change) and a
 * pass to a client with a split payment (cash + card terminal); the emulator printed both receipts
 * (lines, totals, payments); the cloud goes away and the desk keeps selling (recorded locally,
 * printed); the cloud comes back and the sales go up once (the cloud's shift counts them); the shift
 * closes with the daily report on the emulator and the drawer was kicked on the ESC/POS printer.
 * The sale screen is the browser's (issue 26): tiles, categories and search in one panel, the basket in
 * a bar at the bottom of a phone, and after a sale the change given and the payment split.
 *
 * Own ports: DESKTOP_POS_PORT_BASE (5100): cloud +0, host +1, fiscal emulator +2, ticket printer +3.
 */
const shoot = usePosDesk('desktop-pos');
/** The sale screens also at a phone's width (issue 26: the web's POS and the desk's are one). */
const shootSale = (page: Parameters<typeof shoot>[0], name: string) =>
  shootDesk(page, name, {
    prefix: 'desktop-pos',
    sizes: [
      [390, 844],
      [1024, 768],
      [1280, 800],
    ],
  });

test('a shift at the desktop POS: sell online and offline, fiscal receipts on the emulator, synced once, daily report', async ({
  page,
  desk,
}) => {
  test.setTimeout(360_000);
  await signInManager(page, desk);
  const pending = page.getByTestId('sync-pending');

  // The studio's till and its fiscal printer (the emulator on TCP), set up in the cloud.
  const { studio, posId } = await openTill(page, desk, 200);

  // The POS: choose the station, open the shift with 200 zł.

  // Sale 1: products by category, paid in cash with change (2 × water 5,00 + small towel 25,00 = 35,00).
  const catalog = page.getByTestId('pos-catalog');
  await expect(catalog.getByTestId('pos-search')).toBeVisible();
  await catalog.getByTestId('pos-groups').getByText('Napoje').click();
  await expect(catalog.getByTestId('pos-result').filter({ hasText: 'Ręcznik mały' })).toHaveCount(0);
  await addPosItem(page, 'Woda mineralna 0,5 l');
  await addPosItem(page, 'Woda mineralna 0,5 l');
  await page.getByTestId('pos-groups').getByText('Ręczniki').click();
  await addPosItem(page, 'Ręcznik mały');
  await expect(page.getByTestId('pos-due')).toHaveText(/^35([.,]00)? zł$/);
  await expect(page.getByTestId('pos-discount')).toBeVisible(); // the manager holds sales.discount
  await page.getByTestId('pos-payment-amount-0').fill('50');
  await expect(page.getByTestId('pos-change')).toHaveText(/^15([.,]00)? zł$/);
  // On a phone-sized window the basket stays in view with its total.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByTestId('pos-basket-bar')).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('pos-basket-bar-count')).toHaveText('3 items');
  await expect(page.getByTestId('pos-basket-bar-total')).toHaveText(/^35([.,]00)? zł$/);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('pos-basket-bar')).toHaveCount(0);
  // At the desk's 1024×768 and at 1280×800: the basket, the first payment and the sell button in
  // view without scrolling, nothing on top of them.
  await expectSaleInView(page, DESK_SMALL);
  await expectSaleInView(page, { width: 1280, height: 800 });
  await shootSale(page, 'basket');
  await sellPrinted(page, desk);
  await expect(page.getByTestId('pos-done-change')).toHaveText(/^15([.,]00)? zł$/);
  await expect(page.getByTestId('pos-done-payment')).toHaveCount(1);
  await expect(page.getByTestId('pos-done-payment')).toContainText('Cash');
  await expect(page.getByTestId('pos-done-payment')).toContainText(/50([.,]00)? zł/);
  await shootSale(page, 'sold');
  const first = desk.receipts().at(-1)!;
  expect(first.lines.map((l) => l.name)).toEqual(['Woda mineralna 0,5 l', 'Ręcznik mały']);
  expect(first.total).toBe(3500);
  expect(first.payments).toEqual([expect.objectContaining({ amount: 5000 })]);
  expect(first.change).toBe(1500);
  // The drawer was kicked for the cash.
  await expect.poll(() => desk.ticketBytes().includes(DRAWER_KICK)).toBe(true);

  // Sale 2: a pass to a client, split cash 20,00 + card terminal for the rest.
  await page.getByTestId('pos-new-sale').click();
  await page.getByTestId('pos-client-search').fill('Nowak');
  await page.getByTestId('pos-client-option').filter({ hasText: 'Julia' }).first().click();
  await expect(page.getByTestId('pos-client')).toHaveText(/Julia Nowak/);
  await page.getByTestId('pos-groups').getByText('Pass', { exact: true }).click();
  await page.getByTestId('pos-result').first().click();
  const passDue = (await page.getByTestId('pos-due').textContent())!;
  await page.getByTestId('pos-payment-amount-0').fill('20');
  await page.getByTestId('pos-add-payment').click();
  await page.getByTestId('pos-payment-rest-1').click();
  await expect(page.getByTestId('pos-remaining')).toHaveCount(0);
  await sellPrinted(page, desk);
  const second = desk.receipts().at(-1)!;
  expect(second.lines).toHaveLength(1);
  expect(second.payments.map((p) => p.amount)).toContain(2000);
  expect(second.payments).toHaveLength(2);
  expect(second.total).toBe(second.payments.reduce((s, p) => s + p.amount, 0));
  expect(zlotyToMinor(passDue)).toBe(second.total);
  // The split on the result panel: 20 zł cash and the rest by card.
  const split = page.getByTestId('pos-done-payment');
  await expect(split).toHaveCount(2);
  await expect(split.nth(0)).toContainText('Cash');
  await expect(split.nth(0)).toContainText(/20([.,]00)? zł/);
  await expect(split.nth(1)).toContainText('Payment terminal');
  expect(zlotyToMinor((await split.nth(1).locator('td').nth(1).textContent())!)).toBe(second.total - 2000);
  await shootSale(page, 'split-sold');
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });

  // The cloud goes away: the desk keeps selling (recorded here, printed, waiting to sync).
  await desk.stopCloud();
  await expect(page.getByTestId('sync-online')).toHaveAttribute('data-state', 'offline', { timeout: 15_000 });
  await page.getByTestId('pos-new-sale').click();
  await page.getByTestId('pos-search').fill('Kombucha');
  await page.getByTestId('pos-search').press('Enter');
  await page.getByTestId('pos-payment-rest-0').click();
  expect(await sellPrinted(page, desk)).toEqual(['Kombucha']);
  await expect(pending).toHaveText('1 change waiting to sync', { timeout: 10_000 });
  await shoot(page, 'offline-sold');
  // The close waits for the sale to reach the cloud.
  await page.getByTestId('pos-new-sale').click();
  await page.getByTestId('shift-close').click();
  await page.getByTestId('shift-counted').fill('264');
  await page.getByTestId('shift-close-confirm').click();
  await expect(page.getByTestId('shift-error')).toContainText('waiting to sync');
  await page.keyboard.press('Escape');

  // Back online: the sales go up, once; the cloud's shift counts all three.
  await desk.startCloud();
  await expect(page.getByTestId('sync-online')).toHaveAttribute('data-state', 'online', { timeout: 20_000 });
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });
  await expect
    .poll(
      async () =>
        (
          await viaStation<{ shift: { sales: number } | null }>(
            page,
            'GET',
            `v4/${studio}/studio-pos/${posId}/shift/current`,
          )
        ).shift?.sales ?? null,
      { timeout: 30_000 },
    )
    .toBe(3);

  // The prices are the cloud's again: no "offline" badge left behind.
  await expect(page.getByTestId('pos-offline')).toHaveCount(0, { timeout: 30_000 });

  // Close with the counted cash: the daily report prints on the emulator.
  const expected = (await page.getByTestId('shift-expected').textContent())!;
  await page.getByTestId('shift-close').click();
  await page.getByTestId('shift-counted').fill(expected.replace(/[^\d,.]/g, '').replace(/\s/g, ''));
  await page.getByTestId('shift-close-confirm').click();
  await expect(page.getByTestId('shift-closed')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('shift-closed')).toContainText('Daily fiscal report printed');
  await expect(page.getByTestId('shift-difference')).toHaveText('The cash agrees');
  const report = desk.emulator!.roll.filter((d) => d.kind === 'dailyReport');
  expect(report).toHaveLength(1);
  expect(report[0]).toMatchObject({ receipts: 3 });
  await shoot(page, 'closed');
  // The summary stays until dismissed (the screen's state poll has long seen the shift closed), then
  // the next shift can be opened.
  await expect(page.getByTestId('shift-closed')).toContainText('Daily fiscal report printed');
  await page.getByTestId('shift-next').click();
  await expect(page.getByTestId('shift-closed')).toHaveCount(0);
  await expect(page.getByTestId('shift-float')).toBeVisible();
  await expect(page.getByTestId('shift-bar')).toHaveCount(0);
});
