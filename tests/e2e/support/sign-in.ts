import { expect, type Browser, type Page } from '@playwright/test';
import type { DemoDetails } from './demo';
import { VIEWPORTS } from './screenshots';

/** Someone who signs in to the back office (the demo manager unless told). */
export interface StaffLogin {
  email: string;
  password: string;
}

export const demoManager = (demo: DemoDetails): StaffLogin => ({
  email: demo.managerEmail,
  password: demo.managerPassword,
});

/** Opens the studio's back office on `page` and signs in through its form; waits for the welcome card. */
export async function signInBackoffice(page: Page, studioUuid: string, who: StaffLogin): Promise<void> {
  await page.goto(`/${studioUuid}/backoffice`);
  const form = page.getByTestId('sign-in-form');
  await form.locator('input[name="emailAddress"]').fill(who.email);
  await form.locator('input[name="password"]').fill(who.password);
  await page.getByTestId('sign-in-submit').click();
  // The first screen after signing in (the dashboard) is the suite's heaviest read: on a slow 2-core
  // machine running both Playwright runs it took over the default 10 s once (products.e2e, CI).
  await expect(page.getByTestId('welcome-card')).toBeVisible({ timeout: 30_000 });
}

export interface BackofficePageOptions {
  /** Defaults to the demo manager. */
  who?: StaffLogin;
  /** Defaults to VIEWPORTS.laptop. */
  viewport?: { width: number; height: number };
  acceptDownloads?: boolean;
  /** Uncaught page errors are pushed here (with `label: ` in front when given). */
  errors?: string[];
  label?: string;
}

/** A new browser context (English, laptop-sized unless told) signed in to the back office. */
export async function backofficePage(
  browser: Browser,
  demo: DemoDetails,
  options: BackofficePageOptions = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: options.viewport ?? VIEWPORTS.laptop,
    locale: 'en-US',
    acceptDownloads: options.acceptDownloads,
  });
  const page = await context.newPage();
  const { errors, label } = options;
  if (errors) page.on('pageerror', (e) => errors.push(label ? `${label}: ${e.message}` : e.message));
  await signInBackoffice(page, demo.studioUuid, options.who ?? demoManager(demo));
  return page;
}

/** The demo client (its e-mail and password are in demo.json). */
export const demoClient = (demo: DemoDetails): StaffLogin => ({
  email: demo.clientEmail!,
  password: demo.clientPassword!,
});

/**
 * Signs a client in to the front office through its login page (e-mail given in the link, as the
 * studio's own "sign in" links do) and waits for the page it sends them to (`redirectAfterLogin`,
 * e.g. `timetable`, `pricing/contracts`).
 */
export async function signInFrontoffice(
  page: Page,
  studioUuid: string,
  who: StaffLogin,
  redirectAfterLogin: string,
): Promise<void> {
  const query = new URLSearchParams({ username: who.email, showLoginForm: '1', redirectAfterLogin });
  await page.goto(`/${studioUuid}/frontoffice/login?${query}`);
  await page.getByTestId('sign-in-form').locator('input[name="password"]').fill(who.password);
  await page.getByTestId('sign-in-submit').click();
  await expect(page).toHaveURL(new RegExp(`/frontoffice/${redirectAfterLogin.replace(/[/]/g, '\\/')}`));
}

export interface FrontofficePageOptions {
  /** Defaults to the demo client. */
  who?: StaffLogin;
  /** Uncaught page errors are pushed here (with `label: ` in front when given). */
  errors?: string[];
  label?: string;
  /** Sets the `locale` cookie to English before the first page (the client's saved language may be Polish). */
  englishCookie?: boolean;
}

/**
 * A new browser context (English, laptop-sized) with a client signed in to the front office through
 * its login page, on the page it sends them to (`redirectAfterLogin`).
 */
export async function frontofficePage(
  browser: Browser,
  demo: DemoDetails,
  redirectAfterLogin: string,
  options: FrontofficePageOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  if (options.englishCookie) await context.addCookies([{ name: 'locale', value: 'en', url: demo.baseURL }]);
  const page = await context.newPage();
  const { errors, label } = options;
  if (errors) page.on('pageerror', (e) => errors.push(label ? `${label}: ${e.message}` : e.message));
  await signInFrontoffice(page, demo.studioUuid, options.who ?? demoClient(demo), redirectAfterLogin);
  return page;
}
