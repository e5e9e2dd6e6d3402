import { expect, test, type Page } from '@playwright/test';
import {
  LANGUAGES,
  answer,
  entryTexts,
  expectNoPageErrors,
  readEntryDemo,
  serverError,
  stall,
  watchPage,
} from './support/entry';

/**
 * /kiosk (spec §2 "Kiosk login", §3, §4, §8, §9): states loading, unauthorized (the form), error;
 * stored credentials (local storage, reverse-domain key) sign in at once; 403 → the form with
 * "invalid uuid or kiosk key"; other failures → error with a retry; success → the kiosk app.
 */
const KEY = 'studio.platform.kiosk.credentials';

async function storeCredentials(page: Page, credentials: { uuid: string; kioskKey: string }) {
  // Before any page script runs, once (a later reload must see what the app stored or removed).
  await page.addInitScript(
    ([key, value]) => {
      if (!sessionStorage.getItem('e2e-seeded')) {
        localStorage.setItem(key, value);
        sessionStorage.setItem('e2e-seeded', '1');
      }
    },
    [KEY, JSON.stringify(credentials)] as const,
  );
}

const stored = (page: Page) => page.evaluate((key) => localStorage.getItem(key), KEY);

for (const { lang, locale } of LANGUAGES) {
  test.describe(`kiosk login (${lang})`, () => {
    test.use({ locale });
    const t = entryTexts(lang);

    test('nothing stored: the form; a wrong key (403) stays there with the message; the right key opens the kiosk', async ({
      page,
    }) => {
      const demo = readEntryDemo();
      test.skip(!demo.kioskKey, 'demo.json has no kioskKey (restart the e2e server)');
      const watch = watchPage(page);
      await page.goto('/kiosk');
      const form = page.getByTestId('kiosk-unauthorized');
      await expect(form.getByRole('heading', { level: 2 })).toHaveText(t('kiosk.title'));
      const uuid = form.locator('input[name="uuid"]');
      const kioskKey = form.locator('input[name="kioskKey"]');
      await expect(uuid).toBeFocused();
      await uuid.fill(demo.studioUuid);
      await kioskKey.fill('not-the-key');
      await page.getByTestId('kiosk-submit').click();
      await expect(form.getByText(t('validation.kioskInvalid'))).toBeVisible();
      await expect(kioskKey).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByTestId('kiosk-submit')).toHaveAttribute('data-state', 'error');
      expect(await stored(page)).toBeNull();

      await kioskKey.fill(demo.kioskKey!);
      await page.getByTestId('kiosk-submit').click();
      // The kiosk app of the studio's default kiosk: /{uuid}/kiosk/{guid}.
      await expect(page).toHaveURL(new RegExp(`/${demo.studioUuid}/kiosk/[0-9a-f-]{36}$`));
      const guid = new URL(page.url()).pathname.split('/').pop()!;
      // The kiosk app signs itself in with the stored key: its start screen.
      await expect(page.getByTestId('kiosk-start')).toBeVisible();
      expect(JSON.parse((await stored(page))!)).toEqual({ uuid: demo.studioUuid, kioskKey: demo.kioskKey });
      expect(watch.bodies('auth/kiosk')).toEqual([
        { uuid: demo.studioUuid, kioskKey: 'not-the-key' },
        { uuid: demo.studioUuid, kioskKey: demo.kioskKey },
      ]);

      // Next start: the stored credentials sign in at once (loading), without the form.
      const held = await stall(page, 'auth/kiosk');
      await page.goto('/kiosk');
      await expect(page.getByTestId('kiosk-loading')).toContainText(t('kiosk.loading'));
      await expect(page.getByTestId('kiosk-unauthorized')).toHaveCount(0);
      await expect.poll(() => held.held.length).toBe(1);
      await held.release();
      await expect(page).toHaveURL(`/${demo.studioUuid}/kiosk/${guid}`);
      expectNoPageErrors(watch.pageErrors);
    });

    test('stored credentials refused (403): the form with the message, values kept, storage cleared', async ({
      page,
    }) => {
      const demo = readEntryDemo();
      await storeCredentials(page, { uuid: demo.studioUuid, kioskKey: 'revoked-key' });
      await page.goto('/kiosk');
      const form = page.getByTestId('kiosk-unauthorized');
      await expect(form.getByText(t('validation.kioskInvalid'))).toBeVisible();
      await expect(form.locator('input[name="uuid"]')).toHaveValue(demo.studioUuid);
      await expect(form.locator('input[name="kioskKey"]')).toHaveValue('revoked-key');
      await expect(form.locator('input[name="kioskKey"]')).toBeFocused();
      expect(await stored(page)).toBeNull();
      await page.reload();
      await expect(page.getByTestId('kiosk-unauthorized')).toBeVisible();
      await expect(
        page.getByTestId('kiosk-unauthorized').getByText(t('validation.kioskInvalid')),
      ).toHaveCount(0);
    });

    test('another failure: the error state with its code; Try again signs in; credentials are kept', async ({
      page,
    }) => {
      const demo = readEntryDemo();
      test.skip(!demo.kioskKey, 'demo.json has no kioskKey (restart the e2e server)');
      await storeCredentials(page, { uuid: demo.studioUuid, kioskKey: demo.kioskKey! });
      await answer(page, 'auth/kiosk', 500, serverError(1999));
      await page.goto('/kiosk');
      const error = page.getByTestId('kiosk-error');
      await expect(error.getByRole('heading', { level: 2 })).toHaveText(t('kiosk.errorTitle'));
      await expect(error).toContainText(t('errors.general', { code: '500-1999' }));
      expect(await stored(page)).not.toBeNull();

      await page.unroute('**/api/v4/auth/kiosk');
      await page.getByTestId('kiosk-retry').click();
      await expect(page).toHaveURL(new RegExp(`/${demo.studioUuid}/kiosk/[0-9a-f-]{36}$`));
    });

    test('from the error state the form can be shown again; a form failure without answer is an error too', async ({
      page,
    }) => {
      const watch = watchPage(page);
      await storeCredentials(page, { uuid: 'some-uuid', kioskKey: 'some-key' });
      await page.route('**/api/v4/auth/kiosk', (route) => route.abort('connectionrefused'));
      await page.goto('/kiosk');
      await expect(page.getByTestId('kiosk-error')).toContainText(t('errors.general', { code: '100-100' }));
      await page.getByTestId('kiosk-edit').click();
      const form = page.getByTestId('kiosk-unauthorized');
      await expect(form.locator('input[name="uuid"]')).toHaveValue('some-uuid');
      await form.locator('input[name="kioskKey"]').fill('other-key');
      await page.getByTestId('kiosk-submit').click();
      await expect(page.getByTestId('kiosk-error')).toBeVisible();
      await expect.poll(() => watch.bodies('log/post').length).toBe(1); // the same failure is reported once
      expect(watch.bodies('log/post')[0]!.message).toMatch(/^auth\/kiosk: NetworkError/);
    });
  });
}

test('kiosk: a sign-in that never answers becomes the error state after 45 s', async ({ page }) => {
  const demo = readEntryDemo();
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
  await storeCredentials(page, { uuid: demo.studioUuid, kioskKey: 'whatever' });
  await stall(page, 'auth/kiosk');
  await page.goto('/kiosk');
  await expect(page.getByTestId('kiosk-loading')).toBeVisible();
  await page.clock.runFor(44_999);
  await expect(page.getByTestId('kiosk-loading')).toBeVisible();
  await page.clock.runFor(1);
  await expect(page.getByTestId('kiosk-error')).toContainText('100-100');
});

test('kiosk: the form button locks while the sign-in runs and unlocks itself after 45 s', async ({
  page,
}) => {
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
  await stall(page, 'auth/kiosk');
  await page.goto('/kiosk');
  await page.locator('input[name="uuid"]').fill('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
  await page.locator('input[name="kioskKey"]').fill('key');
  const submit = page.getByTestId('kiosk-submit');
  await submit.click();
  await expect(submit).toHaveAttribute('data-state', 'locked');
  await page.clock.runFor(44_999);
  await expect(submit).toHaveAttribute('data-state', 'locked');
  await page.clock.runFor(1);
  await expect(submit).toHaveAttribute('data-state', 'idle');
});
