import { expect, test, type Page } from '@playwright/test';
import { VIEWPORTS, saveScreenshot } from './support/screenshots';
import {
  LANGUAGES,
  answer,
  asSignupStudio,
  expectNoPageErrors,
  readEntryDemo,
  serveLogos,
  serverError,
  stall,
  twoStudios,
  watchPage,
} from './support/entry';

/**
 * Every entry screen and state, in English and Polish, at 390×844 and 1366×768, saved to
 * test-results/screenshots/entry-<state>-<lang>-<width>x<height>.png; then the layout at the four
 * screen widths of spec §9. Canned answers throughout, so the pictures do not depend on the data.
 */
type Shot = (state: string) => Promise<void>;

async function loginStates(page: Page, shot: Shot) {
  const demo = readEntryDemo();
  await page.goto('/login');
  await expect(page.getByTestId('login-form')).toBeVisible();
  await shot('login');

  await answer(page, 'auth/preflight', 200, { isValid: false, studios: [] });
  await page.locator('input[name="username"]').fill('nobody@example.com');
  await page.getByTestId('lookup-next').click();
  await expect(page.locator('input[name="username"]')).toHaveAttribute('aria-invalid', 'true');
  await shot('login-no-account');

  await page.unroute('**/api/v4/auth/preflight');
  await answer(page, 'auth/preflight', 500, serverError(1999));
  await page.getByTestId('lookup-next').click();
  await expect(page.getByTestId('form-errors')).toBeVisible();
  await shot('login-error');

  await page.unroute('**/api/v4/auth/preflight');
  await answer(page, 'auth/preflight', 200, { isValid: true, studios: twoStudios(demo) });
  await page.locator('input[name="username"]').fill('anna.kowalska@example.com');
  await page.getByTestId('lookup-next').click();
  await expect(page.getByTestId('login-picker').locator('img')).toHaveJSProperty('naturalWidth', 64);
  await shot('login-picker');
  await page.unroute('**/api/v4/auth/preflight');
}

async function signupStates(page: Page, shot: Shot) {
  const demo = readEntryDemo();
  await page.goto('/signup');
  await expect(page.getByTestId('signup-form')).toBeVisible();
  await shot('signup');

  await answer(page, 'auth/preflight', 200, { isValid: false, studios: [] });
  await answer(page, 'studio/create', 400, {
    error: {
      code: 1000,
      key: 'request.invalid',
      message: 'invalid input',
      fields: {
        emailAddress: ['invalid email address'],
        name: ['required'],
        firstName: ['required'],
        lastName: ['required'],
        termsOfUseAndPrivacyPolicyAgreement: ['you must accept the terms of use and the privacy policy'],
      },
    },
  });
  await page.getByTestId('signup-submit').click();
  await expect(page.locator('input[name="lastName"]')).toHaveAttribute('aria-invalid', 'true');
  await shot('signup-errors');

  await page.unroute('**/api/v4/auth/preflight');
  await answer(page, 'auth/preflight', 200, {
    isValid: true,
    studios: twoStudios(demo).map((s) => asSignupStudio(s, demo.baseURL)),
  });
  const form = page.getByTestId('signup-form');
  await form.locator('input[name="emailAddress"]').fill('anna.kowalska@example.com');
  await form.locator('input[name="name"]').fill('Studio Jogi Świt');
  await form.locator('input[name="firstName"]').fill('Anna');
  await form.locator('input[name="lastName"]').fill('Kowalska');
  await form.locator('input[name="termsOfUseAndPrivacyPolicyAgreement"]').check();
  await page.getByTestId('signup-submit').click();
  await expect(page.getByTestId('signup-studio-already-exists').locator('img')).toHaveJSProperty(
    'naturalWidth',
    64,
  );
  await shot('signup-studio-already-exists');

  await page.getByTestId('create-account').click();
  await expect(page.getByTestId('signup-form')).toBeVisible();
  await shot('signup-without-bullets');

  await page.unroute('**/api/v4/studio/create');
  await answer(page, 'studio/create', 201, {
    studio: {
      uuid: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c',
      name: 'Studio Jogi Świt',
      slug: 'studio-jogi-swit',
      currency: 'PLN',
      defaultLocale: 'pl',
      timeZone: 'Europe/Warsaw',
      logoUrl: null,
      rootSearchAddress: '',
      frontOfficeLink: `${demo.baseURL}/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c/frontoffice`,
    },
    backofficeUrl: `${demo.baseURL}/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c/backoffice`,
  });
  await page.getByTestId('signup-submit').click();
  await expect(page.getByTestId('signup-success')).toBeVisible();
  await shot('signup-success');
  await page.unroute('**/api/v4/auth/preflight');
  await page.unroute('**/api/v4/studio/create');
}

async function deleteStates(page: Page, shot: Shot) {
  const demo = readEntryDemo();
  await page.goto('/delete');
  await expect(page.getByTestId('delete-form')).toBeVisible();
  await shot('delete');
  await answer(page, 'auth/preflight', 200, { isValid: true, studios: twoStudios(demo) });
  await page.locator('input[name="username"]').fill('anna.kowalska@example.com');
  await page.getByTestId('lookup-next').click();
  await expect(page.getByTestId('delete-picker').locator('img')).toHaveJSProperty('naturalWidth', 64);
  await shot('delete-picker');
  await page.unroute('**/api/v4/auth/preflight');
}

async function searchStates(page: Page, shot: Shot) {
  const demo = readEntryDemo();
  await page.goto('/search');
  const field = page.locator('input[name="queryString"]');
  await expect(field).toBeVisible();
  await shot('search');

  const held = await stall(page, 'app/search');
  await field.fill('Stud');
  await page.clock.runFor(600); // the search delay
  await expect(page.getByTestId('search-loading')).toBeVisible();
  await shot('search-loading');
  for (const route of held.held.splice(0)) await route.fulfill({ json: { studios: twoStudios(demo) } });
  await page.unroute('**/api/v4/app/search');
  await expect(page.getByTestId('studio-search')).toHaveAttribute('data-state', 'success');
  await expect(page.getByTestId('studio-search').locator('img')).toHaveJSProperty('naturalWidth', 64);
  await shot('search-results');

  await answer(page, 'app/search', 200, { studios: [] });
  await field.fill('Nieistniejące');
  await page.clock.runFor(600);
  await expect(page.getByTestId('studio-search')).toHaveAttribute('data-state', 'noResults');
  await shot('search-no-results');
  await page.unroute('**/api/v4/app/search');
}

async function kioskStates(page: Page, shot: Shot) {
  await page.goto('/kiosk');
  await expect(page.getByTestId('kiosk-form')).toBeVisible();
  await shot('kiosk');

  await answer(page, 'auth/kiosk', 403, {
    error: {
      code: 1106,
      key: 'auth.kioskInvalid',
      message: 'invalid uuid or kiosk key',
      fields: { kioskKey: ['invalid uuid or kiosk key'] },
    },
  });
  await page.locator('input[name="uuid"]').fill('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
  await page.locator('input[name="kioskKey"]').fill('wrong-key');
  await page.getByTestId('kiosk-submit').click();
  await expect(page.locator('input[name="kioskKey"]')).toHaveAttribute('aria-invalid', 'true');
  await shot('kiosk-invalid');
  await page.unroute('**/api/v4/auth/kiosk');

  // Stored credentials: loading at once (held), then an error the user can retry.
  await page.evaluate(() =>
    localStorage.setItem(
      'studio.platform.kiosk.credentials',
      JSON.stringify({ uuid: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', kioskKey: 'key' }),
    ),
  );
  const held = await stall(page, 'auth/kiosk');
  await page.goto('/kiosk');
  await expect(page.getByTestId('kiosk-loading')).toBeVisible();
  await shot('kiosk-loading');
  for (const route of held.held.splice(0)) {
    await route.fulfill({ status: 500, json: serverError(1999) });
  }
  await expect(page.getByTestId('kiosk-error')).toBeVisible();
  await shot('kiosk-error');
  await page.unroute('**/api/v4/auth/kiosk');
  await page.evaluate(() => localStorage.clear());
}

async function otherStates(page: Page, shot: Shot) {
  const demo = readEntryDemo();
  // A studio uuid as path: the page shown while the browser loads the front office (held here).
  await page.route(`**/${demo.studioUuid}/frontoffice`, (route) => route.fulfill({ status: 204 }));
  await page.goto(`/${demo.studioUuid}`);
  await expect(page.getByTestId('studio-redirect')).toBeVisible();
  await shot('studio-redirect');

  // A user and studio known from the page: the 300 ms redirect notice (clock paused to see it).
  await page.route(
    (url) => url.pathname === '/login',
    async (route) => {
      const response = await route.fetch();
      const html = (await response.text())
        .replace('"userId":null', '"userId":"01a00000-0000-7000-8000-000000000001"')
        .replace('"studioUuid":null', `"studioUuid":"${demo.studioUuid}"`);
      await route.fulfill({ response, body: html });
    },
  );
  await page.goto('/login');
  await expect(page.getByTestId('login-redirecting')).toBeVisible();
  await shot('login-redirecting');
  await page.unroute((url) => url.pathname === '/login');
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`entry screens (${lang})`, () => {
    test.use({ locale });
    for (const [device, viewport] of Object.entries(VIEWPORTS)) {
      test(`screenshots: every entry screen (${lang}, ${device} ${viewport.width}×${viewport.height})`, async ({
        page,
        browser,
      }) => {
        test.setTimeout(120_000);
        const watch = watchPage(page);
        await page.setViewportSize(viewport);
        await page.clock.install();
        await page.clock.pauseAt(Date.now() + 1_000); // stills: no spinners mid-turn, no timed redirect
        await serveLogos(page);
        const shot: Shot = async (state) => {
          // Let transitions (button spinner, input error) settle on the paused clock.
          await page.clock.runFor(300);
          await saveScreenshot(page, `entry-${state}-${lang}-${viewport.width}x${viewport.height}`);
        };
        await loginStates(page, shot);
        await signupStates(page, shot);
        await deleteStates(page, shot);
        await searchStates(page, shot);
        await kioskStates(page, shot);
        await otherStates(page, shot);
        expectNoPageErrors(watch.pageErrors);

        // The mobile app's login (Android bridge present before the page starts).
        const app = await browser.newContext({ viewport, locale });
        await app.addInitScript('window.Android = {};');
        const appPage = await app.newPage();
        await appPage.goto(new URL('/login', readEntryDemo().baseURL).toString());
        await expect(appPage.getByTestId('create-account')).toBeVisible();
        await saveScreenshot(appPage, `entry-login-app-${lang}-${viewport.width}x${viewport.height}`);
        await app.close();
      });
    }
  });
}

/** Spec §9: xs ≤ 766, sm 768–990, md 992–1198, lg ≥ 1199. */
const WIDTHS = [
  { size: 'xs', width: 390 },
  { size: 'xs', width: 766 },
  { size: 'sm', width: 768 },
  { size: 'sm', width: 990 },
  { size: 'md', width: 992 },
  { size: 'md', width: 1198 },
  { size: 'lg', width: 1199 },
  { size: 'lg', width: 1920 },
] as const;

test('layout at the four screen widths: nothing overflows; the sign-up card has two columns from md', async ({
  page,
}) => {
  test.setTimeout(120_000);
  for (const { size, width } of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ['/login', '/delete', '/search', '/kiosk', '/signup']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} at ${width}px overflows`).toBeLessThanOrEqual(0);
    }
    const pitch = (await page.getByTestId('signup-bullets').boundingBox())!;
    const form = (await page.getByTestId('signup-form').boundingBox())!;
    const bullets = await page
      .getByTestId('signup-bullet')
      .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().top));
    if (size === 'md' || size === 'lg') {
      expect(form.x, `form beside the pitch at ${width}px`).toBeGreaterThan(pitch.x + pitch.width - 1);
      expect(new Set(bullets).size, `bullets stacked at ${width}px`).toBe(3);
    } else {
      expect(form.y, `form below the pitch at ${width}px`).toBeGreaterThan(pitch.y + pitch.height - 1);
      // sm: the three bullets side by side in one row; xs: one under the other.
      expect(new Set(bullets).size, `bullet rows at ${width}px`).toBe(size === 'sm' ? 1 : 3);
    }
  }
});
