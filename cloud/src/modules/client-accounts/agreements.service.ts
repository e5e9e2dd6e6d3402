import { v7 as uuidv7 } from 'uuid';
import type { StudioAgreementView } from '../../../../shared/contracts/api/client-accounts';
import { AGREEMENT_KINDS, currentAgreements, type AgreementKind } from '../../../../shared/domain/accounts';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import type { StudioAgreementsRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';

/** A published agreement: its kind one of AGREEMENT_KINDS, its jsonb texts per language. */
export type Agreement = Omit<StudioAgreementsRow, 'kind' | 'title' | 'content'> & {
  kind: AgreementKind;
  title: LocaleText;
  content: LocaleText;
};

const isAgreementKind = (kind: string): kind is AgreementKind =>
  (AGREEMENT_KINDS as readonly string[]).includes(kind);

/** The current version of each agreement the studio publishes (rows of an unknown kind are left out). */
export async function publishedAgreements(db: Db, studioId: string): Promise<Agreement[]> {
  const rows = await db('studio_agreements')
    .where({ studioId })
    .orderBy([{ column: 'kind' }, { column: 'version', order: 'desc' }]);
  return currentAgreements(
    rows.flatMap((row) => {
      const { kind } = row;
      return isAgreementKind(kind)
        ? [{ ...row, kind, title: row.title as LocaleText, content: row.content as LocaleText }]
        : [];
    }),
  );
}

export function presentAgreement(a: Agreement, locale: string | null, studio: Studio): StudioAgreementView {
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
  agreements: readonly Agreement[],
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
