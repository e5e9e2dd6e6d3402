import { TZDate } from '@date-fns/tz';
import { addDays, startOfDay } from 'date-fns';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { Logger } from '../../logger';
import { hashPassword } from '../../modules/identity/index';
import { newSecret } from '../../modules/identity/index';
import { seedDemoAgreements } from '../../modules/client-accounts/index';
import { seedDemoProducts } from '../../modules/products/index';
import { seedDemoVisits } from '../../modules/bookings/index';
import { seedDemoContracts } from '../../modules/contracts/index';
import { seedDemoInvoicing } from '../../modules/invoices/index';
import { seedDemoAccounting } from '../../modules/accounting/index';
import { seedDemoAppointments } from '../../modules/appointments/index';
import { seedDemoCommunication } from '../../modules/communication/index';
import { seedDemoIntegrations } from '../../modules/integrations/index';
import { seedDemoKsef } from '../../modules/invoices/index';
import { seedDemoEntries } from '../../modules/entries/index';
import { seedDemoVideos } from '../../modules/videos/index';
import type { FileStorage } from '../../storage/index';
import { seedDemoReports } from '../../modules/reports/index';
import { seedDemoDeskFleet } from '../../modules/desk-fleet/index';
import { seedDemoStudioAdmin } from '../../modules/studio-admin/index';
import { seedDemoSubscription } from '../../modules/subscription/index';

export interface DemoSummary {
  studioUuid: string;
  studioName: string;
  managerEmail: string;
  managerPassword: string;
  clientEmail: string;
  clientPassword: string;
}

export const DEMO = {
  slug: 'harmonia-demo',
  studioName: 'Harmonia Studio Ruchu',
  managerEmail: 'manager@demo.studio',
  clientEmail: 'client@demo.studio',
  // A known password for a local demo only: the demo is seeded into the embedded database by default
  // and into a real PostgreSQL only when DEMO_SEED=true is set explicitly.
  password: 'demo1234',
  timeZone: 'Europe/Warsaw',
  clients: 200,
} as const;

/** Deterministic pseudo-random numbers, so every newcomer gets the same demo studio. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST_F = [
  'Anna',
  'Maria',
  'Katarzyna',
  'Małgorzata',
  'Agnieszka',
  'Barbara',
  'Ewa',
  'Magdalena',
  'Joanna',
  'Zofia',
  'Aleksandra',
  'Natalia',
  'Julia',
  'Zuzanna',
  'Wiktoria',
  'Monika',
  'Karolina',
  'Paulina',
  'Dorota',
  'Łucja',
];
const FIRST_M = [
  'Piotr',
  'Krzysztof',
  'Tomasz',
  'Paweł',
  'Michał',
  'Marcin',
  'Jakub',
  'Adam',
  'Łukasz',
  'Mateusz',
  'Kamil',
  'Bartosz',
  'Wojciech',
  'Szymon',
  'Jan',
  'Grzegorz',
  'Dawid',
  'Maciej',
  'Filip',
  'Rafał',
];
const LAST = [
  'Nowak',
  'Kowalsk',
  'Wiśniewsk',
  'Wójcik',
  'Kowalczyk',
  'Kamińsk',
  'Lewandowsk',
  'Zielińsk',
  'Szymańsk',
  'Woźniak',
  'Dąbrowsk',
  'Kozłowsk',
  'Jankowsk',
  'Mazur',
  'Kwiatkowsk',
  'Krawczyk',
  'Piotrowsk',
  'Grabowsk',
  'Nowakowsk',
  'Pawłowsk',
  'Michalsk',
  'Nowicki',
  'Adamczyk',
  'Dudek',
  'Zając',
];

function surname(stem: string, female: boolean): string {
  if (stem.endsWith('sk') || stem.endsWith('ck')) return stem + (female ? 'a' : 'i');
  if (stem === 'Nowicki') return female ? 'Nowicka' : 'Nowicki';
  return stem;
}

function ascii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .toLowerCase();
}

const lt = (en: string, pl: string) => ({ en: { value: en }, pl: { value: pl } });

/**
 * Seeds the demo studio into an empty database (no studio yet). On later starts it only reads the
 * summary back, so restarts keep whatever the user changed.
 */
/**
 * `tag` (tests only): seeds another copy next to whatever the database holds — slug and every email
 * carry the tag (`manager+tag@demo.studio`) — so a test gets a studio with one of everything.
 */
export async function seedDemoStudio(
  knex: Knex,
  log: Logger,
  now = new Date(),
  options: { tag?: string; storage?: FileStorage } = {},
): Promise<DemoSummary | null> {
  const tag = options.tag;
  const slug = tag ? `${DEMO.slug}-${tag}` : DEMO.slug;
  const emailOf = (email: string) => (tag ? email.replace('@', `+${tag}@`) : email);
  const summary = (studioUuid: string): DemoSummary => ({
    studioUuid,
    studioName: DEMO.studioName,
    managerEmail: emailOf(DEMO.managerEmail),
    managerPassword: DEMO.password,
    clientEmail: emailOf(DEMO.clientEmail),
    clientPassword: DEMO.password,
  });
  const existing = await knex('studios').where({ slug }).first('id');
  if (existing) return summary(existing.id as string);
  const anyStudio = tag ? null : await knex('studios').first('id');
  if (anyStudio) return null;

  const started = Date.now();
  const random = prng(20261122);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const passwordHash = await hashPassword(DEMO.password);
  const studioId = uuidv7();

  await knex.transaction(async (trx) => {
    await trx('studios').insert({
      id: studioId,
      name: DEMO.studioName,
      slug,
      currency: 'PLN',
      defaultLocale: 'pl',
      timeZone: DEMO.timeZone,
      studioType: 1,
      addressLine: 'ul. Puławska 145',
      postalCode: '02-715',
      city: 'Warszawa',
      country: 'PL',
      kioskKey: newSecret(12),
      appearance: JSON.stringify({ primaryColor: '#7048e8' }),
      settings: JSON.stringify({}),
    });
    // The default kiosk every studio has (entry's studio/create makes it for new studios).
    await trx('studio_kiosks').insert({ id: uuidv7(), studioId, name: 'Kiosk', isDefault: true });

    const users: Record<string, unknown>[] = [];
    const memberships: Record<string, unknown>[] = [];
    const addUser = (
      first: string,
      last: string,
      email: string,
      membership: { isClient: boolean; isMember: boolean; role: string | null },
      withPassword: boolean,
    ) => {
      const id = uuidv7();
      users.push({
        id,
        email: emailOf(email),
        password_hash: withPassword ? passwordHash : null,
        first_name: first,
        last_name: last,
        phone: `+48 ${600 + Math.floor(random() * 199)} ${String(Math.floor(random() * 1000)).padStart(3, '0')} ${String(Math.floor(random() * 1000)).padStart(3, '0')}`,
        locale: 'pl',
      });
      memberships.push({
        id: uuidv7(),
        studio_id: studioId,
        user_id: id,
        is_client: membership.isClient,
        is_member: membership.isMember,
        role: membership.role,
      });
      return id;
    };

    const ownerId = addUser(
      'Anna',
      'Kowalska',
      DEMO.managerEmail,
      { isClient: false, isMember: true, role: 'owner' },
      true,
    );
    addUser(
      'Tomasz',
      'Zieliński',
      'frontdesk@demo.studio',
      { isClient: false, isMember: true, role: 'front_desk' },
      true,
    );
    const instructors = [
      ['Marta', 'Wiśniewska'],
      ['Kasia', 'Lewandowska'],
      ['Paweł', 'Dąbrowski'],
      ['Ola', 'Kamińska'],
      ['Bartek', 'Mazur'],
    ].map(([f, l]) =>
      addUser(
        f!,
        l!,
        `${ascii(f!)}.${ascii(l!)}@demo.studio`,
        { isClient: false, isMember: true, role: 'instructor' },
        true,
      ),
    );
    const clientIds = [
      addUser('Julia', 'Nowak', DEMO.clientEmail, { isClient: true, isMember: false, role: null }, true),
    ];
    for (let i = 1; i < DEMO.clients; i++) {
      const female = random() < 0.68;
      const first = pick(female ? FIRST_F : FIRST_M);
      const last = surname(pick(LAST), female);
      clientIds.push(
        addUser(
          first,
          last,
          `${ascii(first)}.${ascii(last)}.${i}@example.com`,
          { isClient: true, isMember: false, role: null },
          false,
        ),
      );
    }
    await trx.batchInsert('users', users, 200);
    await trx.batchInsert('memberships', memberships, 200);

    const locations = [
      {
        id: uuidv7(),
        name: 'Mokotów',
        address_line: 'ul. Puławska 145',
        postal_code: '02-715',
        city: 'Warszawa',
        rooms: [
          ['Sala Słoneczna', 24],
          ['Sala Kameralna', 12],
        ],
      },
      {
        id: uuidv7(),
        name: 'Śródmieście',
        address_line: 'ul. Marszałkowska 84',
        postal_code: '00-514',
        city: 'Warszawa',
        rooms: [['Sala Główna', 30]],
      },
    ] as const;
    const rooms: { id: string; locationId: string; capacity: number }[] = [];
    for (const { rooms: roomDefs, ...location } of locations) {
      await trx('locations').insert({ ...location, studioId });
      for (const [name, capacity] of roomDefs) {
        const id = uuidv7();
        rooms.push({ id, locationId: location.id, capacity });
        await trx('location_rooms').insert({
          id,
          studioId,
          locationId: location.id,
          name,
          capacity,
        });
      }
    }

    // What a client reads in a class's details (issue 26): a description and, for some, a level.
    const [beginners, intermediate] = [uuidv7(), uuidv7()];
    await trx('experience_levels').insert([
      { id: beginners, studioId, serviceType: 'classroom', name: 'Początkujący', position: 0 },
      {
        id: intermediate,
        studioId,
        serviceType: 'classroom',
        name: 'Średniozaawansowany',
        position: 1,
      },
    ]);
    const services = [
      {
        name: lt('Vinyasa Yoga', 'Joga Vinyasa'),
        minutes: 60,
        color: '#7048e8',
        description: lt(
          'Flowing yoga linking breath and movement. Bring your own mat if you have one.',
          'Dynamiczna joga łącząca oddech z ruchem. Jeśli masz własną matę, weź ją ze sobą.',
        ),
        level: intermediate,
      },
      {
        name: lt('Hatha Yoga', 'Joga Hatha'),
        minutes: 75,
        color: '#9c36b5',
        description: lt(
          'Classic postures held longer, with time to learn each one.',
          'Klasyczne pozycje utrzymywane dłużej, z czasem na naukę każdej z nich.',
        ),
        level: beginners,
      },
      {
        name: lt('Pilates', 'Pilates'),
        minutes: 55,
        color: '#1098ad',
        description: lt(
          'Core strength and posture on the mat.',
          'Wzmacnianie mięśni głębokich i postawy na macie.',
        ),
        level: null,
      },
      {
        name: lt('Zumba', 'Zumba'),
        minutes: 60,
        color: '#f76707',
        description: lt('Dance fitness to Latin music.', 'Taneczny fitness w rytmie muzyki latynoskiej.'),
        level: null,
      },
      {
        name: lt('Stretching', 'Stretching'),
        minutes: 45,
        color: '#37b24d',
        description: lt(
          'Gentle stretching for flexibility and recovery.',
          'Łagodne rozciąganie dla gibkości i regeneracji.',
        ),
        level: beginners,
      },
      {
        name: lt('Kickboxing', 'Kickboxing'),
        minutes: 60,
        color: '#e03131',
        description: lt(
          'Punches and kicks on pads; gloves can be borrowed at the desk.',
          'Ciosy i kopnięcia na tarczach; rękawice można wypożyczyć w recepcji.',
        ),
        level: intermediate,
      },
    ].map((s) => ({ id: uuidv7(), ...s }));
    await trx('class_services').insert(
      services.map((s) => ({
        id: s.id,
        studioId,
        name: JSON.stringify(s.name),
        description: JSON.stringify(s.description),
        experienceLevelId: s.level,
        durationMinutes: s.minutes,
        color: s.color,
        serviceType: 'classroom',
      })),
    );

    // A weekly timetable, laid out in the studio's time zone so 18:00 stays 18:00 across DST.
    const slots: Array<[hour: number, minute: number]> = [
      [7, 0],
      [9, 30],
      [12, 0],
      [17, 30],
      [19, 0],
    ];
    const events: Record<string, unknown>[] = [];
    const firstDay = startOfDay(new TZDate(now.getTime(), DEMO.timeZone));
    for (let d = -7; d < 21; d++) {
      const day = addDays(firstDay, d);
      const weekend = day.getDay() === 0 || day.getDay() === 6;
      for (const [hour, minute] of weekend ? slots.slice(1, 3) : slots) {
        for (const room of rooms) {
          if (random() < 0.35) continue;
          const service = pick(services);
          const start = new TZDate(
            day.getFullYear(),
            day.getMonth(),
            day.getDate(),
            hour,
            minute,
            0,
            DEMO.timeZone,
          );
          events.push({
            id: uuidv7(),
            studio_id: studioId,
            class_service_id: service.id,
            location_id: room.locationId,
            room_id: room.id,
            // One pick for both: the lead instructor and the list the schedule module reads.
            ...((id: string) => ({ instructor_id: id, instructor_ids: [id] }))(pick(instructors)),
            starts_at: new Date(start.getTime()),
            ends_at: new Date(start.getTime() + service.minutes * 60_000),
            capacity: room.capacity,
          });
        }
      }
    }
    await trx.batchInsert('schedule_events', events, 200);

    // Polish VAT rates on the fiscal printer's slots (catalog module): 23 % is the default.
    const taxes = [
      { name: 'VAT 23%', rateBp: 2300, fiscalSlot: 'A', isDefault: true },
      { name: 'VAT 8%', rateBp: 800, fiscalSlot: 'B', isDefault: false },
      { name: 'VAT 5%', rateBp: 500, fiscalSlot: 'C', isDefault: false },
      { name: 'VAT 0%', rateBp: 0, fiscalSlot: 'D', isDefault: false },
      { name: 'VAT zw.', rateBp: null, fiscalSlot: 'E', isDefault: false },
    ].map((t) => ({ id: uuidv7(), studioId, ...t }));
    await trx('taxes').insert(taxes);

    const passes = [
      { name: lt('Single entry', 'Wejście jednorazowe'), price: 4500, entries: 1, days: 30 },
      { name: lt('4 entries', 'Karnet 4 wejścia'), price: 16000, entries: 4, days: 30 },
      { name: lt('8 entries', 'Karnet 8 wejść'), price: 28000, entries: 8, days: 30 },
      { name: lt('Monthly open', 'Open miesięczny'), price: 34900, entries: null, days: 30 },
    ].map((p) => ({ id: uuidv7(), ...p }));
    await trx('pricing_options').insert(
      passes.map((p) => ({
        id: p.id,
        studioId,
        name: JSON.stringify(p.name),
        price: p.price,
        taxRateBp: 2300,
        taxId: taxes[0]!.id,
        entries: p.entries,
        validityDays: p.days,
        validityCount: p.days,
        validityUnit: 'day',
        expirationType: 0,
      })),
    );
    // Issue 25: a pass named in Polish only, left for the Translations screen (not among `passes`,
    // whose random picks shape the rest of the demo).
    await trx('pricing_options').insert({
      id: uuidv7(),
      studioId,
      name: JSON.stringify({ pl: { value: 'Karnet poranny 10 wejść' } }),
      description: JSON.stringify({ pl: { value: 'Dziesięć wejść na zajęcia przed 12:00.' } }),
      price: 30000,
      taxRateBp: 2300,
      taxId: taxes[0]!.id,
      entries: 10,
      validityDays: 45,
      validityCount: 45,
      validityUnit: 'day',
      expirationType: 0,
    });
    const owned: Record<string, unknown>[] = [];
    for (const clientId of clientIds) {
      if (random() < 0.4) continue;
      const pass = pick(passes);
      const soldDaysAgo = Math.floor(random() * 40);
      const activatedAt = new Date(now.getTime() - soldDaysAgo * 86_400_000);
      const expiresAt = new Date(activatedAt.getTime() + pass.days * 86_400_000);
      owned.push({
        id: uuidv7(),
        studio_id: studioId,
        client_id: clientId,
        pricing_option_id: pass.id,
        status: expiresAt > now ? 1 : 0,
        entries: pass.entries,
        activated_at: activatedAt,
        expires_at: expiresAt,
        // The sale facts the catalog derives the pass's state from.
        sold_at: activatedAt,
        price_paid: pass.price,
        expiration_type: 0,
        validity_count: pass.days,
        validity_unit: 'day',
      });
    }
    await trx.batchInsert('client_pricing_options', owned, 200);
    // Client tags, so the back office's tag filter and bulk tagging have something to show.
    const demoTags = ['VIP', 'Student', 'Poranki'].map((name) => ({
      id: uuidv7(),
      studioId,
      name,
      type: 0,
    }));
    await trx('tags').insert(demoTags);
    await trx.batchInsert(
      'user_tags',
      clientIds.flatMap((userId, i) =>
        demoTags
          .filter((_, t) => (i + t) % [7, 4, 5][t]! === 0)
          .map((tag) => ({ id: uuidv7(), studio_id: studioId, tag_id: tag.id, user_id: userId })),
      ),
      200,
    );
    await seedDemoAgreements(trx, studioId, now);
    await seedDemoProducts(trx, studioId);
    await seedDemoVisits(trx, studioId, events, owned, clientIds[0]!, now);
    // A second client (not the demo login, whose bookings use passes) holds a monthly contract.
    await seedDemoContracts(trx, studioId, clientIds[1]!, now);
    // The same client has 150 zł in the wallet (the desk's wallet payments; desktop-pos-tenders e2e).
    await trx('client_wallet_payments').insert({
      id: uuidv7(),
      studioId,
      clientId: clientIds[1]!,
      amount: 15000,
      currency: 'PLN',
      kind: 'top_up',
    });
    await seedDemoInvoicing(trx, studioId, clientIds[0]!, now);
    // Three months of invoices and receipts, so last month's JPK files and register are not empty.
    await seedDemoAccounting(
      trx,
      {
        id: studioId,
        name: DEMO.studioName,
        timeZone: DEMO.timeZone,
        currency: 'PLN',
        addressLine: 'ul. Marszałkowska 10/4',
        postalCode: '00-590',
        city: 'Warszawa',
        country: 'PL',
      },
      ownerId,
      now,
    );
    await seedDemoKsef(trx, studioId, now);
    await seedDemoEntries(trx, studioId, locations[0].id, clientIds, now);
    await seedDemoVideos(trx, studioId, ownerId, clientIds, now, options.storage);
    // Six months of classes, visits and sales for the dashboard and the reports; instructors' pay rates.
    await seedDemoReports(
      trx,
      {
        studioId,
        timeZone: DEMO.timeZone,
        services,
        rooms,
        instructors,
        clientIds,
        passes,
        staffId: ownerId,
        currentPasses: owned,
      },
      now,
    );
    // Back office → Stations: two desks (one out of paper) and a kiosk not synced for hours.
    await seedDemoDeskFleet(trx, studioId, ownerId, now);
    await seedDemoStudioAdmin(trx, studioId, options.storage, now);
    await seedDemoAppointments(trx, {
      studioId,
      memberIds: instructors.slice(0, 3),
      locationId: locations[0].id,
      clientIds: clientIds.slice(0, 6),
      timeZone: DEMO.timeZone,
      now,
    });
    // A sent newsletter with its numbers, a draft, automations on with their reminder log.
    await seedDemoCommunication(trx, studioId, ownerId, clientIds, now);
    // The website's read-only API key and the CRM's webhook with its delivery log.
    await seedDemoIntegrations(trx, studioId, ownerId, clientIds, now);
    // Its subscription to the platform: the Pro plan, two paid months with their invoices.
    await seedDemoSubscription(trx, studioId, now);
    log.info(
      { clients: clientIds.length, events: events.length, passes: owned.length, ms: Date.now() - started },
      'demo studio seeded',
    );
  });
  return summary(studioId);
}
