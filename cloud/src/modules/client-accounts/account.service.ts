import { v7 as uuidv7 } from 'uuid';
import type {
  Account,
  AccountPatch,
  MarketingConsent,
} from '../../../../shared/contracts/api/client-accounts';
import { resolveLocaleText } from '../../../../shared/domain/locale-text';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { readAll } from '../../db/read-all';
import type { Studio, User } from '../identity/index';
import { getProfile, getSettings, saveSettings, updateProfile } from './accounts.service';
import { publishedAgreements } from './agreements.service';

/**
 * The client's own account as one resource (front office `PATCH account`, issue 25): the profile and
 * settings routes' data plus their answer to the studio's marketing consent. The marketing answer
 * is a new row of `client_agreement_acceptances` (the record of who answered which version when is
 * never rewritten); campaigns go by the latest row.
 */
export async function getAccount(
  db: Db,
  studio: Studio,
  user: User,
  locale: string | null,
): Promise<Account> {
  // Also the answer of `patchAccount`, on its transaction: readAll reads one after another there.
  const [profile, settings, marketingConsent] = await readAll(db, [
    () => getProfile(db, studio, user.id, true),
    () => getSettings(db, user),
    () => marketingConsentOf(db, studio, user.id, locale),
  ]);
  return { profile, settings, marketingConsent };
}

async function marketingConsentOf(
  db: Db,
  studio: Studio,
  userId: string,
  locale: string | null,
): Promise<MarketingConsent> {
  const current = (await publishedAgreements(db, studio.id)).find((a) => a.kind === 'marketing') ?? null;
  const latest = await db('client_agreement_acceptances')
    .where({ studioId: studio.id, userId, kind: 'marketing' })
    .orderBy([
      { column: 'decidedAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first('accepted', 'decidedAt');
  return {
    agreement: current && {
      id: current.id,
      version: current.version,
      title: resolveLocaleText(current.title, locale, studio.defaultLocale),
      content: resolveLocaleText(current.content, locale, studio.defaultLocale),
    },
    accepted: latest?.accepted ?? false,
    decidedAt: latest ? new Date(latest.decidedAt).toISOString() : null,
  };
}

/**
 * Applies what the patch names, in the caller's transaction: profile fields through the profile
 * rules (no future birth date, carried to studio records), language and channels merged with the
 * saved settings, and a marketing answer recorded against the current version (400 when the studio
 * asks for no marketing consent; an answer equal to the latest one on that version adds no row).
 */
export async function patchAccount(
  trx: Db,
  studio: Studio,
  user: User,
  input: AccountPatch,
  now: Date,
): Promise<void> {
  const profileKeys = ['firstName', 'lastName', 'phone', 'birthDate', 'sex'] as const;
  if (profileKeys.some((k) => input[k] !== undefined)) {
    await updateProfile(
      trx,
      studio,
      user.id,
      {
        firstName: input.firstName ?? user.firstName,
        lastName: input.lastName ?? user.lastName,
        phone: input.phone,
        birthDate: input.birthDate,
        sex: input.sex,
      },
      now,
    );
  }
  if (input.locale !== undefined || input.notifications !== undefined) {
    const saved = await getSettings(trx, user);
    await saveSettings(
      trx,
      user,
      {
        locale: input.locale ?? saved.locale ?? (studio.defaultLocale === 'en' ? 'en' : 'pl'),
        notifications: { ...saved.notifications, ...input.notifications },
      },
      now,
    );
  }
  if (input.marketingConsent !== undefined) {
    const current = (await publishedAgreements(trx, studio.id)).find((a) => a.kind === 'marketing');
    if (!current) throw AppError.invalid({ marketingConsent: ['the studio asks for no marketing consent'] });
    const latest = await trx('client_agreement_acceptances')
      .where({ studioId: studio.id, userId: user.id, kind: 'marketing' })
      .orderBy([
        { column: 'decidedAt', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first('agreementId', 'accepted');
    if (latest?.agreementId !== current.id || latest.accepted !== input.marketingConsent) {
      await trx('client_agreement_acceptances').insert({
        id: uuidv7(),
        studioId: studio.id,
        userId: user.id,
        agreementId: current.id,
        kind: 'marketing',
        version: current.version,
        accepted: input.marketingConsent,
        decidedAt: now,
      });
    }
  }
}
