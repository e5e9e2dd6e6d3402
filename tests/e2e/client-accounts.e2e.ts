import { expect, request, test, type Page } from '@playwright/test';
import { readDemo } from './support/demo';
import { readEntryDemo, readMailTo } from './support/entry';
import { saveScreenshot } from './support/screenshots';

/**
 * Client accounts in the front office of the demo studio: a new client signs up accepting the
 * studio's agreements, sees the profile, changes settings, opens the QR identity and links a child
 * account, then opens the child's profile. Screenshots at 390 and 1280 px, in English and Polish.
 */
const LANGUAGES = [
  {
    lang: 'en',
    locale: 'en-US',
    texts: { profile: 'Profile', mustAccept: 'You must accept this agreement', child: 'Child' },
  },
  {
    lang: 'pl',
    locale: 'pl-PL',
    texts: { profile: 'Profil', mustAccept: 'Musisz zaakceptować tę zgodę', child: 'Dziecko' },
  },
] as const;
const WIDTHS = [390, 1280] as const;
const PASSWORD = 'e2e client password';
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function shootBoth(page: Page, name: string, lang: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 860 });
    await page.waitForTimeout(150);
    await saveScreenshot(page, `client-accounts-${name}-${lang}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 860 });
}

/** A second client of the demo studio (the child), signed up through the API. */
async function signUpChild(baseURL: string, studioUuid: string, email: string): Promise<void> {
  const api = await request.newContext({ baseURL });
  const csrf = await (await api.get('/api/v4/auth/csrf')).json();
  const res = await api.post(`/api/v4/${studioUuid}/signup`, {
    headers: { 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': csrf.token },
    data: {
      emailAddress: email,
      password: PASSWORD,
      firstName: 'Antoś',
      lastName: 'Dziecko',
      agreements: { terms: true, privacy: true },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await api.dispose();
}

for (const { lang, locale, texts } of LANGUAGES) {
  test.describe(`client accounts (${lang})`, () => {
    test.use({ locale });

    test(`sign up, profile, settings, identity, linked child (${lang})`, async ({ page }) => {
      test.setTimeout(120_000);
      const demo = readDemo();
      const base = `/${demo.studioUuid}/frontoffice`;
      const pageErrors: string[] = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      await page.setViewportSize({ width: 1280, height: 860 });

      // Sign-up with the studio's agreements: required ones are enforced before sending.
      await page.goto(`${base}/signup`);
      const form = page.getByTestId('signup-form');
      await expect(page.getByTestId('agreement-terms')).toBeVisible();
      await expect(page.getByTestId('agreement-marketing')).toBeVisible();
      await shootBoth(page, 'signup', lang);
      const email = `e2e-${unique()}@example.com`;
      await form.locator('input[name="firstName"]').fill('Ewa');
      await form.locator('input[name="lastName"]').fill('Testowa');
      await form.locator('input[name="emailAddress"]').fill(email);
      await form.locator('input[name="password"]').fill(PASSWORD);
      await page.getByTestId('signup-submit').click();
      await expect(page.getByTestId('signup-agreements').getByText(texts.mustAccept).first()).toBeVisible();
      await expect(page).toHaveURL(`${base}/signup`);
      await shootBoth(page, 'signup-errors', lang);
      await page.getByTestId('agreement-terms').check();
      await page.getByTestId('agreement-privacy').check();
      await page.getByTestId('signup-submit').click();

      // Signed in: the profile, with the notice that the address is still to be confirmed.
      await expect(page).toHaveURL(`${base}/profile`);
      await expect(page.getByTestId('verify-email-notice')).toBeVisible();
      await expect(page.getByTestId('verify-email-notice')).toContainText(email);
      const profile = page.getByTestId('profile-form');
      await expect(profile.locator('input[name="firstName"]')).toHaveValue('Ewa');
      await profile.locator('input[name="phone"]').fill('+48 600 700 800');
      await profile.locator('input[name="birthDate"]').fill('1991-03-14');
      const profileSaved = page.waitForResponse(
        (r) => r.url().endsWith('/profile') && r.request().method() === 'POST',
      );
      await page.getByTestId('profile-save').click();
      expect((await profileSaved).status()).toBe(200);
      await page.reload();
      await expect(page.getByTestId('profile-form').locator('input[name="phone"]')).toHaveValue(
        '+48 600 700 800',
      );
      await shootBoth(page, 'profile', lang);

      // The confirmation link from the mail confirms the address; the notice is gone.
      const mailDir = readEntryDemo().mailDir;
      if (mailDir) {
        await expect
          .poll(() => readMailTo(mailDir, email, '/verify-email?token='), { timeout: 10_000 })
          .not.toBeNull();
        const link = /(http\S+\/verify-email\?token=\S+)/.exec(
          readMailTo(mailDir, email, '/verify-email?token=')!,
        )![1]!;
        await page.goto(new URL(link).pathname + new URL(link).search);
        await expect(page.getByTestId('verify-email-done')).toBeVisible();
        await shootBoth(page, 'verify-email', lang);
        await page.goto(`${base}/profile`);
        await expect(page.getByTestId('profile-form')).toBeVisible();
        await expect(page.getByTestId('verify-email-notice')).toHaveCount(0);
      }

      // Settings: notification preferences are saved.
      await page.getByTestId('account-nav').getByRole('link').nth(5).click();
      await expect(page).toHaveURL(`${base}/settings`);
      await page.getByTestId('settings-sms').check();
      await page.getByTestId('settings-email').uncheck();
      // Saved with the account (PATCH account: channels and the marketing consent in one call).
      const saved = page.waitForResponse(
        (r) => r.url().endsWith('/account') && r.request().method() === 'PATCH',
      );
      await page.getByTestId('settings-save').click();
      expect((await saved).status()).toBe(200);
      await page.reload();
      await expect(page.getByTestId('settings-sms')).toBeChecked();
      await expect(page.getByTestId('settings-email')).not.toBeChecked();
      await shootBoth(page, 'settings', lang);

      // The identity QR code.
      await page.goto(`${base}/identity`);
      await expect(page.getByTestId('identity-qr')).toBeVisible();
      const src = await page.getByTestId('identity-qr').getAttribute('src');
      expect(src).toMatch(/^data:image\/png;base64,/);
      await shootBoth(page, 'identity', lang);

      // Link a child account and open the child's profile.
      const childEmail = `e2e-child-${unique()}@example.com`;
      await signUpChild(demo.baseURL, demo.studioUuid, childEmail);
      await page.goto(`${base}/user-account-link`);
      await expect(page.getByTestId('links-empty')).toBeVisible();
      const connect = page.getByTestId('link-connect-form');
      await connect.locator('input[name="emailAddress"]').fill(childEmail);
      await connect.locator('input[name="password"]').fill('wrong password');
      await page.getByTestId('link-connect-submit').click();
      await expect(connect.locator('input[name="password"]')).toHaveAttribute('data-invalid', 'true');
      await connect.locator('input[name="password"]').fill(PASSWORD);
      await page.getByTestId('link-connect-submit').click();
      const card = page.getByTestId('link-card');
      await expect(card).toContainText('Antoś Dziecko');
      await expect(card.getByTestId('link-relationship')).toHaveValue(texts.child);
      await shootBoth(page, 'links', lang);
      await card.getByTestId('link-profile').click();
      await expect(page.getByTestId('profile-read-only')).toContainText('Antoś Dziecko');
      await expect(page.getByTestId('profile-read-only')).toContainText(childEmail);
      await shootBoth(page, 'child-profile', lang);

      // Phone layout: the account menu scrolls sideways.
      await page.setViewportSize({ width: 390, height: 860 });
      await expect(page.getByTestId('account-nav-phone')).toBeVisible();
      await expect(
        page.getByTestId('account-nav-phone').getByRole('link', { name: texts.profile, exact: true }),
      ).toBeVisible();
      expect(pageErrors).toEqual([]);
    });
  });
}
