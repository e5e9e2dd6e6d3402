import { expect, test, type Page } from '@playwright/test';
import {
  LANGUAGES,
  answer,
  entryTexts,
  expectNoPageErrors,
  readEntryDemo,
  serveLogos,
  serverError,
  stall,
  twoStudios,
  watchPage,
} from './support/entry';

/**
 * /login (spec §2 "Login entry", §4 buttons, §8 errors) in both languages: the real server for one
 * studio, no account and bad input; canned answers for several studios, server and network failures;
 * a controlled clock for the button's 2.5 s feedback, its 45 s auto-unlock and the Enter debounce.
 */
const SUPPORT = { en: /If it persists, please contact support\./, pl: /skontaktuj się z pomocą techniczną/ };

async function openLogin(page: Page, query = '') {
  await page.goto(`/login${query}`);
  const form = page.getByTestId('login-form');
  await expect(form).toBeVisible();
  return {
    form,
    email: form.locator('input[name="username"]'),
    next: page.getByTestId('lookup-next'),
  };
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`login entry (${lang})`, () => {
    test.use({ locale });
    const t = entryTexts(lang);

    test('one studio: the real lookup lands on its front-office login, email prefilled, password form shown', async ({
      page,
    }) => {
      const demo = readEntryDemo();
      const watch = watchPage(page);
      const { email, next } = await openLogin(page);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('heading', { level: 2 })).toHaveText(t('login.title'));
      await expect(email).toBeFocused();
      await expect(email).toHaveAttribute('type', 'email');
      await email.fill(`  ${demo.managerEmail.toUpperCase()}  `);
      await next.click();
      await expect(page).toHaveURL(
        `/${demo.studioUuid}/frontoffice/login?${new URLSearchParams({
          username: demo.managerEmail.toUpperCase(),
          showLoginForm: '1',
        })}`,
      );
      const signIn = page.getByTestId('sign-in-form');
      await expect(signIn.locator('input[name="emailAddress"]')).toHaveValue(demo.managerEmail.toUpperCase());
      await expect(signIn.locator('input[name="password"]')).toBeVisible();
      // The email is sent trimmed (spec §5), under the payload's field name.
      expect(watch.bodies('auth/preflight')).toEqual([
        { preflight: 'username', username: demo.managerEmail.toUpperCase() },
      ]);
      expectNoPageErrors(watch.pageErrors);
    });

    test('the username route parameter prefills the email', async ({ page }) => {
      const { email } = await openLogin(page, `?username=${encodeURIComponent('anna@example.com')}`);
      await expect(email).toHaveValue('anna@example.com');
    });

    test('no account: the message on the email field, the button shows its error 2.5 s and unlocks', async ({
      page,
    }) => {
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1_000);
      const watch = watchPage(page);
      const { email, next, form } = await openLogin(page);
      await email.fill('nobody-here@e2e-entry.example');
      await next.click();
      await expect(form.getByText(t('lookup.noAccount'))).toBeVisible();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(next).toHaveAttribute('data-state', 'error');
      await page.clock.runFor(2_499);
      await expect(next).toHaveAttribute('data-state', 'error');
      await page.clock.runFor(1);
      await expect(next).toHaveAttribute('data-state', 'idle');
      await expect(next).toBeEnabled();
      // The field keeps its message until the next submit, which clears it first.
      await expect(form.getByText(t('lookup.noAccount'))).toBeVisible();
      expect(watch.count('auth/preflight')).toBe(1);
      expect(watch.count('log/post')).toBe(0);
      expectNoPageErrors(watch.pageErrors);
    });

    test('a malformed email: the server field message under the input', async ({ page }) => {
      const { email, next, form } = await openLogin(page);
      await email.fill('not-an-email');
      await next.click();
      await expect(
        form.getByText(lang === 'en' ? 'Enter a valid email address.' : 'Podaj prawidłowy adres e-mail.'),
      ).toBeVisible();
    });

    test('several studios: logo or placeholder, name, address; each leads to its login; Go back clears', async ({
      page,
    }) => {
      const demo = readEntryDemo();
      const studios = twoStudios(demo);
      await serveLogos(page);
      await answer(page, 'auth/preflight', 200, { isValid: true, studios });
      const { email, next } = await openLogin(page);
      await email.fill('twice@e2e-entry.example');
      await next.click();

      const picker = page.getByTestId('login-picker');
      await expect(picker.getByRole('heading', { level: 2 })).toHaveText(t('login.pickTitle'));
      await expect(picker).toContainText('twice@e2e-entry.example');
      const options = picker.getByTestId('studio-option');
      await expect(options).toHaveCount(2);
      await expect(options.nth(0).getByTestId('studio-name')).toHaveText(demo.studioName);
      await expect(options.nth(0).getByTestId('studio-address')).toHaveText(
        'ul. Puławska 145, 02-715 Warszawa',
      );
      await expect(options.nth(0).locator('img')).toHaveAttribute('src', studios[0]!.logoUrl!);
      await expect(options.nth(0).locator('img')).toHaveJSProperty('naturalWidth', 64);
      await expect(options.nth(1).getByTestId('studio-name')).toHaveText('Studio Tańca Łódź');
      await expect(options.nth(1).getByTestId('studio-logo-placeholder')).toHaveText('ST');
      await expect(options.nth(1).getByTestId('studio-address')).toHaveCount(0);
      for (const [index, studio] of studios.entries()) {
        await expect(options.nth(index)).toHaveAttribute(
          'href',
          `/${studio.uuid}/frontoffice/login?username=twice%40e2e-entry.example&showLoginForm=1`,
        );
      }

      // Go back: the list and the email are gone.
      await page.getByTestId('go-back').click();
      await expect(picker).toHaveCount(0);
      await expect(email).toHaveValue('');
      await expect(email).toBeFocused();
      await expect(next).toHaveAttribute('data-state', 'idle');

      // Again, and pick the first: its front-office login.
      await email.fill('twice@e2e-entry.example');
      await next.click();
      await options.nth(0).click();
      await expect(page).toHaveURL(
        `/${demo.studioUuid}/frontoffice/login?username=twice%40e2e-entry.example&showLoginForm=1`,
      );
      await expect(page.getByTestId('sign-in-form').locator('input[name="emailAddress"]')).toHaveValue(
        'twice@e2e-entry.example',
      );
    });

    test('a server failure: "an error occurred" with status-errorcode and the support hint, not logged', async ({
      page,
    }) => {
      const watch = watchPage(page);
      await answer(page, 'auth/preflight', 500, serverError(1999));
      const { email, next } = await openLogin(page);
      await email.fill('anna@example.com');
      await next.click();
      const errors = page.getByTestId('form-errors');
      await expect(errors).toHaveText(t('errors.general', { code: '500-1999' }));
      await expect(errors).toContainText(SUPPORT[lang]);
      await expect(next).toHaveAttribute('data-state', 'error');
      expect(watch.count('log/post')).toBe(0);

      // A rate-limited answer without an envelope keeps its status; the code defaults to 100.
      await page.unroute('**/api/v4/auth/preflight');
      await answer(page, 'auth/preflight', 429, '');
      await next.click();
      await expect(errors).toHaveText(t('errors.general', { code: '429-100' }));
    });

    test('a network failure: code 100-100, and the failure is reported to log/post', async ({ page }) => {
      const watch = watchPage(page);
      await page.route('**/api/v4/auth/preflight', (route) => route.abort('connectionrefused'));
      const { email, next } = await openLogin(page);
      await email.fill('anna@example.com');
      const logged = page.waitForResponse((r) => r.url().endsWith('/api/v4/log/post'));
      await next.click();
      await expect(page.getByTestId('form-errors')).toHaveText(t('errors.general', { code: '100-100' }));
      expect((await logged).status()).toBe(204);
      const [report] = watch.bodies('log/post');
      expect(report).toMatchObject({ level: 'error', channel: 10004 });
      expect(report!.message).toMatch(/^auth\/preflight: NetworkError/);
      expect(report!.response).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) });
    });
  });
}

test.describe('login entry: button timing (controlled clock)', () => {
  test('a stalled lookup keeps Next locked with a spinner; it unlocks itself after 45 s', async ({
    page,
  }) => {
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    const held = await stall(page, 'auth/preflight');
    const { email, next } = await openLogin(page);
    await email.fill('anna@example.com');
    await next.click();
    await expect(next).toHaveAttribute('data-state', 'locked');
    await expect(next).toHaveAttribute('aria-busy', 'true');
    await expect(next).toBeDisabled();
    // The spinner fades in (a 150 ms transition, timed by the paused clock too).
    await page.clock.runFor(500);
    await expect(next.locator('.mantine-Button-loader')).toBeVisible();
    // Another press while locked sends nothing.
    await email.press('Enter');
    await page.clock.runFor(44_499);
    await expect(next).toHaveAttribute('data-state', 'locked');
    await page.clock.runFor(1);
    await expect(next).toHaveAttribute('data-state', 'idle');
    await expect(next).toBeEnabled();
    expect(held.held).toHaveLength(1);
  });

  test('one studio: the success state shows 2.5 s while the front office loads', async ({ page }) => {
    const demo = readEntryDemo();
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await answer(page, 'auth/preflight', 200, { isValid: true, studios: twoStudios(demo).slice(0, 1) });
    // The front office answers 204: the browser stays on the entry page, showing the button's success.
    await page.route(`**/${demo.studioUuid}/frontoffice/login**`, (route) => route.fulfill({ status: 204 }));
    const { email, next } = await openLogin(page);
    await email.fill('anna@example.com');
    await next.click();
    await expect(next).toHaveAttribute('data-state', 'success');
    await page.clock.runFor(2_499);
    await expect(next).toHaveAttribute('data-state', 'success');
    await page.clock.runFor(1);
    await expect(next).toHaveAttribute('data-state', 'idle');
  });

  test('Enter submits, but not again within 2.5 s; a click is governed by the lock alone', async ({
    page,
  }) => {
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    const watch = watchPage(page);
    await answer(page, 'auth/preflight', 200, { isValid: false, studios: [] });
    const { email, next } = await openLogin(page);
    await email.fill('nobody@e2e-entry.example');
    await email.press('Enter');
    await expect(next).toHaveAttribute('data-state', 'error');
    expect(watch.count('auth/preflight')).toBe(1);

    await page.clock.runFor(1_000);
    await email.press('Enter'); // 1 s after the last Enter: ignored
    await page.clock.runFor(100);
    expect(watch.count('auth/preflight')).toBe(1);

    await page.clock.runFor(1_400); // 2.5 s after the first Enter
    await email.press('Enter');
    await expect.poll(() => watch.count('auth/preflight')).toBe(2);

    await next.click(); // the error state accepts a click at once
    await expect.poll(() => watch.count('auth/preflight')).toBe(3);
  });
});
