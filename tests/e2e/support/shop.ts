import { expect, type Browser, type Page } from '@playwright/test';
import type { DemoDetails } from './demo';
import { setLanguage } from './screenshots';
import { frontofficePage } from './sign-in';

/**
 * A new browser context (laptop-sized, the locale cookie set to English: the demo client's saved
 * language may be Polish) with the demo client signed in to the front office's cart, in English.
 * Uncaught page errors go to `errors`.
 */
export async function clientShopPage(browser: Browser, demo: DemoDetails, errors: string[]): Promise<Page> {
  const page = await frontofficePage(browser, demo, 'cart', { errors, englishCookie: true });
  await setLanguage(page, 'EN');
  return page;
}

/**
 * Finds the pricing option named `name` (English) on the front office's price list and puts it in the
 * cart through the cart's `?add=` link; the option.
 */
export async function addToCartFromPriceList(
  page: Page,
  demo: DemoDetails,
  name: string,
): Promise<{ id: string }> {
  const priceList = page.waitForResponse(
    (r) => r.url().includes('/api/v4/') && r.url().endsWith('/pricing/pricing-options'),
  );
  await page.goto(`/${demo.studioUuid}/frontoffice/pricing/pricing-options`);
  const list = (await (await priceList).json()) as {
    uncategorized: Array<{ id: string; name: { en: { value: string } } }>;
    categories: Array<{ items: Array<{ id: string; name: { en: { value: string } } }> }>;
  };
  const option = [...list.uncategorized, ...list.categories.flatMap((c) => c.items)].find(
    (o) => o.name.en.value === name,
  )!;
  expect(option).toBeDefined();
  await page.goto(`/${demo.studioUuid}/frontoffice/cart?add=pricingOption:${option.id}`);
  return option;
}
