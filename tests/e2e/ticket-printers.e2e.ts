import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * The "Ticket printer" section of the station editor (Settings → POS stations) and of the kiosk
 * editor (Kiosks): a wrong address is refused with the field's message, a LAN printer is saved and
 * shown on the card. Screenshots in English and Polish at 390 and 1280 px.
 */
test('ticket printers: a POS station’s and a kiosk’s ESC/POS printer are set in the back office', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const demo = readDemo();
  const pageErrors: string[] = [];
  const page = await backofficePage(browser, demo, { errors: pageErrors });

  // A station to set up.
  const slug = `tp-${Date.now().toString(36)}`;
  await page.goto(`/${demo.studioUuid}/backoffice#/settings/stations`);
  await page.getByTestId('station-add').click();
  await page.getByTestId('station-name').fill('Bar till');
  await page.getByTestId('station-slug').fill(slug);
  await page.getByTestId('station-save').click();
  const card = page.locator(`[data-testid="station"][data-slug="${slug}"]`);
  await expect(card).toContainText('Ticket printer');
  await expect(card).toContainText('None');

  await card.getByTestId('station-ticket-printer-edit').click();
  const section = page.getByTestId('station-ticket-printer');
  await section.getByTestId('station-ticket-printer-kind').getByText('Network').click();
  await section.getByTestId('station-ticket-printer-address').fill('not a host!');
  await section.getByTestId('station-ticket-printer-port').fill('70000');
  await section.getByTestId('station-ticket-printer-save').click();
  await expect(section).toContainText('Enter a host name or an IP address');
  await expect(section).toContainText('Enter a port between 1 and 65535.');
  await shootAll(page, 'ticket-printer-station-errors', () => expect(section).toBeVisible(), {
    dialog: true,
  });

  await section.getByTestId('station-ticket-printer-address').fill('192.168.1.50');
  await section.getByTestId('station-ticket-printer-port').fill('9100');
  await section.getByTestId('station-ticket-printer-width').selectOption('42');
  await section.getByTestId('station-ticket-printer-save').click();
  await expect(section.getByTestId('station-ticket-printer-saved')).toHaveText('Saved.');
  await shootAll(page, 'ticket-printer-station', () => expect(section).toBeVisible(), { dialog: true });
  await page.keyboard.press('Escape');
  await expect(card).toContainText('Network · 192.168.1.50:9100 · 42 characters');
  await shootAll(page, 'ticket-printer-stations-list', () => expect(card).toBeVisible());

  // The kiosk editor: a USB printer on 58 mm paper without a cutter.
  await page.goto(`/${demo.studioUuid}/backoffice#/kiosks`);
  await expect(page.getByTestId('kiosks-screen')).toBeVisible();
  const kioskCard = page.getByTestId('kiosk-card').first();
  await kioskCard.getByTestId('kiosk-edit').click();
  const kiosk = page.getByTestId('kiosk-ticket-printer');
  await kiosk.getByTestId('kiosk-ticket-printer-kind').getByText('USB device').click();
  await kiosk.getByTestId('kiosk-ticket-printer-address').fill('lp0');
  await kiosk.getByTestId('kiosk-ticket-printer-save').click();
  await expect(kiosk).toContainText('Enter the full device path');
  await kiosk.getByTestId('kiosk-ticket-printer-address').fill('/dev/usb/lp0');
  await kiosk.getByTestId('kiosk-ticket-printer-width').selectOption('32');
  await kiosk.getByTestId('kiosk-ticket-printer-cut').click();
  await kiosk.getByTestId('kiosk-ticket-printer-save').click();
  await expect(kiosk.getByTestId('kiosk-ticket-printer-saved')).toHaveText('Saved.');
  await kiosk.scrollIntoViewIfNeeded();
  await shootAll(
    page,
    'ticket-printer-kiosk',
    async () => {
      await kiosk.scrollIntoViewIfNeeded();
      await expect(kiosk).toBeVisible();
    },
    { dialog: true },
  );
  await page.keyboard.press('Escape');
  await expect(kioskCard.getByTestId('kiosk-card-ticket-printer')).toContainText(
    'USB device · /dev/usb/lp0 · 32 characters',
  );

  expect(pageErrors).toEqual([]);
  await page.context().close();
});
