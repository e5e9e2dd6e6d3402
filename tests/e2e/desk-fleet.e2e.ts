import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { readDemo } from './support/demo';
import { shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';
import { managerSession } from './support/studio-api';

/**
 * Back office → Stations (issue 29): two desks registered through the API like the desktop app and
 * reporting as it does — one with its fiscal printer out of paper and a receipt to settle, one that has
 * not synced for six hours (offline). The manager sees both, flagged; asks the first for its logs
 * (delivered in the answer to its next report, then uploaded and downloadable); switches the studio
 * to the beta channel and back. Screenshots in English and Polish at 390 px and 1280 px.
 */
async function station(
  request: APIRequestContext,
  base: Record<string, string>,
  studioUuid: string,
  name: string,
) {
  const registered = await request.post('/sync/devices', {
    headers: base,
    data: { deviceId: randomUUID(), name, studioUuid },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const { deviceToken } = (await registered.json()) as { deviceToken: string };
  const report = async (over: Record<string, unknown>) => {
    const res = await request.post('/desktop/station/report', {
      headers: { authorization: `Bearer ${deviceToken}`, 'x-desk-version': '0.2.0' },
      data: {
        version: '0.2.0',
        platform: 'win32',
        mode: 'desk',
        outboxDepth: 0,
        lastSyncAt: new Date().toISOString(),
        printers: { fiscal: { state: 'ok', message: null, unsettled: 0 }, ticket: null },
        recentErrors: [],
        ...over,
      },
    });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as { uploadLogs: boolean; channel: string };
  };
  return { deviceToken, report };
}

test('stations: a desk out of paper and one offline are flagged; logs asked for arrive; the channel is set', async ({
  browser,
  request,
}) => {
  const demo = readDemo();
  const { headers } = await managerSession(request, demo, demo.studioUuid);
  const tag = randomUUID().slice(0, 4);
  const paper = await station(request, headers, demo.studioUuid, `Recepcja papier ${tag}`);
  const offline = await station(request, headers, demo.studioUuid, `Recepcja offline ${tag}`);
  const outOfPaper = {
    outboxDepth: 2,
    printers: {
      fiscal: { state: 'paperOut', message: 'Brak papieru', unsettled: 1 },
      ticket: { state: 'ok', message: null, unsettled: 0 },
    },
    recentErrors: [{ at: new Date().toISOString(), source: 'fiscal', message: 'printer: paper out' }],
  };
  await paper.report(outOfPaper);
  // Offline for hours, and its slip printer stopped answering (desktop/main/fleet/ticket-health.ts).
  const slipPrinterDown = {
    printers: {
      fiscal: { state: 'ok', message: null, unsettled: 0 },
      ticket: { state: 'offline', message: 'connect ECONNREFUSED 192.168.1.50:9100', unsettled: 0 },
    },
    recentErrors: [
      { at: new Date().toISOString(), source: 'ticket', message: 'connect ECONNREFUSED 192.168.1.50:9100' },
    ],
  };
  await offline.report({
    lastSyncAt: new Date(Date.now() - 6 * 3_600_000).toISOString(),
    ...slipPrinterDown,
  });

  const pageErrors: string[] = [];
  const page = await backofficePage(browser, demo, { errors: pageErrors });
  await page.getByTestId('nav-stations').click();
  await expect(page).toHaveURL(/#\/stations$/);
  const paperCard = page.locator(`[data-testid="station-card"][data-station="Recepcja papier ${tag}"]`);
  const offlineCard = page.locator(`[data-testid="station-card"][data-station="Recepcja offline ${tag}"]`);
  await expect(paperCard.getByTestId('station-printer-fiscal')).toHaveAttribute('data-state', 'paperOut');
  await expect(paperCard.getByTestId('station-printer-fiscal')).toContainText('Out of paper');
  await expect(paperCard.getByTestId('station-printer-fiscal')).toContainText('1 receipt to settle');
  await expect(paperCard.getByTestId('station-outbox')).toContainText('2 changes');
  await expect(paperCard).toHaveAttribute('data-stale', 'false');
  await expect(offlineCard).toHaveAttribute('data-stale', 'true');
  await expect(offlineCard.getByTestId('station-stale')).toHaveText('Not synced for over 4 h');
  await expect(paperCard.getByTestId('station-version')).toContainText('0.2.0');
  await expect(offlineCard.getByTestId('station-printer-ticket')).toHaveAttribute('data-state', 'offline');
  await expect(offlineCard.getByTestId('station-printer-ticket')).toContainText('Not responding');
  await expect(offlineCard).toContainText('ticket: connect ECONNREFUSED 192.168.1.50:9100');

  // Upload logs: asked here, delivered in the answer to the desk's next report.
  await paperCard.getByTestId('station-upload-logs').click();
  await expect(paperCard.getByTestId('station-logs-requested')).toBeVisible();
  expect((await paper.report(outOfPaper)).uploadLogs).toBe(true);
  const uploaded = await request.post('/desktop/station/logs', {
    headers: { authorization: `Bearer ${paper.deviceToken}` },
    data: { text: 'studio desk 0.2.0\nstatus ok' },
  });
  expect(uploaded.status()).toBe(204);
  await page.reload();
  await expect(paperCard.getByTestId('station-logs-download')).toBeVisible();
  const logs = await request.get(
    (await paperCard.getByTestId('station-logs-download').getAttribute('href'))!,
    { headers },
  );
  expect(await logs.text()).toBe('studio desk 0.2.0\nstatus ok');

  await shootAll(page, 'desk-fleet-stations', () => expect(paperCard).toBeVisible());

  // The studio's channel: beta, as the desks then learn at their next report; back to stable.
  await page.getByTestId('desk-channel').getByText('Beta').click();
  await expect
    .poll(
      async () =>
        (
          await offline.report({
            lastSyncAt: new Date(Date.now() - 6 * 3_600_000).toISOString(),
            ...slipPrinterDown,
          })
        ).channel,
    )
    .toBe('beta');
  await page.getByTestId('desk-channel').getByText('Stable').click();
  await expect
    .poll(
      async () =>
        (
          await offline.report({
            lastSyncAt: new Date(Date.now() - 6 * 3_600_000).toISOString(),
            ...slipPrinterDown,
          })
        ).channel,
    )
    .toBe('stable');
  expect(pageErrors).toEqual([]);
  await page.context().close();
});
