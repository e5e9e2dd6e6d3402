import { expect, test, type APIRequestContext } from '@playwright/test';
import { readDemo } from './support/demo';
import { setLanguage, shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';
import { managerSession } from './support/studio-api';

/**
 * Settings → Fiscal printers: the demo manager adds the front desk's printer, sees it listed with its
 * connection and VAT mapping, and queues a diagnose (which waits for the station). Screenshots of the
 * list and the add dialog in English and Polish, at 390 px and 1280 px. The printer is deleted at the
 * end, so the test can run again on the same server.
 */

/** The station's side, through the API: signs in like the desktop app and answers the diagnose. */
async function stationAnswers(
  request: APIRequestContext,
  demo: ReturnType<typeof readDemo>,
  station: string,
): Promise<void> {
  const { headers } = await managerSession(request, demo);
  const url = `/api/v4/${demo.studioUuid}/fiscal-printer/${station}`;
  const config = (await (await request.get(url, { headers })).json()) as {
    pendingDiagnoses: { id: string }[];
  };
  expect(config.pendingDiagnoses).toHaveLength(1);
  const status = {
    online: true,
    paperOut: true,
    coverOpen: false,
    device: 'ready',
    dailyReportNeeded: false,
    lastReceiptNumber: 128,
    vatSlots: [2300, 800, 500, 0, 'exempt', 'inactive', 'inactive'],
  };
  const answered = await request.post(url, {
    headers,
    data: {
      diagnoses: [
        {
          id: config.pendingDiagnoses[0]!.id,
          result: {
            ok: false,
            messageKey: 'printing:cashier.paperOut',
            transport: 'serial /dev/ttyUSB0 9600 8N1',
            status,
            counters: { completed: 128, cancelled: 3, lastReceiptNumber: 128 },
            transactionOpen: false,
          },
        },
      ],
    },
  });
  expect(answered.status()).toBe(200);
}

test('fiscal printers: a manager adds the station’s printer and queues a diagnose', async ({ browser }) => {
  const demo = readDemo();
  const station = `front-${Date.now().toString(36).slice(-5)}`;
  const pageErrors: string[] = [];
  const page = await backofficePage(browser, demo, { errors: pageErrors });

  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-tab-fiscalPrinters').click();
  await expect(page).toHaveURL(/#\/settings\/fiscal-printers$/);

  // Add: a bad port path first (the server's field error lands on the input), then the real one.
  await page.getByTestId('fiscal-printer-add').click();
  const form = page.getByTestId('fiscal-printer-form');
  await expect(form).toBeVisible();
  await form.locator('input[name="name"]').fill('Front desk POSNET');
  await form.locator('input[name="stationSlug"]').fill(`${station} !`);
  await form.locator('input[name="connection.path"]').fill('/dev/ttyUSB0');
  await shootAll(page, 'fiscal-printers-add', async () => expect(form).toBeVisible(), { dialog: true });
  await page.getByTestId('fiscal-printer-submit').click();
  await expect(form.locator('input[name="stationSlug"]')).toHaveAttribute('aria-invalid', 'true');
  await form.locator('input[name="stationSlug"]').fill(station);
  await page.getByTestId('fiscal-printer-submit').click();
  await expect(form).toBeHidden();

  const card = page.locator(`[data-testid="fiscal-printer"][data-station="${station}"]`);
  await expect(card).toBeVisible();
  await expect(card.getByTestId('fiscal-printer-name')).toHaveText('Front desk POSNET');
  await expect(card).toContainText('/dev/ttyUSB0 · 9600 8N1');
  await expect(card.getByTestId('fiscal-printer-status')).toHaveText('Not reported yet');
  await expect(card.getByTestId('fiscal-printer-vat')).toContainText('23%');
  await expect(card.getByTestId('fiscal-printer-diagnosis')).toHaveAttribute('data-state', 'none');

  // Diagnose: the cloud records the request; the station will run it.
  await card.getByTestId('fiscal-printer-diagnose-button').click();
  await expect(card.getByTestId('fiscal-printer-diagnosis')).toHaveAttribute('data-state', 'pending');
  await expect(card.getByTestId('fiscal-printer-diagnosis')).toContainText('Waiting for the station');
  await expect(card.getByTestId('fiscal-printer-diagnose-button')).toBeDisabled();

  await shootAll(page, 'fiscal-printers-pending', async () => {
    await expect(card.getByTestId('fiscal-printer-diagnosis')).toHaveAttribute('data-state', 'pending');
  });
  await setLanguage(page, 'PL');
  await expect(card.getByTestId('fiscal-printer-status')).toHaveText('Brak zgłoszenia');
  await expect(card.getByTestId('fiscal-printer-diagnosis')).toContainText('Czeka na stanowisko');
  await setLanguage(page, 'EN');

  // The station runs it and answers: the page (polling while a diagnose waits) shows the result.
  await stationAnswers(page.context().request, demo, station);
  await expect(card.getByTestId('fiscal-printer-diagnosis')).toHaveAttribute('data-state', 'completed', {
    timeout: 15_000,
  });
  await expect(card.getByTestId('fiscal-printer-status')).toHaveText('Needs attention');
  await expect(card.getByTestId('fiscal-printer-attention')).toContainText('out of paper');
  await expect(card).toContainText('128');
  await shootAll(page, 'fiscal-printers-reported', async () => {
    await expect(card.getByTestId('fiscal-printer-diagnosis')).toHaveAttribute('data-state', 'completed');
  });

  // Put things back.
  await card.getByTestId('fiscal-printer-delete').click();
  await page.getByTestId('fiscal-printer-delete-confirm').click();
  await expect(card).toBeHidden();
  expect(pageErrors).toEqual([]);
  await page.context().close();
});
