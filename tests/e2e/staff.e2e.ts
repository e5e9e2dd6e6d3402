import { expect, test, type Page } from '@playwright/test';
import { readDemo } from './support/demo';
import { VIEWPORTS, setLanguage, shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * Staff and roles in the back office: the demo owner creates a role (front desk abilities plus seeing
 * and managing staff), gives it to the front desk (frontdesk@demo.studio, seeded with role front_desk),
 * and the front desk then sees the Staff section the new role opens, but is refused ("you have no
 * permission", spec §8) when removing the owner: the role lacks the owner's abilities. Screenshots of
 * every screen in English and Polish, on a phone and a desktop. The test puts things back at the end,
 * so it can run again on the same server.
 */
const FRONT_DESK = { email: 'frontdesk@demo.studio', password: 'demo1234' };
const NO_PERMISSION = { en: 'You have no permission to perform this action.', pl: 'Nie masz uprawnień' };

const memberRow = (page: Page, email: string) =>
  page.locator(`[data-testid="staff-member"][data-email="${email}"]`);

async function openStaff(page: Page): Promise<void> {
  const burger = page.getByTestId('nav-burger');
  if (await burger.isVisible()) await burger.click();
  await page.getByTestId('nav-staff').click();
  await expect(page).toHaveURL(/#\/staff$/);
}

test('staff: a role made by the owner is given to the front desk, who then meets a 403', async ({
  browser,
}) => {
  const demo = readDemo();
  const roleName = `Reception ${Date.now().toString(36).slice(-5)}`;
  const pageErrors: string[] = [];

  // ---- The owner (the demo's manager account) -------------------------------------------------
  const owner = await backofficePage(browser, demo, { viewport: VIEWPORTS.desktop, errors: pageErrors });
  await openStaff(owner);
  await expect(memberRow(owner, FRONT_DESK.email)).toBeVisible();
  await expect(memberRow(owner, demo.managerEmail)).toContainText('Owner');
  await expect(memberRow(owner, demo.managerEmail)).toContainText('You');
  await shootAll(owner, 'staff-members', async () => {
    await expect(memberRow(owner, FRONT_DESK.email)).toBeVisible();
  });

  // The add-member dialog (looked at, not submitted).
  await owner.getByTestId('staff-add').click();
  await expect(owner.getByTestId('staff-add-form')).toBeVisible();
  await shootAll(
    owner,
    'staff-add-member',
    async () => {
      await expect(owner.getByTestId('staff-add-form')).toBeVisible();
    },
    { dialog: true },
  );
  await owner.keyboard.press('Escape');
  await expect(owner.getByTestId('staff-add-form')).toBeHidden();

  // Roles: the five defaults.
  await owner.getByTestId('staff-tab-roles').click();
  await expect(owner).toHaveURL(/#\/staff\/roles$/);
  await expect(owner.getByTestId('staff-role').first()).toBeVisible();
  expect(await owner.getByTestId('staff-role').count()).toBeGreaterThanOrEqual(5);
  await shootAll(owner, 'staff-roles', async () => {
    await expect(
      owner.locator(
        '[data-testid="staff-role"][data-role-name="Owner"], [data-testid="staff-role"][data-role-name="Właściciel"]',
      ),
    ).toBeVisible();
  });

  // A new role: what the front desk has, plus seeing and managing staff.
  await owner.getByTestId('staff-role-new').click();
  await expect(owner).toHaveURL(/#\/staff\/roles\/new$/);
  await owner.getByTestId('staff-role-name').fill(roleName);
  for (const ability of [
    'clients.view',
    'clients.edit',
    'clients.message',
    'schedule.view',
    'schedule.book',
    'schedule.checkIn',
    'sales.view',
    'sales.sell',
    'staff.view',
    'staff.edit',
  ])
    await owner.getByTestId(`ability-${ability}`).check();
  await shootAll(owner, 'staff-role-editor', async () => {
    await expect(owner.getByTestId('ability-staff.edit')).toBeChecked();
  });
  const created = owner.waitForResponse(
    (r) => r.url().endsWith('/studio-iam-role') && r.request().method() === 'PUT',
  );
  await owner.getByTestId('staff-role-save').click();
  expect((await created).status()).toBe(201);
  await expect(owner).toHaveURL(/#\/staff\/roles$/);
  const card = owner.locator(`[data-testid="staff-role"][data-role-name="${roleName}"]`);
  await expect(card).toContainText('Abilities: 10 of 27');

  // Give it to the front desk.
  await owner.getByTestId('staff-tab-members').click();
  await memberRow(owner, FRONT_DESK.email).getByTestId('staff-change-role').click();
  await expect(owner.getByTestId('staff-role-form')).toBeVisible();
  await owner.getByTestId('staff-role-select').click();
  await owner.getByRole('option', { name: roleName, exact: true }).click();
  await shootAll(
    owner,
    'staff-change-role',
    async () => {
      await expect(owner.getByTestId('staff-role-form')).toBeVisible();
    },
    { dialog: true },
  );
  await owner.getByTestId('staff-role-submit').click();
  await expect(owner.getByTestId('staff-role-form')).toBeHidden();
  await expect(memberRow(owner, FRONT_DESK.email).getByTestId('staff-member-role')).toHaveText(roleName);

  // ---- The front desk, on a phone ---------------------------------------------------------------
  const desk = await backofficePage(browser, demo, {
    who: FRONT_DESK,
    viewport: VIEWPORTS.phone,
    errors: pageErrors,
  });
  await expect(desk.getByTestId('dashboard-member-role')).toHaveText(roleName);
  await openStaff(desk); // the Staff section exists for them only through the new role
  await expect(memberRow(desk, demo.managerEmail)).toBeVisible();

  // Removing the owner needs abilities the role does not have: the server answers 403.
  await memberRow(desk, demo.managerEmail).getByTestId('staff-remove-member').click();
  const refused = desk.waitForResponse(
    (r) => /\/member\/[0-9a-f-]{36}$/.test(r.url()) && r.request().method() === 'DELETE',
  );
  await desk.getByTestId('staff-remove-submit').click();
  expect((await refused).status()).toBe(403);
  await expect(desk.getByTestId('form-errors')).toHaveText(NO_PERMISSION.en);
  await expect(desk.getByTestId('staff-remove-submit')).toHaveAttribute('data-state', 'error');
  await shootAll(
    desk,
    'staff-front-desk-403',
    async () => {
      await expect(desk.getByTestId('form-errors')).toBeVisible();
    },
    { dialog: true },
  );
  await setLanguage(desk, 'PL');
  await expect(desk.getByTestId('form-errors')).toContainText(NO_PERMISSION.pl);
  await setLanguage(desk, 'EN');
  await desk.keyboard.press('Escape');

  // Roles are visible to them, but not editable (no "Edit roles" ability).
  await desk.getByTestId('staff-tab-roles').click();
  await expect(desk.locator(`[data-testid="staff-role"][data-role-name="${roleName}"]`)).toBeVisible();
  await expect(desk.getByTestId('staff-role-new')).toHaveCount(0);
  await desk.close();

  // ---- Back as it was: the front desk role again, and the new role deleted ----------------------
  await memberRow(owner, FRONT_DESK.email).getByTestId('staff-change-role').click();
  await owner.getByTestId('staff-role-select').click();
  await owner.getByRole('option', { name: 'Front desk', exact: true }).click();
  await owner.getByTestId('staff-role-submit').click();
  await expect(memberRow(owner, FRONT_DESK.email).getByTestId('staff-member-role')).toHaveText('Front desk');
  await owner.getByTestId('staff-tab-roles').click();
  await card.getByTestId('staff-role-delete-open').click();
  await owner.getByTestId('staff-role-delete-submit').click();
  await expect(card).toHaveCount(0);

  expect(pageErrors).toEqual([]);
});
