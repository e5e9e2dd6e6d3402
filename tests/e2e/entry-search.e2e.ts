import { expect, test, type Page } from '@playwright/test';
import {
  LANGUAGES,
  answer,
  entryTexts,
  expectNoPageErrors,
  readEntryDemo,
  serverError,
  stall,
  watchPage,
} from './support/entry';

/**
 * /search (spec §2 "Studio search", §4, §5, §9): 600 ms after the last keystroke, from 3 characters;
 * states none, loading, success, noResults (also when the call fails); a studio leads to its
 * front-office sign-up with returnToRoot=true; Go back to /login.
 */
async function openSearch(page: Page) {
  await page.goto('/search');
  const field = page.locator('input[name="queryString"]');
  await expect(field).toBeFocused();
  return { field, search: page.getByTestId('studio-search') };
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`studio search (${lang})`, () => {
    test.use({ locale });
    const t = entryTexts(lang);

    test('600 ms delay, from 3 characters: none → loading → success; shorter input clears', async ({
      page,
    }) => {
      const demo = readEntryDemo();
      const watch = watchPage(page);
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1_000);
      const held = await stall(page, 'app/search');
      const { field, search } = await openSearch(page);
      await expect(page.getByRole('heading', { level: 2 })).toHaveText(t('search.title'));
      await expect(search).toHaveAttribute('data-state', 'none');

      await field.pressSequentially('Ha');
      await page.clock.runFor(5_000);
      expect(watch.count('app/search')).toBe(0); // two characters never search

      await field.pressSequentially('r');
      await page.clock.runFor(599);
      expect(watch.count('app/search')).toBe(0);
      await expect(search).toHaveAttribute('data-state', 'none');
      await page.clock.runFor(1);
      await expect(search).toHaveAttribute('data-state', 'loading');
      await expect(page.getByTestId('search-loading')).toHaveText(t('search.loading'));
      expect(watch.bodies('app/search')).toEqual([{ queryString: 'Har' }]);

      await held.release(); // the real server answers
      await expect(search).toHaveAttribute('data-state', 'success');
      const option = search.getByTestId('studio-option').filter({ hasText: demo.studioName });
      await expect(option).toHaveAttribute(
        'href',
        `/${demo.studioUuid}/frontoffice/signup?returnToRoot=true`,
      );
      await expect(option.getByTestId('studio-address')).toHaveText('ul. Puławska 145, 02-715 Warszawa');
      // The demo studio has a logo (issue 25's demo branding).
      await expect(option.getByTestId('studio-logo').locator('img')).toHaveAttribute(
        'src',
        /studio-appearance\/logo\//,
      );

      await field.press('Backspace');
      await expect(search).toHaveAttribute('data-state', 'none');
      await expect(search.getByTestId('studio-option')).toHaveCount(0);
      expectNoPageErrors(watch.pageErrors);
    });

    test('no studio with that name: noResults', async ({ page }) => {
      const { field, search } = await openSearch(page);
      await field.fill('Zzyzx-nothing');
      await expect(search).toHaveAttribute('data-state', 'noResults');
      const noResults = page.getByTestId('search-no-results');
      await expect(noResults.locator('p').first()).toHaveText(t('search.noResults'));
      // Spec §8: "no studio found with the provided name" still offers to create an account.
      await expect(noResults.getByRole('link')).toHaveAttribute('href', '/signup');
    });

    test('a failing call is noResults too (an HTTP error is not logged, a network error is)', async ({
      page,
    }) => {
      const watch = watchPage(page);
      await answer(page, 'app/search', 500, serverError());
      const { field, search } = await openSearch(page);
      await field.fill('Harmonia');
      await expect(search).toHaveAttribute('data-state', 'noResults');
      expect(watch.count('log/post')).toBe(0);

      await page.unroute('**/api/v4/app/search');
      await page.route('**/api/v4/app/search', (route) => route.abort('internetdisconnected'));
      await field.fill('Yoga studio');
      await expect
        .poll(() => watch.bodies('log/post').map((b) => b.message))
        .toEqual([expect.stringMatching(/^app\/search: NetworkError/)]);
      await expect(search).toHaveAttribute('data-state', 'noResults');
      expect(watch.bodies('app/search')).toEqual([
        { queryString: 'Harmonia' },
        { queryString: 'Yoga studio' },
      ]);
    });

    test('picking a studio opens its front-office sign-up with returnToRoot; Go back returns to /login', async ({
      page,
    }) => {
      const demo = readEntryDemo();
      const { field, search } = await openSearch(page);
      await field.fill('harmonia');
      await search.getByTestId('studio-option').filter({ hasText: demo.studioName }).click();
      await expect(page).toHaveURL(`/${demo.studioUuid}/frontoffice/signup?returnToRoot=true`);

      await page.goto('/search');
      await page.getByTestId('go-back').click();
      await expect(page).toHaveURL('/login');
      await expect(page.getByTestId('login-form')).toBeVisible();
    });
  });
}
