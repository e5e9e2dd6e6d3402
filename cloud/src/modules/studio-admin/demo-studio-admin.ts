import type { Knex } from 'knex';
import sharp from 'sharp';
import type { FileStorage } from '../../storage/index';
import { appearanceKey, appearancePicturePath } from './studio-settings.service';

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
): Promise<void> {
  const appearance: Record<string, unknown> = { ...DEMO_BRAND };
  let logoUrl: string | null = null;
  if (storage) {
    const file = 'logo-demo0harmonia.webp';
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
