import { expect, type Page } from '@playwright/test';

/** The desk's small screen (issue 26): the POS must fit it as well as a 1280×800 laptop. */
export const DESK_SMALL = { width: 1024, height: 768 } as const;

/**
 * At a window of `size`, without scrolling the page: the last basket line, the first payment's
 * amount and the sell button are in view, and nothing lies on top of the payment field or the button
 * (the element at their centre is theirs: a sticky totals card used to cover the payments).
 */
export async function expectSaleInView(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const id of ['pos-sell', 'pos-payment-amount-0']) {
    const target = page.getByTestId(id);
    await expect(target, `${id} at ${size.width}×${size.height}`).toBeInViewport({ ratio: 1 });
    const onTop = await target.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return hit !== null && (el === hit || el.contains(hit) || hit.contains(el));
    });
    expect(onTop, `${id} uncovered at ${size.width}×${size.height}`).toBe(true);
  }
  // The whole basket: its last line entirely in sight (not clipped by the sale column's scroll).
  await expect(
    page.getByTestId('pos-basket-line').last(),
    `basket at ${size.width}×${size.height}`,
  ).toBeInViewport({
    ratio: 1,
  });
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
}
