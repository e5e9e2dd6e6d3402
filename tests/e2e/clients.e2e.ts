import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { readDemo } from './support/demo';
import { shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * The back office's clients: the demo owner searches the demo studio's clients, filters by a seeded
 * tag, opens a profile, edits a phone, adds a note, creates a client (meeting the duplicate warning
 * for an email already in the studio first), tags the new client on the profile, bulk-tags two
 * more, exports the tagged clients as CSV (with `;`) and checks the file, archives and restores.
 * The front desk (role front_desk: no clients.delete nor clients.export) sees no archive or export.
 * Screenshots of the list, the profile and the add dialog at 390 and 1280 widths, EN and PL.
 * Names and emails carry the run's stamp, so the test can run again on the same server.
 */
const FRONT_DESK = { email: 'frontdesk@demo.studio', password: 'demo1234' };

async function openClients(page: Page): Promise<void> {
  const burger = page.getByTestId('nav-burger');
  if (await burger.isVisible()) await burger.click();
  await page.getByTestId('nav-clients').click();
  await expect(page).toHaveURL(/#\/clients$/);
  await expect(page.getByTestId('client-row').first()).toBeVisible();
}

const row = (page: Page, email: string) => page.locator(`[data-testid="client-row"][data-email="${email}"]`);

async function pickOption(page: Page, testId: string, label: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

test('clients: search, filter, profile, notes, add with duplicate warning, bulk tag, CSV export', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const demo = readDemo();
  const stamp = Date.now().toString(36).slice(-6);
  const tagName = `E2E ${stamp}`;
  const newEmail = `ewa.${stamp}@example.com`;
  const pageErrors: string[] = [];

  const owner = await backofficePage(browser, demo, { acceptDownloads: true });
  owner.on('pageerror', (error) => pageErrors.push(error.message));
  await openClients(owner);
  await shootAll(owner, 'clients-list', async () => {
    await expect(owner.getByTestId('client-row').first()).toBeVisible();
  });

  // ---- Search (debounced) -----------------------------------------------------------------------
  await owner.getByTestId('clients-search').fill('Nowak');
  await expect(owner).toHaveURL(/q=Nowak/);
  await expect(row(owner, demo.clientEmail!)).toBeVisible();
  for (const text of await owner.getByTestId('client-row').allInnerTexts()) expect(text).toMatch(/Nowak/);
  await owner.getByTestId('clients-search').fill('');
  await expect(owner).not.toHaveURL(/q=/);

  // ---- Filter by the seeded tag "VIP" -----------------------------------------------------------
  await owner.getByTestId('clients-filters-toggle').click();
  await owner.getByTestId('clients-filter-tags').click();
  await owner.getByRole('option', { name: 'VIP', exact: true }).click();
  await owner.keyboard.press('Escape');
  await expect(owner).toHaveURL(/tagIds=/);
  await expect(row(owner, demo.clientEmail!)).toBeVisible();
  const vipRows = owner.getByTestId('client-row');
  await expect(vipRows).toHaveCount(25);
  for (const text of await vipRows.allInnerTexts()) expect(text).toContain('VIP');
  // Keyset pages: the seed tags every seventh of 200 clients (29), so a second page follows.
  await owner.getByTestId('clients-load-more').click();
  await expect(vipRows).toHaveCount(29);
  await expect(owner.getByTestId('clients-load-more')).toBeHidden();
  await shootAll(owner, 'clients-filtered', async () => {
    await expect(owner.getByTestId('clients-filters')).toBeVisible();
  });
  await owner.getByTestId('clients-filters-clear').click();
  await expect(owner).not.toHaveURL(/tagIds=/);

  // ---- The profile: edit the phone, add a note ------------------------------------------------
  await owner.getByTestId('clients-search').fill(demo.clientEmail!);
  // The list follows the box once typing pauses; open the client from the searched list.
  await expect(owner).toHaveURL(/q=client/);
  await expect(owner.getByTestId('client-row')).toHaveCount(1);
  await row(owner, demo.clientEmail!).getByTestId('client-open').click();
  await expect(owner.getByTestId('client-name')).toHaveText('Julia Nowak');
  await shootAll(owner, 'clients-profile', async () => {
    await expect(owner.getByTestId('client-details')).toBeVisible();
  });
  const newPhone = `+48 601 ${stamp.replace(/\D/g, '').padEnd(3, '7').slice(0, 3)} 000`;
  await owner.getByTestId('client-edit').click();
  await owner.getByTestId('client-edit-form').locator('input[name="phone"]').fill('12');
  await owner.getByTestId('client-edit-submit').click();
  await expect(owner.getByTestId('client-edit-form')).toContainText(
    'Enter a phone number of 6 to 15 digits.',
  );
  await owner.getByTestId('client-edit-form').locator('input[name="phone"]').fill(newPhone);
  await owner.getByTestId('client-edit-submit').click();
  await expect(owner.getByTestId('client-phone')).toHaveText(newPhone);

  await owner.getByTestId('client-tab-notes').click();
  await expect(owner).toHaveURL(/\/notes$/);
  const noteText = `Prefers the morning class (${stamp})`;
  await owner.getByTestId('client-note-add-content').fill(noteText);
  await owner.getByTestId('client-note-add-submit').click();
  await expect(owner.getByTestId('client-note').first()).toContainText(noteText);
  await expect(owner.getByTestId('client-note-add-content')).toHaveValue('');
  await shootAll(owner, 'clients-notes', async () => {
    await expect(owner.getByTestId('client-note').first()).toBeVisible();
  });
  // A reload keeps the note (it was saved, not only shown).
  await owner.reload();
  await expect(owner.getByTestId('client-note').filter({ hasText: noteText })).toHaveCount(1);

  // ---- Add a client: the existing email is flagged, with a link to that client -----------------
  await owner.getByTestId('client-back').click();
  await owner.getByTestId('clients-add').click();
  const addForm = owner.getByTestId('client-add-form');
  await addForm.locator('input[name="firstName"]').fill('Ewa');
  await addForm.locator('input[name="lastName"]').fill(`Testowa ${stamp}`);
  await addForm.locator('input[name="emailAddress"]').fill(demo.clientEmail!);
  const warning = owner.getByTestId('client-add-duplicates');
  await expect(warning).toContainText('Julia Nowak');
  await expect(warning).toContainText('same email');
  await expect(warning.getByRole('link', { name: 'Julia Nowak' })).toBeVisible();
  await shootAll(
    owner,
    'clients-add',
    async () => {
      await expect(owner.getByTestId('client-add-duplicates')).toBeVisible();
    },
    { dialog: true },
  );
  // Submitting anyway is refused under the email field.
  await owner.getByTestId('client-add-submit').click();
  await expect(addForm).toContainText('A client with this email address already exists.');
  await addForm.locator('input[name="emailAddress"]').fill(newEmail);
  await expect(warning).toBeHidden();
  await owner.getByTestId('client-add-submit').click();
  await expect(owner.getByTestId('client-name')).toHaveText(`Ewa Testowa ${stamp}`);
  await expect(owner.getByTestId('client-email')).toHaveText(newEmail);

  // A new tag, typed on the profile.
  const tagsInput = owner.getByTestId('client-tags-input');
  await tagsInput.fill(tagName);
  await tagsInput.press('Enter');
  await tagsInput.press('Escape');
  await owner.getByTestId('client-tags-save').click();
  await expect(owner.getByTestId('client-tags-save')).toBeDisabled();

  // Archive and restore.
  await owner.getByTestId('client-archive').click();
  await owner.getByTestId('client-archive-confirm-submit').click();
  await expect(owner.getByTestId('client-archived-badge')).toBeVisible();
  await owner.getByTestId('client-restore').click();
  await expect(owner.getByTestId('client-archived-badge')).toBeHidden();

  // ---- Bulk: tag two more clients (the newest but one and two) --------------------------------
  // Back to the list as it was left (searched for the demo client), then every client again.
  await owner.getByTestId('client-back').click();
  await expect(owner).toHaveURL(/q=client/);
  await owner.getByTestId('clients-search').fill('');
  await expect(owner).not.toHaveURL(/q=/);
  await pickOption(owner, 'clients-sort', 'Newest clients first');
  await expect(owner).toHaveURL(/sort=-created/);
  await expect(owner.getByTestId('client-row').first()).toHaveAttribute('data-email', newEmail);
  const second = owner.getByTestId('client-row').nth(1);
  const third = owner.getByTestId('client-row').nth(2);
  const taggedEmails = [
    newEmail,
    await second.getAttribute('data-email'),
    await third.getAttribute('data-email'),
  ];
  await second.getByTestId('client-select').check();
  await third.getByTestId('client-select').check();
  await expect(owner.getByTestId('clients-bulk-count')).toHaveText('2 clients selected');
  await shootAll(
    owner,
    'clients-bulk',
    async () => {
      await expect(owner.getByTestId('clients-bulk-bar')).toBeVisible();
    },
    { dialog: true },
  );
  await owner.getByTestId('clients-bulk-tag').click();
  await owner.getByTestId('clients-bulk-tags').click();
  await owner.getByRole('option', { name: tagName, exact: true }).click();
  // Closes the picker's list (Escape would close the dialog too).
  await owner.getByRole('dialog').getByRole('heading').click();
  await owner.getByTestId('clients-bulk-tag-submit').click();
  await expect(owner.getByTestId('clients-bulk-bar')).toBeHidden();
  await expect(second).toContainText(tagName);
  await expect(third).toContainText(tagName);

  // ---- Filter by the new tag and export it as CSV with ';' --------------------------------------
  await owner.getByTestId('clients-filters-toggle').click();
  await owner.getByTestId('clients-filter-tags').click();
  await owner.getByRole('option', { name: tagName, exact: true }).click();
  await owner.keyboard.press('Escape');
  await expect(owner.getByTestId('client-row')).toHaveCount(3);
  await owner.getByTestId('clients-export').click();
  await owner.getByTestId('clients-export-delimiter').getByText('Semicolon', { exact: false }).click();
  const [download] = await Promise.all([
    owner.waitForEvent('download'),
    owner.getByTestId('clients-export-submit').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^clients-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.startsWith('\uFEFF')).toBe(true);
  const lines = csv.slice(1).trim().split('\r\n');
  expect(lines[0]).toContain('firstName;lastName;emailAddress');
  expect(lines).toHaveLength(4);
  for (const email of taggedEmails) expect(csv).toContain(email!);
  for (const line of lines.slice(1)) expect(line).toContain(tagName);

  expect(pageErrors).toEqual([]);
  await owner.context().close();

  // ---- The front desk: may edit, may not archive (delete) nor export ----------------------------
  const desk = await backofficePage(browser, demo, { who: FRONT_DESK, acceptDownloads: true });
  await openClients(desk);
  await expect(desk.getByTestId('clients-add')).toBeVisible();
  await expect(desk.getByTestId('clients-export')).toHaveCount(0);
  await desk.getByTestId('clients-search').fill(newEmail);
  await row(desk, newEmail).getByTestId('client-open').click();
  await expect(desk.getByTestId('client-name')).toHaveText(`Ewa Testowa ${stamp}`);
  await expect(desk.getByTestId('client-edit')).toBeVisible();
  await expect(desk.getByTestId('client-archive')).toHaveCount(0);
  await desk.getByTestId('client-back').click();
  await expect(row(desk, newEmail).getByTestId('client-select')).toBeVisible();
  await row(desk, newEmail).getByTestId('client-select').check();
  await expect(desk.getByTestId('clients-bulk-tag')).toBeVisible();
  await expect(desk.getByTestId('clients-bulk-export')).toHaveCount(0);
  await desk.context().close();
});
