import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { shootAll, VIEWPORTS } from './support/screenshots';
import { backofficePage, frontofficePage } from './support/sign-in';

/**
 * Issue 25, the client's side and the server's utility pages: My account's settings answer the
 * marketing consent (PATCH account); a client's feedback reaches the back office's inbox (the page
 * /{uuid}/backoffice/inbox of spec §2); a course page by an unknown slug says so; /app/* pages.
 */
test('settings with marketing consent; feedback reaches the back-office inbox', async ({ browser }) => {
  const demo = readDemo();
  const errors: string[] = [];
  const client = await frontofficePage(browser, demo, 'settings', { errors, englishCookie: true });
  const gate = client.getByTestId('agreements-continue');
  if (await gate.isVisible().catch(() => false)) await gate.click();

  const consent = client.getByTestId('settings-marketing-consent');
  await expect(consent).toBeVisible();
  const wasOn = await consent.isChecked();
  await consent.click();
  await client.getByTestId('settings-save').click();
  await expect(client.getByTestId('settings-marketing-decided')).toContainText(
    wasOn ? 'Your answer of' : 'You agreed on',
  );
  await client.reload();
  await expect(client.getByTestId('settings-marketing-consent')).toBeChecked({ checked: !wasOn });
  await shootAll(client, 'studio-admin-front-settings', () =>
    expect(client.getByTestId('settings-marketing')).toBeVisible(),
  );

  await client.getByTestId('account-nav').getByText('Feedback').click();
  const text = `The new mats are great ${Date.now()}`;
  await client.getByTestId('feedback-rating').locator('label').nth(4).click();
  await client.getByTestId('feedback-message').fill(text);
  await client.getByTestId('feedback-send').click();
  await expect(client.getByTestId('feedback-sent')).toBeVisible();
  await expect(client.getByTestId('feedback-message')).toHaveValue('');
  await shootAll(client, 'studio-admin-front-feedback', () =>
    expect(client.getByTestId('feedback-form')).toBeVisible(),
  );

  // A course's page by a slug that names no course.
  await client.goto(`/${demo.studioUuid}/frontoffice/course/no-such-course-0000`);
  await expect(client.getByTestId('course-not-found')).toBeVisible();
  await client.context().close();

  const staff = await backofficePage(browser, demo, { errors });
  await staff.goto(`/${demo.studioUuid}/backoffice/inbox`);
  await expect(staff).toHaveURL(/#\/inbox$/);
  const item = staff.getByTestId('inbox-item').filter({ hasText: text });
  await expect(item).toBeVisible();
  await expect(item.getByTestId('inbox-rating')).toBeVisible();
  await shootAll(staff, 'studio-admin-inbox', () => expect(item).toBeVisible());
  expect(errors).toEqual([]);
  await staff.context().close();
});

test('the /app/* pages: Facebook callback, file, switch account, diagnostics', async ({ browser }) => {
  const demo = readDemo();
  const page = await browser.newPage({ viewport: VIEWPORTS.phone, locale: 'en-US' });
  await page.goto('/app/auth/facebook/callback?code=abc');
  await expect(page.getByTestId('facebook-callback')).toContainText(
    'Signing in with Facebook is not available',
  );
  await shootAll(page, 'studio-admin-app-facebook', () =>
    expect(page.getByTestId('facebook-callback')).toBeVisible(),
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

  // Signed out, switching accounts is signing in.
  await page.goto('/app/switch-account');
  await expect(page).toHaveURL(/\/login$/);

  await page.goto('/app/devtools');
  await expect(page.getByTestId('devtools-table')).toContainText('Version');

  const staff = await backofficePage(browser, demo);
  await staff.goto('/app/switch-account');
  const choices = staff.getByTestId('switch-account-choice');
  await expect(choices.first()).toContainText(demo.studioName);
  await shootAll(staff, 'studio-admin-app-switch', () => expect(choices.first()).toBeVisible());
  await choices.filter({ hasText: 'Back office' }).first().click();
  await expect(staff.getByTestId('welcome-card')).toBeVisible();
  await staff.context().close();
});
