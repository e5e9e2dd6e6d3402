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
 * waiting for `ready` after each change, then leaves the page in English at the first size.
 */
export async function shootAll(
  page: Page,
  name: string,
  ready: (locale: UiLanguage) => Promise<void>,
  options: ShootAllOptions = {},
): Promise<void> {
  const sizes = options.sizes ?? LAPTOP_AND_PHONE;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const locale of ['EN', 'PL'] as const) {
    await setLanguage(page, locale);
    for (const [size, viewport] of sizes) {
      await page.setViewportSize(viewport);
      await ready(locale);
      if (!options.dialog) await page.evaluate(() => window.scrollTo(0, 0));
      await capture(page, {
        path: path.join(SCREENSHOT_DIR, `${name}-${locale.toLowerCase()}-${size}.png`),
        fullPage: !options.dialog && options.fullPage !== false,
        animations: 'disabled',
      });
    }
  }
  await setLanguage(page, 'EN');
  await page.setViewportSize(sizes[0]![1]);
}
