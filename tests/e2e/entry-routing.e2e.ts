import { expect, test, type Page } from '@playwright/test';
import { LANGUAGES, entryTexts, expectNoPageErrors, readEntryDemo, watchPage } from './support/entry';

/**
 * The entry app's routes and what every screen shares (spec §2): / → /login, a studio uuid as first
 * segment → its front office, the 300 ms redirect of a known user, footer with the year, the version
 * in the console, native-platform body classes and Create account, the language switch, and script
 * errors reported to log/post.
 */
const year = String(new Date().getFullYear());

/** Serves /login with a page context that already knows a user and a studio (the server's never does). */
async function loginWithKnownUser(page: Page, studioUuid: string) {
  await page.route(
    (url) => url.pathname === '/login',
    async (route) => {
      const response = await route.fetch();
      const html = (await response.text())
        .replace('"userId":null', '"userId":"01a00000-0000-7000-8000-000000000001"')
        .replace('"sessionId":null', '"sessionId":"e2e-session"')
        .replace('"studioUuid":null', `"studioUuid":"${studioUuid}"`);
      await route.fulfill({ response, body: html });
    },
  );
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`entry routes (${lang})`, () => {
    test.use({ locale });
    const t = entryTexts(lang);

    test('/ goes to /login; footer with the year, version in the console, no native classes', async ({
      page,
    }) => {
      const watch = watchPage(page);
      await page.goto('/?username=anna%40example.com');
      await expect(page).toHaveURL('/login?username=anna%40example.com');
      await expect(page.getByTestId('login-form').locator('input[name="username"]')).toHaveValue(
        'anna@example.com',
      );
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Studio Platform');
      await expect(page).toHaveTitle(`${t('login.pageTitle')} · Studio Platform`);
      await expect(page.getByTestId('copyright-footer')).toContainText(`© ${year}`);
      expect(watch.consoleLines.some((line) => /^\[entry\] version \d+\.\d+\.\d+\.\d+$/.test(line))).toBe(
        true,
      );
      await expect(page.locator('body')).not.toHaveClass(/native-app/);
      // A browser is not the app: no Create account, the hint to ask the studio instead.
      await expect(page.getByTestId('create-account')).toHaveCount(0);
      await expect(page.getByTestId('contact-studio-hint')).toHaveText(t('login.contactStudio'));
      expectNoPageErrors(watch.pageErrors);
    });

    test('a studio uuid as first segment opens its front office', async ({ page }) => {
      const demo = readEntryDemo();
      await page.goto(`/${demo.studioUuid}`);
      await expect(page).toHaveURL(`/${demo.studioUuid}/frontoffice`);
      await expect(page.getByTestId('frontoffice-heading')).toBeVisible();
      // Back does not return to the redirecting page (it was replaced).
      expect(await page.evaluate(() => history.length)).toBe(2);
    });

    test('known user and studio in the page context: the studio front office after 300 ms', async ({
      page,
    }) => {
      const demo = readEntryDemo();
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1_000);
      await loginWithKnownUser(page, demo.studioUuid);
      await page.goto('/login');
      await expect(page.getByTestId('login-redirecting')).toContainText(t('login.redirecting'));
      await expect(page.getByTestId('login-form')).toHaveCount(0);
      await page.clock.runFor(299);
      await expect(page).toHaveURL('/login');
      await page.clock.runFor(1);
      await expect(page).toHaveURL(`/${demo.studioUuid}/frontoffice`);
    });
  });
}

test('an unknown studio uuid: the server says so and links back to /login', async ({ page }) => {
  await page.goto('/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
  await expect(page).toHaveURL('/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/frontoffice');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Studio not found');
});

test("the server's /app/* pages open the login entry", async ({ page }) => {
  await page.goto('/app/return');
  await expect(page).toHaveURL('/login');
  await expect(page.getByTestId('login-form')).toBeVisible();
});

for (const [platform, bridge] of [
  ['android', 'window.Android = { postMessage() {} };'],
  ['ios', 'window.webkit = { messageHandlers: { app: { postMessage() {} } } };'],
] as const) {
  test(`native ${platform} bridge: body classes, and Create account goes to /search`, async ({ page }) => {
    await page.addInitScript(bridge);
    await page.goto('/login');
    await expect(page.locator('body')).toHaveClass(new RegExp(`native-app.*platform-${platform}`));
    await expect(page.getByTestId('contact-studio-hint')).toHaveCount(0);
    await page.getByTestId('create-account').click();
    await expect(page).toHaveURL('/search');
    await expect(page.getByTestId('search-screen')).toBeVisible();
    await page.getByTestId('go-back').click();
    await expect(page).toHaveURL('/login');
  });
}

test('the language switch: Polish at once, remembered for the server, on every screen', async ({
  page,
  context,
}) => {
  const en = entryTexts('en');
  const pl = entryTexts('pl');
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(en('login.title'));
  await page.getByTestId('language-switch').getByText('PL', { exact: true }).click();
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(pl('login.title'));
  await expect(page.getByTestId('lookup-next')).toHaveText(pl('actions.next'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await expect(page).toHaveTitle(`${pl('login.pageTitle')} · Studio Platform`);
  expect((await context.cookies()).find((c) => c.name === 'locale')?.value).toBe('pl');
  for (const [path, key] of [
    ['/signup', 'signup.title'],
    ['/delete', 'delete.title'],
    ['/search', 'search.title'],
    ['/kiosk', 'kiosk.title'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: pl(key), level: 2 })).toBeVisible();
  }
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(en('kiosk.title'));
});

test('script errors go to log/post (channel 10004, with version), at most 5 per page', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto('/login');
  await expect(page.getByTestId('login-form')).toBeVisible();
  const first = page.waitForResponse((r) => r.url().endsWith('/api/v4/log/post'));
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('e2e script error 0');
    });
  });
  expect((await first).status()).toBe(204);
  await page.evaluate(() => {
    for (let i = 1; i < 10; i += 1) {
      setTimeout(() => {
        throw new Error(`e2e script error ${i}`);
      });
    }
    void Promise.reject(new Error('e2e rejection'));
  });
  await expect.poll(() => watch.count('log/post')).toBe(5);
  await page.waitForTimeout(500);
  expect(watch.count('log/post')).toBe(5);
  const [report] = watch.bodies('log/post');
  expect(report).toMatchObject({
    level: 'error',
    channel: 10004,
    message: 'window.onerror: Error: e2e script error 0',
    response: {
      version: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
      stack: expect.stringContaining('Error'),
    },
  });
});
