import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';

const lt = (en: string, pl: string) => JSON.stringify({ en: { value: en }, pl: { value: pl } });

/** The demo studio's agreements (terms and privacy required, marketing optional), for the seed. */
export async function seedDemoAgreements(trx: Knex, studioId: string, now: Date): Promise<void> {
  await trx('studio_agreements').insert([
    {
      id: uuidv7(),
      studioId,
      kind: 'terms',
      version: 1,
      required: true,
      title: lt('Terms of service', 'Regulamin'),
      content: lt(
        'Classes must be booked in advance. Cancel at least 12 hours before a class to keep the entry on your pass.',
        'Zajęcia należy rezerwować z wyprzedzeniem. Odwołaj rezerwację co najmniej 12 godzin przed zajęciami, aby wejście wróciło na karnet.',
      ),
      publishedAt: now,
    },
    {
      id: uuidv7(),
      studioId,
      kind: 'privacy',
      version: 1,
      required: true,
      title: lt('Privacy policy', 'Polityka prywatności'),
      content: lt(
        'Harmonia Studio Ruchu processes your personal data to run your bookings and passes.',
        'Harmonia Studio Ruchu przetwarza Twoje dane osobowe w celu obsługi rezerwacji i karnetów.',
      ),
      publishedAt: now,
    },
    {
      id: uuidv7(),
      studioId,
      kind: 'marketing',
      version: 1,
      required: false,
      title: lt('News and offers by email', 'Nowości i oferty e-mailem'),
      content: lt(
        'I agree to receive news about classes and special offers by email.',
        'Zgadzam się na otrzymywanie e-mailem informacji o zajęciach i ofertach specjalnych.',
      ),
      publishedAt: now,
    },
  ]);
}
