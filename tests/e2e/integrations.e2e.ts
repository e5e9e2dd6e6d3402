import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { SCREENSHOT_DIR, VIEWPORTS, setLanguage, shootAll, capture } from './support/screenshots';
import { demoManager, signInBackoffice } from './support/sign-in';

/**
 * Integrations (issue 24) on the demo studio: the manager sees the website's API key (its prefix and
 * last use, never its secret), creates a key whose secret is shown once, opens the CRM webhook's
 * delivery log (request, response, timing) and replays a failed delivery; the API reference at
 * /docs/api renders with every request outside the server refused (the viewer is bundled).
 * Screenshots: integrations-*, integrations-delivery-log-* (EN, PL; 390 and 1280 px), docs-api-*.
 */
test('integrations: API keys, a webhook delivery log with replay, the API reference offline', async ({
  browser,
  baseURL,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const context = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  // Nothing but the server itself: the reference must not need a CDN.
  const origin = new URL(baseURL!).origin;
  await context.route(
    (url) => url.origin !== origin,
    (route) => route.abort(),
  );
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await signInBackoffice(page, demo.studioUuid, demoManager(demo));
  await setLanguage(page, 'EN');
  await page.goto(`/${demo.studioUuid}/backoffice#/integrations`);

  // The demo's website key is there (a retry of this test finds its own key of the first try too).
  const keys = page.getByTestId('api-keys');
  await expect(keys.getByTestId('api-key-row').filter({ hasText: 'Read only' })).toHaveCount(1);
  await expect(keys).toContainText('sk_live_');
  const keysBefore = await keys.getByTestId('api-key-row').count();

  await page.getByTestId('api-key-new').click();
  await page.getByTestId('api-key-name').fill('Access control');
  await page.getByText('Read and write').click();
  await page.getByTestId('api-key-save').click();
  const secret = page.getByTestId('secret-value');
  await expect(secret).toContainText(/^sk_live_[A-Za-z0-9_-]{32}$/);
  const issued = (await secret.textContent())!;
  await page.getByTestId('secret-done').click();
  await expect(keys.getByTestId('api-key-row')).toHaveCount(keysBefore + 1);
  await expect(page.locator('body')).not.toContainText(issued);
  // The new key works on the public API.
  const ping = await page.request.get('/api/v2/public/ping', { headers: { 'x-api-key': issued } });
  expect(ping.status()).toBe(200);

  const webhook = page.getByTestId('webhook-row');
  await expect(webhook).toContainText('https://crm.example.com/hooks/studio');
  await shootAll(page, 'integrations', async (locale) => {
    await expect(page.getByTestId('webhooks')).toContainText(locale === 'EN' ? 'Webhooks' : 'Webhooki');
  });

  await webhook.getByTestId('webhook-log').click();
  // The demo's seven deliveries, and whatever the specs before this one sent the CRM (their bookings
  // and sales are events too).
  const rows = page.getByTestId('delivery-row');
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(7);
  const deliveriesBefore = await rows.count();
  const failed = rows.filter({ hasText: 'order.paid' }).filter({ hasText: 'Failed' }).first();
  await failed.click();
  await expect(failed.getByTestId('delivery-attempt')).toHaveCount(11);
  await expect(failed).toContainText('webhook-signature: v1,…');
  await shootAll(page, 'integrations-delivery-log', async (locale) => {
    await expect(page.getByTestId('delivery-log')).toContainText(
      locale === 'EN' ? 'Delivery log' : 'Dziennik dostaw',
    );
  });
  await failed.getByTestId('delivery-replay').click();
  await expect(rows).toHaveCount(deliveriesBefore + 1);
  await expect(rows.first()).toContainText('order.paid');

  // The reference: Scalar's bundle from this server, the document generated from the catalog.
  await page.goto('/docs/api');
  await expect(page.getByText('Studio Platform public API').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Authentication').first()).toBeVisible();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const [size, viewport] of [
    ['1280', VIEWPORTS.laptop],
    ['390', VIEWPORTS.phone],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(300);
    await capture(page, { path: path.join(SCREENSHOT_DIR, `docs-api-${size}.png`) });
  }
  expect(errors).toEqual([]);
  await context.close();
});
