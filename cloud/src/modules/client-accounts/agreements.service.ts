import { v7 as uuidv7 } from 'uuid';
import type { StudioAgreementView } from '../../../../shared/contracts/api/client-accounts';
import {
  currentAgreements,
  type AgreementKind,
  type PublishedAgreement,
} from '../../../../shared/domain/accounts';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/studio.model';

export interface AgreementRow extends PublishedAgreement {
  id: string;
  studioId: string;
  title: LocaleText;
  content: LocaleText;
  publishedAt: Date;
}

/** The current version of each agreement the studio publishes. */
export async function publishedAgreements(db: Db, studioId: string): Promise<AgreementRow[]> {
  const rows = (await db('studio_agreements')
    .where('studio_id', studioId)
    .orderBy([{ column: 'kind' }, { column: 'version', order: 'desc' }])) as AgreementRow[];
  return currentAgreements(rows);
}

export function presentAgreement(
  a: AgreementRow,
  locale: string | null,
  studio: Studio,
): StudioAgreementView {
  return {
    id: a.id,
    kind: a.kind,
    version: a.version,
    required: a.required,
    title: resolveLocaleText(a.title, locale, studio.defaultLocale),
    content: resolveLocaleText(a.content, locale, studio.defaultLocale),
    publishedAt: new Date(a.publishedAt).toISOString(),
  };
}

/**
 * Records what the client answered to each published agreement, with its version and time. A
 * required agreement is only ever recorded accepted (the caller refused the sign-up otherwise); an
 * optional one is recorded as answered (unanswered = refused).
 */
export async function recordAcceptances(
  trx: Db,
  studioId: string,
  userId: string,
  agreements: readonly AgreementRow[],
  answers: Partial<Record<AgreementKind, boolean>>,
  now: Date,
): Promise<void> {
  if (agreements.length === 0) return;
  await trx('client_agreement_acceptances').insert(
    agreements.map((a) => ({
      id: uuidv7(),
      studioId,
      userId,
      agreementId: a.id,
      kind: a.kind,
      version: a.version,
      accepted: answers[a.kind] === true,
      decidedAt: now,
    })),
  );
}
