import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { readDemo } from './support/demo';
import { SCREENSHOT_DIR, saveScreenshot, VIEWPORTS, capture } from './support/screenshots';
import { demoClient } from './support/sign-in';

/**
 * The embeddable widget (issue 24): a plain HTML page on another port (the studio's own website)
 * carries `<script src=".../widget.js" data-studio="...">`; the script mounts an iframe with the
 * studio's timetable in its colours, the iframe takes the height it reports, and "Book" opens the
 * front office's sign-in in a new window, which lands on the timetable with that class to book.
 * Screenshots: widget-host-en-1280, widget-host-pl-390.
 */
const cloudPort = Number(process.env.E2E_PORT ?? 3100);
const hostPort = cloudPort + 1;

function hostSite(cloud: string, studio: string) {
  return http.createServer((req, res) => {
    const locale = new URL(req.url ?? '/', 'http://x').searchParams.get('lang') ?? 'en';
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><title>Studio website</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:Georgia,serif;margin:0;background:#f6f1ea;color:#222}
header,footer{padding:16px 24px;background:#2b2b2b;color:#fff}main{max-width:960px;margin:0 auto;padding:24px}</style>
</head><body><header><strong>Our studio</strong> · Yoga · Pilates · Dance</header>
<main><h1>Classes</h1><p>Book your next class below.</p>
<script src="${cloud}/widget.js" data-studio="${studio}" data-locale="${locale}" async></script>
</main><footer>© Our studio</footer></body></html>`);
  });
}

/**
 * The host page whole: the viewport is made as tall as the page first (a full-page capture does not
 * paint an iframe's content below the first screen).
 */
async function shootHost(page: Page, name: string) {
  const width = page.viewportSize()!.width;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height: Math.min(height, 6000) });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await capture(page, { path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

test('the widget on a studio website: timetable in the iframe, booking in a new window', async ({
  browser,
  baseURL,
}) => {
  const demo = readDemo();
  const cloud = new URL(baseURL!).origin;
  const server = hostSite(cloud, demo.studioUuid);
  await new Promise<void>((resolve) => server.listen(hostPort, '127.0.0.1', resolve));
  const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const context = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${host}/?lang=en`);

    const frameElement = page.locator('iframe[data-studio-widget]');
    await expect(frameElement).toHaveAttribute('src', `${cloud}/${demo.studioUuid}/widget/me?locale=en`);
    const widget = page.frameLocator('iframe[data-studio-widget]');
    await expect(widget.getByRole('heading', { level: 1 })).toHaveText('Timetable');
    await expect(widget.getByTestId('widget-day').first()).toBeVisible();
    // The demo's timetable: this week or the next has classes to book.
    if ((await widget.getByTestId('widget-book').count()) === 0)
      await widget.getByTestId('widget-next').click();
    const bookButton = widget.getByTestId('widget-book').first();
    await expect(bookButton).toBeVisible();
    // The studio's colour (appearance) paints the buttons, inside another site's page.
    const branded = await bookButton.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(branded).not.toBe('rgba(0, 0, 0, 0)');
    // The iframe takes the height the widget reports (no inner scroll bar).
    await expect
      .poll(async () => {
        const frameBox = await frameElement.boundingBox();
        const inner = await widget.locator('html').evaluate((el) => el.getBoundingClientRect().height);
        return Math.abs((frameBox?.height ?? 0) - inner);
      })
      .toBeLessThan(2);
    await shootHost(page, 'widget-host-en-1280');
    await page.setViewportSize(VIEWPORTS.laptop);

    // Book: the studio's sign-in opens in a new window and lands on the class chosen.
    const eventText = await widget
      .getByTestId('widget-event')
      .filter({ has: bookButton })
      .first()
      .innerText();
    const [popup] = await Promise.all([context.waitForEvent('page'), bookButton.click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toContain(`${cloud}/${demo.studioUuid}/frontoffice/login?`);
    expect(decodeURIComponent(popup.url())).toMatch(
      /redirectAfterLogin=timetable\?date=\d{4}-\d{2}-\d{2}&book=/,
    );
    const client = demoClient(demo);
    await popup.getByTestId('login-email-step').locator('input[name="emailAddress"]').fill(client.email);
    await popup.getByTestId('login-next').click();
    await popup.getByTestId('sign-in-form').locator('input[name="password"]').fill(client.password);
    await popup.getByTestId('sign-in-submit').click();
    const dialog = popup.getByRole('dialog');
    await expect(dialog).toBeVisible({ timeout: 15_000 });
    const className = eventText
      .split('\n')[0]!
      .replace(/^\d{2}:\d{2}\s*/, '')
      .trim();
    await expect(dialog).toContainText(className);
    await saveScreenshot(popup, 'widget-booking-window-en');
    // The demo client may hold that class already (an earlier spec, a retry): then the dialog says so.
    const bookIt = dialog.getByTestId('pending-book');
    if (await bookIt.isVisible()) {
      await bookIt.click();
      await expect(dialog.getByTestId('pending-feedback')).toBeVisible();
    }
    await popup.close();

    // Polish, on a phone: the host page asks for it with data-locale.
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(`${host}/?lang=pl`);
    await expect(
      page.frameLocator('iframe[data-studio-widget]').getByRole('heading', { level: 1 }),
    ).toHaveText('Grafik zajęć');
    await expect(
      page.frameLocator('iframe[data-studio-widget]').getByTestId('widget-day').first(),
    ).toBeVisible();
    await shootHost(page, 'widget-host-pl-390');
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
