import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * Client records in the back office: the demo manager defines an encrypted client field in
 * Settings → Client fields, fills it in on the demo client's Custom fields tab, sees it masked after a
 * reload and reveals it; uploads a PDF on the Documents tab and sees it listed; then deletes the
 * field. The front desk (no settings.edit) sees the definitions without the add button.
 * Screenshots at 1280 and 390 widths, EN and PL. Names carry the run's stamp.
 */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

test('client records: define an encrypted field, fill and reveal it, upload a document', async ({
  browser,
}) => {
  const demo = readDemo();
  const stamp = Date.now().toString(36);
  const fieldName = `Injuries ${stamp}`;
  const page = await backofficePage(browser, demo);

  // ---- Settings → Client fields: add an encrypted text field --------------------------------------
  await page.goto(`/${demo.studioUuid}/backoffice#/settings/client-fields`);
  await page.getByTestId('client-field-add').click();
  const form = page.getByTestId('client-field-form');
  await form.locator('input[name="name"]').fill(fieldName);
  await form.locator('input[name="namePl"]').fill(`Kontuzje ${stamp}`);
  await page.getByTestId('client-field-encrypted').check();
  await shootAll(page, 'client-records-field-dialog', () => expect(form).toBeVisible(), { dialog: true });
  await page.getByTestId('client-field-submit').click();
  await expect(form).toBeHidden();
  const fieldRow = page.locator(`[data-testid="client-field-row"][data-name="${fieldName}"]`);
  await expect(fieldRow).toContainText('Encrypted');
  const fieldId = await fieldRow.getAttribute('data-id');
  expect(fieldId).toBeTruthy();
  await shootAll(page, 'client-records-fields-settings', () =>
    expect(page.getByTestId('client-field-add')).toBeVisible(),
  );

  // ---- The demo client's Custom fields tab ----------------------------------------------------------
  await page.goto(`/${demo.studioUuid}/backoffice#/clients?q=${encodeURIComponent(demo.clientEmail!)}`);
  await expect(page.getByTestId('client-row')).toHaveCount(1);
  await page.getByTestId('client-open').click();
  await page.getByTestId('client-tab-fields').click();
  const input = page.getByTestId(`client-field-${fieldId}`);
  await input.fill('Left knee, 2025');
  await page.getByTestId('client-fields-save').click();
  await expect(page.getByTestId('client-fields')).toContainText('Saved');
  await page.reload();
  await expect(page.getByTestId(`client-field-${fieldId}`)).toHaveValue('••••••••');
  await page.getByTestId(`client-field-reveal-${fieldId}`).click();
  await expect(page.getByTestId(`client-field-${fieldId}`)).toHaveValue('Left knee, 2025');
  await shootAll(page, 'client-records-custom-fields', () =>
    expect(page.getByTestId('client-fields')).toBeVisible(),
  );

  // ---- Documents: upload a PDF -------------------------------------------------------------------------
  await page.getByTestId('client-tab-documents').click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('client-document-upload').click();
  await (await chooser).setFiles({ name: `consent-${stamp}.pdf`, mimeType: 'application/pdf', buffer: PDF });
  const doc = page.getByTestId('client-document').filter({ hasText: `consent-${stamp}.pdf` });
  await expect(doc).toBeVisible();
  await page.reload();
  await expect(doc).toBeVisible();
  await shootAll(page, 'client-records-documents', () => expect(doc).toBeVisible());

  // ---- The front desk may look at the definitions but not change them ----------------------------------
  const desk = await backofficePage(browser, demo, {
    who: { email: 'frontdesk@demo.studio', password: 'demo1234' },
  });
  await desk.goto(`/${demo.studioUuid}/backoffice#/settings/client-fields`);
  await expect(desk.locator(`[data-testid="client-field-row"][data-name="${fieldName}"]`)).toBeVisible();
  await expect(desk.getByTestId('client-field-add')).toHaveCount(0);
  await desk.context().close();

  // ---- Deleting the field removes it (and the client's answer) -----------------------------------------
  await page.goto(`/${demo.studioUuid}/backoffice#/settings/client-fields`);
  await fieldRow.getByTestId('client-field-delete').click();
  await page.getByTestId('client-field-delete-confirm-submit').click();
  await expect(fieldRow).toHaveCount(0);
});
