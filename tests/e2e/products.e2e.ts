import { expect, test } from '@playwright/test';
import { gs1CheckDigit } from '../../shared/domain/products/barcode';
import { readDemo } from './support/demo';
import { shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * Products and vouchers in the back office: the demo manager sees the desk products by category
 * with stock and barcodes, is told a mistyped barcode's check digit is wrong, adds a product with
 * stock, then adds a voucher. Screenshots of each screen in English and Polish at 390 and 1280 px.
 */

test('products: the manager adds a product with stock and a voucher', async ({ browser }) => {
  const demo = readDemo();
  const pageErrors: string[] = [];
  const page = await backofficePage(browser, demo, { errors: pageErrors });

  await page.getByTestId('nav-products').click();
  await expect(page).toHaveURL(/#\/products$/);
  const row = (name: string) => page.locator(`[data-testid="product-row"][data-name="${name}"]`);
  await expect(row('Mata do jogi')).toBeVisible();
  await expect(row('Mata do jogi')).toContainText('149');
  await expect(page.getByTestId('products-group').first()).toContainText('Napoje');
  await shootAll(page, 'products-list', async () => {
    await expect(row('Mata do jogi')).toBeVisible();
  });

  // Search by barcode finds the one product.
  const barcodeOfMat = await row('Mata do jogi').locator('td').nth(4).innerText();
  await page.getByTestId('products-search').fill(barcodeOfMat);
  await expect(page.getByTestId('product-row')).toHaveCount(1);
  await page.getByTestId('products-search').fill('');
  await expect(row('Ręcznik duży')).toBeVisible();

  // A new product: first a mistyped barcode, then the right one.
  const suffix = Date.now().toString().slice(-6);
  const name = `Bidon ${suffix}`;
  const body = `590700${suffix}`;
  const barcode = body + gs1CheckDigit(body);
  const wrong = body + ((gs1CheckDigit(body) + 1) % 10);
  // A category of its own, from the categories dialog.
  const categoryName = `Akcesoria ${suffix}`;
  await page.getByTestId('products-categories').click();
  const categoryForm = page.getByTestId('category-form');
  await categoryForm.locator('input[name="name"]').fill(categoryName);
  await page.getByTestId('category-submit').click();
  await expect(page.getByTestId('categories-list')).toContainText(categoryName);
  await shootAll(
    page,
    'products-categories',
    async () => {
      await expect(page.getByTestId('categories-list')).toContainText(categoryName);
    },
    { dialog: true },
  );
  await page.keyboard.press('Escape');
  await expect(categoryForm).toBeHidden();

  await page.getByTestId('products-add').click();
  const form = page.getByTestId('product-form');
  await expect(form).toBeVisible();
  await form.locator('input[name="name"]').fill(name);
  await form.locator('input[name="price"]').fill('39.90');
  await page.getByTestId('product-category').click();
  await page.getByRole('option', { name: categoryName }).click();
  await form.locator('input[name="barcode"]').fill(wrong);
  await page.getByTestId('product-track-stock').click({ force: true });
  await form.locator('input[name="initialStock"]').fill('12');
  await page.getByTestId('product-submit').click();
  await expect(form).toContainText('The check digit is wrong');
  // Submitted again in each language, so the message is shown in the language of the screenshot.
  const checkDigitMessage = { en: 'The check digit is wrong', pl: 'Błędna cyfra kontrolna' };
  await shootAll(
    page,
    'products-product-form',
    async () => {
      await page.getByTestId('product-submit').click();
      const lang = (await page.locator('html').getAttribute('lang')) === 'pl' ? 'pl' : 'en';
      await expect(form).toContainText(checkDigitMessage[lang]);
    },
    { dialog: true },
  );
  await form.locator('input[name="barcode"]').fill(barcode);
  await page.getByTestId('product-submit').click();
  await expect(form).toBeHidden();
  await expect(row(name)).toBeVisible();
  await expect(row(name)).toContainText(barcode);
  await expect(row(name).getByTestId('product-stock')).toHaveText('12');
  await expect(row(name)).toContainText('39.90');
  await expect(page.getByTestId('products-group').filter({ hasText: categoryName })).toContainText(name);

  // Stock: a loss of two, then more than is left (refused, nothing changes).
  await row(name).click();
  const stockForm = page.getByTestId('product-stock-form');
  await expect(page.getByTestId('product-stock-now')).toHaveText('12');
  await page.getByTestId('product-stock-reason').click();
  await page.getByRole('option', { name: 'Loss' }).click();
  await stockForm.locator('input[name="quantity"]').fill('2');
  await page.getByTestId('product-stock-submit').click();
  await expect(page.getByTestId('product-stock-now')).toHaveText('10');
  // The button shows its success state for 2.5 s (spec §4) before it takes another press.
  await expect(page.getByTestId('product-stock-submit')).toHaveText('Record', { timeout: 5000 });
  await stockForm.locator('input[name="quantity"]').fill('50');
  await page.getByTestId('product-stock-submit').click();
  await expect(stockForm).toContainText('Not enough in stock');
  await expect(page.getByTestId('product-stock-now')).toHaveText('10');
  await shootAll(
    page,
    'products-product-edit',
    async () => {
      await page.getByTestId('product-stock-submit').click();
      const lang = (await page.locator('html').getAttribute('lang')) === 'pl' ? 'pl' : 'en';
      await expect(stockForm).toContainText(lang === 'pl' ? 'Za mało na stanie' : 'Not enough in stock');
    },
    { dialog: true },
  );
  await page.keyboard.press('Escape');
  await expect(row(name).getByTestId('product-stock')).toHaveText('10');

  // Vouchers.
  await page.getByTestId('products-tab-vouchers').click();
  await expect(page).toHaveURL(/#\/products\/vouchers$/);
  await expect(page.locator('[data-testid="voucher-row"][data-code="WITAJ-10"]')).toBeVisible();
  const code = `LATO-${suffix}`;
  await page.getByTestId('vouchers-add').click();
  const voucherForm = page.getByTestId('voucher-form');
  await expect(voucherForm).toBeVisible();
  await voucherForm.locator('input[name="code"]').fill(code.toLowerCase());
  await voucherForm.locator('input[name="description"]').fill('Summer');
  await page.getByTestId('voucher-discountType').click();
  await page.getByRole('option', { name: 'Percentage' }).click();
  await voucherForm.locator('input[name="value"]').fill('15');
  await voucherForm.locator('input[name="validTo"]').fill('2030-08-31');
  await shootAll(
    page,
    'products-voucher-form',
    async () => {
      await expect(voucherForm).toBeVisible();
    },
    { dialog: true },
  );
  await page.getByTestId('voucher-submit').click();
  await expect(voucherForm).toBeHidden();
  const voucherRow = page.locator(`[data-testid="voucher-row"][data-code="${code}"]`);
  await expect(voucherRow).toBeVisible();
  await expect(voucherRow).toContainText('15%');
  await expect(voucherRow).toContainText('2030-08-31');
  await shootAll(page, 'products-vouchers', async () => {
    await expect(voucherRow).toBeVisible();
  });

  expect(pageErrors).toEqual([]);
  await page.context().close();
});
