import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { cardNumberKey } from '../../../../shared/domain/accounts';
import { loadPdfKit, loadSharp } from '../../libraries';
import type { FileStorage } from '../../storage/index';
import { appearanceKey, appearancePicturePath } from './studio-settings.service';
import { studioDocumentKey } from './studio-records.service';

/** The demo studio's brand: a deep teal with a warm accent, its round "H" logo, legal details. */
export const DEMO_BRAND = { primaryColor: '#0b7285', accentColor: '#e8590c' } as const;

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <circle cx="256" cy="256" r="240" fill="${DEMO_BRAND.primaryColor}"/>
  <circle cx="256" cy="256" r="200" fill="none" stroke="${DEMO_BRAND.accentColor}" stroke-width="16"/>
  <path d="M176 150v212M336 150v212M176 256h160" stroke="#fff" stroke-width="44" stroke-linecap="round"/>
</svg>`;

/**
 * Issue 25's part of the demo: the profile's legal and contact details, booking defaults, colours
 * and (when the server hands its file storage) a logo, so the settings screens, the front office
 * and the kiosk show a branded studio.
 */
export async function seedDemoStudioAdmin(
  trx: Knex.Transaction,
  studioId: string,
  storage: FileStorage | undefined,
  now: Date,
): Promise<void> {
  await seedDemoAgreementHistory(trx, studioId, now);
  await seedDemoRecords(trx, studioId, storage, now);
  await seedDemoCard(trx, studioId);
  // The setup checklist's payments step: the studio decided about online payments. The decision is
  // the one a studio that never chose gets (the test provider on outside production), now explicit.
  await trx('studio_payment_providers')
    .insert({
      id: uuidv7(),
      studioId,
      provider: 'test',
      enabled: process.env.NODE_ENV !== 'production',
      settings: JSON.stringify({}),
    })
    .onConflict(['studio_id', 'provider'])
    .ignore();
  const appearance: Record<string, unknown> = { ...DEMO_BRAND };
  let logoUrl: string | null = null;
  if (storage) {
    const file = 'logo-demo0harmonia.webp';
    const sharp = await loadSharp();
    const logo = await sharp(Buffer.from(LOGO_SVG)).resize(512, 512).webp({ quality: 90 }).toBuffer();
    await storage.put(appearanceKey(studioId, 'logo', file), logo, 'image/webp');
    logoUrl = appearancePicturePath(studioId, 'logo', file);
    appearance.logoFile = file;
    appearance.defaultLogo = { absoluteUrl: logoUrl };
  }
  const row = (await trx('studios').where({ id: studioId }).first('settings')) as { settings: unknown };
  const settings = row.settings && typeof row.settings === 'object' ? row.settings : {};
  await trx('studios')
    .where({ id: studioId })
    .update({
      appearance: JSON.stringify(appearance),
      logoUrl,
      settings: JSON.stringify({
        ...settings,
        profile: {
          legalName: 'Harmonia Studio Ruchu sp. z o.o.',
          taxId: '5260250274',
          email: 'kontakt@harmonia.example',
          phone: '+48 22 100 20 30',
          website: 'https://harmonia.example',
        },
        policies: { bookingWindowDays: 21, cancellationCutoffMinutes: 720, bookingCutoffMinutes: 15 },
      }),
    });
}

const lt = (en: string, pl: string) => JSON.stringify({ en: { value: en }, pl: { value: pl } });

/**
 * The agreements' history: the terms had a first version a year ago (the one seeded today is made
 * version 2), and every client answered the current versions when they joined (two in three took
 * the marketing consent), so the back office shows versions and counts and the export has rows.
 */
async function seedDemoAgreementHistory(trx: Knex.Transaction, studioId: string, now: Date): Promise<void> {
  const yearAgo = new Date(now.getTime() - 365 * 86_400_000);
  await trx('studio_agreements').where({ studioId, kind: 'terms' }).update({ version: 2 });
  const first = uuidv7();
  await trx('studio_agreements').insert({
    id: first,
    studioId,
    kind: 'terms',
    version: 1,
    required: true,
    title: lt('Terms of service', 'Regulamin'),
    content: lt('Classes must be booked in advance.', 'Zajęcia należy rezerwować z wyprzedzeniem.'),
    publishedAt: yearAgo,
  });
  const current: { id: string; kind: string; version: number }[] = await trx('studio_agreements')
    .where({ studioId })
    .whereNot({ id: first })
    .select('id', 'kind', 'version');
  const clients: { userId: string }[] = await trx('memberships')
    .where({ studioId, isClient: true })
    .select('userId');
  const rows = clients.flatMap(({ userId }, i) => [
    {
      id: uuidv7(),
      studioId,
      userId,
      agreementId: first,
      kind: 'terms',
      version: 1,
      accepted: true,
      decidedAt: yearAgo,
    },
    ...current.map((a) => ({
      id: uuidv7(),
      studioId,
      userId,
      agreementId: a.id,
      kind: a.kind,
      version: a.version,
      accepted: a.kind !== 'marketing' || i % 3 !== 2,
      decidedAt: now,
    })),
  ]);
  await trx.batchInsert('client_agreement_acceptances', rows, 500);
}

/** A one-page PDF of the house rules (Helvetica: plain ASCII text). */
async function houseRulesPdf(): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: 'House rules' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.fontSize(20).text('Harmonia Studio Ruchu - house rules', { align: 'left' }).moveDown();
  doc
    .fontSize(12)
    .text('1. Come 10 minutes before your class and sign in at the desk or the kiosk.')
    .text('2. Cancel at least 12 hours before the start to keep your entry.')
    .text('3. Bring a towel; mats are cleaned after every class.');
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/**
 * Bank accounts (the PLN one the invoices print, a EUR one) and a published document. The document's
 * row is seeded even without a file storage (tests): its download then answers 404.
 */
async function seedDemoRecords(
  trx: Knex.Transaction,
  studioId: string,
  storage: FileStorage | undefined,
  now: Date,
): Promise<void> {
  await trx('studio_bank_accounts').insert([
    {
      id: uuidv7(),
      studioId,
      name: 'Rachunek główny',
      iban: 'PL61109010140000071219812874',
      bankName: 'Santander Bank Polska',
      currency: 'PLN',
      isDefault: true,
      createdAt: now,
      updatedAt: now,
    },
    {
      id: uuidv7(),
      studioId,
      name: 'EUR',
      iban: 'DE89370400440532013000',
      bankName: 'Commerzbank',
      currency: 'EUR',
      isDefault: true,
      createdAt: now,
      updatedAt: now,
    },
  ]);
  const id = uuidv7();
  const pdf = await houseRulesPdf();
  await trx('studio_documents').insert({
    id,
    studioId,
    name: 'Regulamin studia / House rules',
    fileName: 'house-rules.pdf',
    contentType: 'application/pdf',
    sizeBytes: pdf.length,
    sha256: createHash('sha256').update(pdf).digest('hex'),
    publishedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  if (storage) await storage.put(studioDocumentKey(studioId, id), pdf, 'application/pdf');
}

/** The demo client (Julia Nowak) carries membership card HARM-0001: the desk's card reader finds her. */
export const DEMO_CARD_NUMBER = 'HARM-0001';

async function seedDemoCard(trx: Knex.Transaction, studioId: string): Promise<void> {
  const client = (await trx('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.studio_id': studioId, 'm.is_client': true })
    .whereRaw(`u.email like 'client%@demo.studio'`)
    .first('u.id')) as { id: string } | undefined;
  if (!client) return;
  await trx('client_identities')
    .insert({
      id: uuidv7(),
      studioId,
      userId: client.id,
      kind: 'card',
      value: DEMO_CARD_NUMBER,
      valueKey: cardNumberKey(DEMO_CARD_NUMBER)!,
    })
    .onConflict()
    .ignore();
}
