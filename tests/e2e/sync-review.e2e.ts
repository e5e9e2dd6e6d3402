import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { readDemo } from './support/demo';
import { shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';
import { managerSession } from './support/studio-api';

/**
 * Station sync review: a station (registered through the API like the desktop app) pushes two
 * clients with the same email (a possible-duplicate flag) and a check-in for a class that does not
 * exist (a fact the rules refuse: kept in quarantine). The demo manager sees both under "Station
 * sync", resolves the flag, dismisses the quarantined command and finds both under Closed.
 * Screenshots in English and Polish at 390 px and 1280 px.
 */

/** Registers a station with the manager's session and pushes what the desk did offline. */
async function stationPushes(request: APIRequestContext, demo: ReturnType<typeof readDemo>) {
  const { base } = await managerSession(request, demo);
  const stationName = `Recepcja ${randomUUID().slice(0, 4)}`;
  const registered = await request.post('/sync/devices', {
    headers: base,
    data: { deviceId: randomUUID(), name: stationName, studioUuid: demo.studioUuid },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const { deviceToken } = (await registered.json()) as { deviceToken: string };
  const email = `twin-${randomUUID().slice(0, 8)}@example.com`;
  const client = (lastName: string) => ({
    userId: randomUUID(),
    clientId: randomUUID(),
    firstName: 'Zofia',
    lastName,
    emailAddress: email,
  });
  const twin = client('Bliźniak');
  const mutation = (seq: number, name: string, args: unknown) => ({
    id: randomUUID(),
    seq,
    name,
    version: 1,
    args,
    occurredAt: new Date().toISOString(),
  });
  const pushed = await request.post('/sync/push', {
    headers: { authorization: `Bearer ${deviceToken}` },
    data: {
      mutations: [
        mutation(1, 'createClient', client('Pierwsza')),
        mutation(2, 'createClient', twin),
        mutation(3, 'checkIn', { visitId: randomUUID(), userId: twin.userId, scheduleEventId: randomUUID() }),
      ],
    },
  });
  expect(pushed.status(), await pushed.text()).toBe(200);
  const outcomes = ((await pushed.json()) as { results: Array<{ outcome: { status: string } }> }).results.map(
    (r) => r.outcome.status,
  );
  expect(outcomes).toEqual(['applied', 'flagged', 'quarantined']);
  return { stationName };
}

test('station sync review: a manager resolves a flag and dismisses a command that was not applied', async ({
  browser,
  request,
}) => {
  const demo = readDemo();
  const { stationName } = await stationPushes(request, demo);
  const pageErrors: string[] = [];
  const page = await backofficePage(browser, demo, { errors: pageErrors });

  await page.getByTestId('nav-sync').click();
  await expect(page).toHaveURL(/#\/sync$/);
  // Only this test's station: the demo server may hold items of earlier runs.
  await page.getByTestId('sync-issues-station').click();
  await page.getByRole('option', { name: new RegExp(`^${stationName} \\(2 open\\)`) }).click();
  const cards = page.getByTestId('sync-issue');
  await expect(cards).toHaveCount(2);
  const flag = cards.filter({ hasText: 'Possible duplicate client' });
  await expect(flag.getByTestId('sync-issue-client')).toHaveText('Zofia Bliźniak');
  const quarantined = cards.filter({ hasText: 'Command “checkIn” not applied' });
  await expect(quarantined).toContainText(`From station: ${stationName}`);
  await shootAll(page, 'sync-review-open', () => expect(page.getByTestId('sync-issues-state')).toBeVisible());

  await flag.getByTestId('sync-issue-resolve').click();
  await expect(cards).toHaveCount(1);
  await quarantined.getByTestId('sync-issue-dismiss').click();
  await expect(page.getByTestId('sync-issues-empty')).toBeVisible();

  await page.getByTestId('sync-issues-state').getByText('Closed').click();
  await expect(cards).toHaveCount(2);
  await expect(cards.getByTestId('sync-issue-closed')).toHaveText([
    /^(Resolved|Dismissed) by /,
    /^(Resolved|Dismissed) by /,
  ]);
  await shootAll(page, 'sync-review-closed', () =>
    expect(page.getByTestId('sync-issues-state')).toBeVisible(),
  );
  expect(pageErrors).toEqual([]);
  await page.context().close();
});
