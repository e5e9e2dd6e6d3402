import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, type PageScreenshotOptions } from '@playwright/test';
import { RESULTS_DIR } from './paths';

/** Our own screenshots: <E2E_RESULTS_DIR or test-results>/screenshots (kept, unlike artifacts/). */
export const SCREENSHOT_DIR = path.join(RESULTS_DIR, 'screenshots');

/**
 * Whether the suite photographs its screens (E2E_SCREENSHOTS=0 turns it off; CI does). Off, every
 * screen is still brought up and checked in each language and at each size, only not captured:
 * nobody looks at CI's PNGs, and on a 2-core machine the captures were a large share of the run
 * (one full-page capture stalled Chromium for 100 s).
 */
export const TAKE_SCREENSHOTS = process.env.E2E_SCREENSHOTS !== '0';

/** `page.screenshot` when the suite photographs its screens. */
export async function capture(page: Page, options: PageScreenshotOptions): Promise<void> {
  if (TAKE_SCREENSHOTS) await page.screenshot(options);
}

/** Saves a full-page PNG as SCREENSHOT_DIR/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^a-z0-9._-]+/gi, '-')}.png`);
  await capture(page, { path: file, fullPage: true, animations: 'disabled' });
  return file;
}

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1280, height: 800 },
  desktop: { width: 1366, height: 768 },
} as const;

export type Viewport = { width: number; height: number };
/** Label (used in the file name) and viewport of each size a screen is photographed at. */
export type ScreenshotSizes = ReadonlyArray<readonly [string, Viewport]>;

/** The default pair: a laptop and a phone. */
export const LAPTOP_AND_PHONE: ScreenshotSizes = [
  ['1280', VIEWPORTS.laptop],
  ['390', VIEWPORTS.phone],
];

export type UiLanguage = 'EN' | 'PL';

/**
 * The (language, size) pairs a screen is brought up in: every pair when the suite photographs its
 * screens; otherwise (CI) each language and each size at least once — English at the first size,
 * then the languages alternating over the other sizes (one size: both languages at it). Bringing
 * up all four pairs of the usual two sizes was a third of a typical back-office test's time on a
 * 2-core machine with nothing captured.
 */
export function screenVariants<S>(sizes: readonly S[]): Array<readonly [UiLanguage, S]> {
  if (TAKE_SCREENSHOTS || sizes.length === 0)
    return (['EN', 'PL'] as const).flatMap((locale) => sizes.map((size) => [locale, size] as const));
  if (sizes.length === 1) return [['EN', sizes[0]!] as const, ['PL', sizes[0]!] as const];
  return sizes.map((size, i) => [i % 2 === 0 ? 'EN' : 'PL', size] as const);
}

/**
 * Switches the interface language with the header's switch. Dispatched rather than clicked: an open
 * dialog's overlay covers the header (and a click on it would close the dialog being photographed).
 */
export async function setLanguage(page: Page, locale: UiLanguage): Promise<void> {
  await page.getByTestId('language-switch').getByText(locale, { exact: true }).dispatchEvent('click');
  await expect(page.locator('html')).toHaveAttribute('lang', locale.toLowerCase());
}

export interface ShootAllOptions {
  sizes?: ScreenshotSizes;
  /** An open dialog: photograph the viewport as it is (no scrolling, not the full page). */
  dialog?: boolean;
  /** Full page (default) or just the viewport. */
  fullPage?: boolean;
}

/**
 * Photographs the screen in English and Polish at each size as SCREENSHOT_DIR/<name>-<en|pl>-<size>.png,
 * waiting for `ready` after each change, then leaves the page in English at the first size. With
 * E2E_SCREENSHOTS=0 it brings the screen up in `screenVariants(sizes)` only.
 */
export async function shootAll(
  page: Page,
  name: string,
  ready: (locale: UiLanguage) => Promise<void>,
  options: ShootAllOptions = {},
): Promise<void> {
  const sizes = options.sizes ?? LAPTOP_AND_PHONE;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  let shown: UiLanguage | null = null;
  for (const [locale, [size, viewport]] of screenVariants(sizes)) {
    if (locale !== shown) await setLanguage(page, locale);
    shown = locale;
    await page.setViewportSize(viewport);
    await ready(locale);
    if (!options.dialog) await page.evaluate(() => window.scrollTo(0, 0));
    await capture(page, {
      path: path.join(SCREENSHOT_DIR, `${name}-${locale.toLowerCase()}-${size}.png`),
      fullPage: !options.dialog && options.fullPage !== false,
      animations: 'disabled',
    });
  }
  await setLanguage(page, 'EN');
  await page.setViewportSize(sizes[0]![1]);
}
