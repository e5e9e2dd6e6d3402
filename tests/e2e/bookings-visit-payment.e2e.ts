import { expect, test, type Browser, type Page } from '@playwright/test';
import { HttpClient } from '../support/http-client';
import { readDemo, type DemoDetails } from './support/demo';
import { VIEWPORTS, setLanguage, shootAll } from './support/screenshots';
import { demoClient, demoManager, signInBackoffice, signInFrontoffice } from './support/sign-in';
import { call, studioDay, managerClient, addClassService, addScheduleMeta } from './support/studio-api';

/**
 * What paid a visit, on every screen that lists visits. Set up through the API as the demo manager: a
 * class service and one class of it in two days, a monthly contract sold to the demo client, who
 * books the class (the contract pays, not a pass). The client's "my visits" says "Membership: …",
 * the class's attendee list and the client profile's Visits tab say "Contract: …". The manager
 * downloads the attendee list and writes to everyone on the class. Screenshots in
 * English and Polish at 1280 and 390 px: E2E_RESULTS_DIR/screenshots/visit-payment-*.png.
 */

async function englishPage(browser: Browser, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}

async function arrange(demo: DemoDetails, name: string, contractName: string) {
  const studio = demo.studioUuid;
  const { owner, init } = await managerClient(demo);
  const locationId = init.locations[0].id as string;
  const service = await addClassService(owner, studio, {
    serviceType: 'classroom',
    name: { en: { value: name }, pl: { value: `${name} PL` } },
    durationMinutes: 50,
  });
  const day = studioDay(2);
  const meta = await addScheduleMeta(owner, studio, service.id, {
    locationId,
    daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
    startTime: '06:05',
    durationMinutes: 50,
    firstDate: day,
    lastDate: day,
    capacity: 8,
    waitingListSize: 2,
  });
  await call(owner, 'POST', `/api/v2/${studio}/schedule-events/generate`, { scheduleMetaIds: [meta.id] });
  const events = await call(owner, 'GET', `/api/v2/${studio}/schedule-metas/${meta.id}/schedule-events/all`);
  const eventId = events.items[0].id as string;

  const found = await call(
    owner,
    'GET',
    `/api/v4/${studio}/client/search?q=${encodeURIComponent(demo.clientEmail!)}`,
  );
  const clientId = found.items[0].id as string;
  const contract = await call(
    owner,
    'POST',
    `/api/v4/${studio}/contract`,
    {
      name: { en: { value: contractName }, pl: { value: `${contractName} PL` } },
      price: 19900,
      periodUnit: 'month',
      periodLength: 1,
      durationPeriods: 6,
      activationType: 0,
      serviceTypes: ['classroomPricingOption'],
    },
    201,
  );
  await call(
    owner,
    'POST',
    `/api/v4/${studio}/client/${clientId}/client-contract`,
    { contractId: contract.id },
    201,
  );

  const client = await HttpClient.signedIn(demo.baseURL, demo.clientEmail!, demo.clientPassword!, studio);
  const booked = await call(client, 'POST', `/api/v4/${studio}/booking/classroom/book`, {
    scheduleEventId: eventId,
  });
  expect(booked.visit.payment).toBe('contract');
  return { clientId, eventId };
}

test('visits name the contract that paid them: my visits, attendee list, client profile', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const demo = readDemo();
  test.skip(!demo.clientEmail || !demo.clientPassword, 'the demo has no client login');
  const errors: string[] = [];
  const tag = Date.now().toString(36);
  const name = `Sunrise flow ${tag}`;
  const contractName = `Unlimited ${tag}`;
  const { clientId } = await arrange(demo, name, contractName);

  // ---- Front office: my visits ----------------------------------------------------------------
  const client = await englishPage(browser, errors);
  await signInFrontoffice(client, demo.studioUuid, demoClient(demo), 'visits');
  await setLanguage(client, 'EN');
  const card = client.getByTestId('visit-card').filter({ hasText: name });
  await expect(card.getByTestId('visit-payment')).toHaveText(`Membership: ${contractName}`);
  await shootAll(client, 'visit-payment-my-visits', async (locale) => {
    await expect(card.getByTestId('visit-payment')).toHaveText(
      locale === 'EN' ? `Membership: ${contractName}` : `Członkostwo: ${contractName} PL`,
    );
  });

  // ---- Back office: the client's Visits tab ---------------------------------------------------
  const staff = await englishPage(browser, errors);
  await signInBackoffice(staff, demo.studioUuid, demoManager(demo));
  await setLanguage(staff, 'EN');
  await staff.goto(`/${demo.studioUuid}/backoffice#/clients/${clientId}/visits`);
  const row = staff.getByTestId('client-visit-row').filter({ hasText: name });
  await expect(row.getByTestId('client-visit-payment')).toContainText(`Contract: ${contractName}`);
  await expect(row.getByTestId('visit-status')).toHaveText('Booked');
  await shootAll(staff, 'visit-payment-client-visits-tab', async (locale) => {
    await expect(row.getByTestId('client-visit-payment')).toContainText(
      locale === 'EN' ? `Contract: ${contractName}` : `Umowa: ${contractName} PL`,
    );
  });
  // Past visits: none of this class (it is ahead).
  await staff.getByTestId('client-visits-when').getByText('Past').click();
  await expect(staff.getByTestId('client-visit-row').filter({ hasText: name })).toHaveCount(0);

  // ---- Back office: the class's attendee list -------------------------------------------------
  await staff.goto(`/${demo.studioUuid}/backoffice#/schedule`);
  await expect(staff.getByTestId('schedule-week')).toBeVisible();
  const event = staff.getByTestId('schedule-event').filter({ hasText: name });
  await expect(staff.getByTestId('schedule-event').first()).toBeVisible();
  if ((await event.count()) === 0) await staff.getByTestId('schedule-next').click();
  await event.click();
  const attendees = staff.getByRole('dialog').getByTestId('event-attendees');
  await expect(attendees.getByTestId('attendee-payment')).toHaveText(`Contract: ${contractName}`);
  await shootAll(
    staff,
    'visit-payment-attendees',
    async (locale) => {
      await expect(attendees.getByTestId('attendee-payment')).toHaveText(
        locale === 'EN' ? `Contract: ${contractName}` : `Umowa: ${contractName} PL`,
      );
    },
    { fullPage: false },
  );

  // ---- The attendee tools: the list as a spreadsheet, a message to everyone on the class ------
  const download = staff.waitForEvent('download');
  await attendees.getByTestId('attendees-export').click();
  expect((await download).suggestedFilename()).toMatch(/^attendees-\d{4}-\d{2}-\d{2}\.csv$/);
  await attendees.getByTestId('attendees-write').click();
  await attendees.getByTestId('attendees-message-send').click();
  await expect(attendees.getByTestId('attendees-message-form')).toContainText('Write a message.');
  await attendees.getByTestId('attendees-message-text').fill('We meet in the garden tomorrow.');
  await shootAll(
    staff,
    'visit-payment-attendees-message',
    async (locale) => {
      await expect(attendees.getByTestId('attendees-message-form')).toContainText(
        locale === 'EN' ? '1 person will get it' : 'Otrzyma ją 1 osoba',
      );
      await attendees.getByTestId('attendees-message-form').scrollIntoViewIfNeeded();
    },
    { fullPage: false },
  );
  await attendees.getByTestId('attendees-message-send').click();
  await expect(attendees.getByTestId('attendee-tools-feedback')).toHaveText('Sent to 1 person.');
  expect(errors).toEqual([]);
});
