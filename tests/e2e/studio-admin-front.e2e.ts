import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { readDemo } from './support/demo';
import { shootAll, VIEWPORTS } from './support/screenshots';
import { demoClient, demoManager, signInBackoffice, signInFrontoffice } from './support/sign-in';

/**
 * Issue 25 in one browser context (one sign-in each, kept short): signed out, the /app/* pages; a
 * client answers the marketing consent in My account's settings (PATCH account) and writes feedback,
 * which the back office's inbox (/{uuid}/backoffice/inbox of spec §2) shows; a course page by an
 * unknown slug says so. Then staff: /app/switch-account leads to the back office; Settings → Premium
 * apps sends and withdraws the bundle request (POST bundle/request); the staff list shows its
 * counts and filters (member-list/init); the card reader (identity-reader) finds the demo client by
 * her card; a location gets a picture. Screenshots of the new screens only (the others were looked
 * at when they were made).
 */
test('issue 25: client account, inbox, /app pages, premium apps, staff list, card reader, location picture', async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const context = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  const english = () => context.addCookies([{ name: 'locale', value: 'en', url: demo.baseURL }]);
  await english();
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));

  // ------------------------------------------------------------------ signed out: /app/* pages
  await page.goto('/app/auth/facebook/callback?code=abc');
  await expect(page.getByTestId('facebook-callback')).toContainText(
    'Signing in with Facebook is not available',
  );
  await page.goto('/app/file?url=https://evil.example/x');
  await expect(page.getByTestId('app-file-missing')).toBeVisible();
  await page.goto(
    `/app/file?url=${encodeURIComponent(`/api/v4/${demo.studioUuid}/studio-appearance`)}&name=look.json`,
  );
  await expect(page.getByTestId('app-file-name')).toHaveText('look.json');
  await expect(page.getByTestId('app-file-download')).toHaveAttribute(
    'href',
    `/api/v4/${demo.studioUuid}/studio-appearance`,
  );
  await page.goto('/app/switch-account');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/app/devtools');
  await expect(page.getByTestId('devtools-table')).toContainText('Version');

  // ------------------------------------------------------------------ the client
  // The demo client's saved language (Polish) applies again when her settings are saved: the texts
  // are matched in both languages.
  await signInFrontoffice(page, demo.studioUuid, demoClient(demo), 'settings');
  const gate = page.getByTestId('agreements-continue');
  if (await gate.isVisible().catch(() => false)) await gate.click();
  const consent = page.getByTestId('settings-marketing-consent');
  await expect(consent).toBeVisible();
  const wasOn = await consent.isChecked();
  await consent.click();
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-marketing-decided')).toContainText(
    wasOn ? /Your answer of|Twoja odpowiedź z/ : /You agreed on|Zgoda udzielona/,
  );
  await page.reload();
  await expect(page.getByTestId('settings-marketing-consent')).toBeChecked({ checked: !wasOn });

  await page.goto(`/${demo.studioUuid}/frontoffice/feedback`);
  const text = `The new mats are great ${Date.now()}`;
  await page.getByTestId('feedback-rating').locator('label').nth(4).click();
  await page.getByTestId('feedback-message').fill(text);
  await page.getByTestId('feedback-send').click();
  await expect(page.getByTestId('feedback-sent')).toBeVisible();
  await expect(page.getByTestId('feedback-message')).toHaveValue('');

  await page.goto(`/${demo.studioUuid}/frontoffice/course/no-such-course-0000`);
  await expect(page.getByTestId('course-not-found')).toBeVisible();

  // ------------------------------------------------------------------ staff
  await context.clearCookies();
  await english();
  await signInBackoffice(page, demo.studioUuid, demoManager(demo));
  await page.goto('/app/switch-account');
  const choices = page.getByTestId('switch-account-choice');
  await expect(choices.first()).toContainText(demo.studioName);
  await choices.filter({ hasText: 'Back office' }).first().click();
  await expect(page.getByTestId('welcome-card')).toBeVisible();

  await page.goto(`/${demo.studioUuid}/backoffice/inbox`);
  await expect(page).toHaveURL(/#\/inbox$/);
  const item = page.getByTestId('inbox-item').filter({ hasText: text });
  await expect(item.getByTestId('inbox-rating')).toBeVisible();

  // Settings → Premium apps: ask, see the request, withdraw it.
  await page.goto(`/${demo.studioUuid}/backoffice#/settings/premium-apps`);
  const withdrawLeft = page.getByTestId('bundle-withdraw');
  const form = page.getByTestId('bundle-form');
  await expect(form.or(withdrawLeft)).toBeVisible();
  if (await withdrawLeft.isVisible()) await withdrawLeft.click(); // a retried run
  await expect(form.locator('input[name="contactEmail"]')).toHaveValue(demo.managerEmail);
  await form.locator('input[name="contactPhone"]').fill('12');
  await page.getByTestId('bundle-send').click();
  await expect(form.getByText('Enter a phone number of 6 to 15 digits')).toBeVisible();
  await form.locator('input[name="contactPhone"]').fill('+48 600 100 200');
  await page.getByTestId('bundle-message-input').fill('We would like our own app before the spring.');
  await page.getByTestId('bundle-send').click();
  await expect(page.getByTestId('bundle-status')).toHaveText('Sent');
  await shootAll(page, 'studio-admin-premium-apps-sent', () =>
    expect(page.getByTestId('bundle-request')).toBeVisible(),
  );
  await page.getByTestId('bundle-withdraw').click();
  await expect(page.getByTestId('bundle-withdrawn')).toBeVisible();
  await expect(form).toBeVisible();

  // The staff list: its total and the role filter with counts (member-list/init).
  await page.goto(`/${demo.studioUuid}/backoffice#/staff`);
  await expect(page.getByTestId('staff-total')).toContainText('members of staff');
  await page.getByTestId('staff-role-filter').click();
  await expect(page.getByRole('option', { name: /^Owner \(\d+\)$/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await shootAll(
    page,
    'studio-admin-staff-list',
    () => expect(page.getByTestId('staff-total')).toBeVisible(),
    {
      fullPage: false,
    },
  );

  // The card reader: an unknown card is said; the demo client's card opens her profile.
  await page.goto(`/${demo.studioUuid}/backoffice#/clients`);
  await page.getByTestId('clients-read-card').click();
  const code = page.getByTestId('identity-reader-code');
  await expect(code).toBeFocused();
  await code.fill('NOPE-0000');
  await code.press('Enter');
  await expect(page.getByTestId('identity-reader-unknown')).toContainText('NOPE-0000');
  await expect(code).toHaveValue('');
  await shootAll(
    page,
    'studio-admin-card-reader',
    () => expect(page.getByTestId('identity-reader')).toBeVisible(),
    {
      dialog: true,
    },
  );
  await code.fill('harm 0001');
  await code.press('Enter');
  await expect(page).toHaveURL(/#\/clients\/[0-9a-f-]{36}/);
  await expect(page.getByTestId('client-name')).toContainText('Julia Nowak');

  // A location's picture, uploaded from a file.
  await page.goto(`/${demo.studioUuid}/backoffice#/places/locations`);
  const card = page.getByTestId('location-card').first();
  const png = await sharp({ create: { width: 800, height: 480, channels: 3, background: '#2b8a3e' } })
    .png()
    .toBuffer();
  const chooser = page.waitForEvent('filechooser');
  await card.getByTestId('location-picture-upload').click();
  await (await chooser).setFiles({ name: 'hall.png', mimeType: 'image/png', buffer: png });
  await expect(card.getByTestId('location-picture-image')).toHaveAttribute(
    'src',
    new RegExp(`/api/v4/${demo.studioUuid}/picture/`),
  );
  await expect(card.getByTestId('location-picture-upload')).toHaveText('Change picture');
  await shootAll(page, 'studio-admin-location-picture', () =>
    expect(card.getByTestId('location-picture-image')).toBeVisible(),
  );

  expect(errors).toEqual([]);
  await context.close();
});
