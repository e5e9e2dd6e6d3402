import { expect, test, type Page } from '@playwright/test';
import {
  startFakeDeepl,
  type FakeDeepl,
} from '../../cloud/src/modules/translations/translator/testing/fake-deepl';
import { readDemo, type DemoDetails } from './support/demo';
import { setLanguage, shootAll } from './support/screenshots';
import { clientShopPage } from './support/shop';
import { backofficePage } from './support/sign-in';

/**
 * Issue 25, translations: the manager translates the demo's Polish-only pass into English in
 * Settings → Translations, taking the machine suggestion (DeepL's API, here its loopback fake on
 * E2E_PORT + 8, see playwright.config.ts) and saving it; the client's cart then names the pass in
 * English in English and in Polish in Polish. Screenshots EN/PL at 1280 and 390 px.
 */
const POLISH_NAME = 'Karnet poranny 10 wejść';
const ENGLISH_NAME = 'Morning pass, 10 entries';
const port = Number(process.env.E2E_PORT ?? 3100);

let deepl: FakeDeepl;
test.beforeAll(async () => {
  deepl = await startFakeDeepl(port + 8);
});
test.afterAll(async () => {
  await deepl?.close();
});

async function putPolishPassInCart(page: Page, demo: DemoDetails): Promise<void> {
  const priceList = page.waitForResponse(
    (r) => r.url().includes('/api/v4/') && r.url().endsWith('/pricing/pricing-options'),
  );
  await page.goto(`/${demo.studioUuid}/frontoffice/pricing/pricing-options`);
  type Option = { id: string; name: Record<string, { value: string } | undefined> };
  const list = (await (await priceList).json()) as {
    uncategorized: Option[];
    categories: Array<{ items: Option[] }>;
  };
  const option = [...list.uncategorized, ...list.categories.flatMap((c) => c.items)].find(
    (o) => o.name.pl?.value === POLISH_NAME,
  );
  expect(option).toBeDefined();
  await page.goto(`/${demo.studioUuid}/frontoffice/cart?add=pricingOption:${option!.id}`);
}

test('a pass translated with an accepted machine suggestion reads in English in an English cart', async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const page = await backofficePage(browser, demo, { errors });
  await page.goto(`/${demo.studioUuid}/backoffice#/settings/translations`);
  await page.getByTestId('translations-kind').click();
  await page.getByRole('option', { name: 'Pass', exact: true }).click();
  await page.getByLabel('Only untranslated').check({ force: true });
  const nameRow = page.getByTestId('translation-row').filter({ hasText: POLISH_NAME });
  await expect(nameRow).toHaveCount(1);
  await shootAll(page, 'translations-catalogue', async (locale) => {
    await expect(page.getByTestId('translation-row').first()).toBeVisible();
    await expect(page.getByTestId('translations-progress')).toContainText(
      locale === 'EN' ? 'translated' : 'Przetłumaczono',
    );
  });

  await nameRow.getByTestId('translation-suggest').click();
  const input = nameRow.getByTestId('translation-input');
  await expect(input).toHaveValue(ENGLISH_NAME);
  // The suggestion is only in the field: nothing saved yet.
  await expect(nameRow).toContainText('Nothing is saved until you do');
  expect(deepl.requests.at(-1)?.body).toMatchObject({
    text: [POLISH_NAME],
    source_lang: 'PL',
    target_lang: 'EN-GB',
  });
  await shootAll(
    page,
    'translations-suggestion',
    async () => {
      await expect(input).toHaveValue(ENGLISH_NAME);
    },
    { sizes: [['1280', { width: 1280, height: 800 }]] },
  );
  await nameRow.getByTestId('translation-save').click();
  // Saved: the pass's name is translated, so it leaves the "only untranslated" list.
  await expect(nameRow).toHaveCount(0);

  // The studio's own wording of a front-office text (English): "Timetable" becomes "Class schedule".
  await page.getByRole('tab', { name: 'Interface texts' }).click();
  await page.getByTestId('interface-search').fill('timetable');
  const timetable = page.getByTestId('interface-row').filter({ hasText: 'frontoffice:nav.timetable' });
  await timetable.getByRole('textbox').fill('Class schedule');
  await timetable.getByRole('button').click();
  await expect(timetable.getByRole('button')).toBeDisabled();
  await shootAll(page, 'translations-interface', async () => {
    await expect(timetable.getByRole('textbox')).toHaveValue('Class schedule');
  });

  // The client's cart, in English then in Polish.
  const shop = await clientShopPage(browser, demo, errors);
  await putPolishPassInCart(shop, demo);
  const item = shop.getByTestId('cart-item');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(ENGLISH_NAME);
  await shootAll(shop, 'translations-cart', async (locale) => {
    await expect(shop.getByTestId('cart-item')).toContainText(locale === 'EN' ? ENGLISH_NAME : POLISH_NAME);
  });
  // The studio's wording in English only; ours in Polish.
  await expect(shop.getByTestId('frontoffice-menu-timetable')).toContainText('Class schedule');
  await setLanguage(shop, 'PL');
  await expect(shop.getByTestId('cart-item')).toContainText(POLISH_NAME);
  await expect(shop.getByTestId('cart-item')).not.toContainText(ENGLISH_NAME);
  await expect(shop.getByTestId('frontoffice-menu-timetable')).toContainText('Grafik zajęć');

  // Ours again for the specs after this one.
  await timetable.getByRole('textbox').fill('');
  await timetable.getByRole('button').click();
  await expect(timetable.getByRole('textbox')).toHaveAttribute('placeholder', 'Our wording');
  await expect(timetable.getByRole('button')).toBeDisabled();
  expect(errors).toEqual([]);
});
