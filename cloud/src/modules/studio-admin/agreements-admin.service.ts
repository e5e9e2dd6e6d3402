import { v7 as uuidv7 } from 'uuid';
import type {
  AgreementAnswers,
  AgreementVersionInput,
  AgreementVersionView,
  PendingAgreement,
} from '../../../../shared/contracts/api/studio-admin';
import { AGREEMENT_KINDS, type AgreementKind } from '../../../../shared/domain/accounts';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import { AppError } from '../../../../shared/errors';
import type { StudioAgreementsRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';

/**
 * The studio's agreements as staff manage them (issue 25): versions are never edited, a change is a
 * new version (the client-accounts module's sign-up shows the current one). A client answers each
 * current version once; a new version of a kind they answered before is asked again at their next
 * sign-in (the front office's gate reads `pendingFor`). Every answer is a row of
 * client_agreement_acceptances (who, which version, accepted or not, when), exportable as CSV.
 */
const isKind = (k: string): k is AgreementKind => (AGREEMENT_KINDS as readonly string[]).includes(k);
const text = (value: unknown): LocaleText =>
  value && typeof value === 'object' ? (value as LocaleText) : {};
const both = (t: LocaleText) => ({ en: t.en?.value ?? '', pl: t.pl?.value ?? '' });

async function versions(db: Db, studioId: string): Promise<StudioAgreementsRow[]> {
  return db('studio_agreements')
    .where({ studioId })
    .orderBy([{ column: 'kind' }, { column: 'version', order: 'desc' }]);
}

function currentIds(rows: StudioAgreementsRow[]): Set<string> {
  const seen = new Set<string>();
  const ids = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.kind)) continue;
    seen.add(r.kind);
    ids.add(r.id);
  }
  return ids;
}

export async function agreementVersions(db: Db, studio: Studio): Promise<AgreementVersionView[]> {
  const rows = (await versions(db, studio.id)).filter((r) => isKind(r.kind));
  const counts: { agreementId: string; n: number }[] = await db('client_agreement_acceptances')
    .where({ studioId: studio.id, accepted: true })
    .groupBy('agreementId')
    .select('agreementId', db.raw('count(*)::int as n'));
  const current = currentIds(rows);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as AgreementKind,
    version: r.version,
    required: r.required,
    current: current.has(r.id),
    title: both(text(r.title)),
    content: both(text(r.content)),
    publishedAt: new Date(r.publishedAt).toISOString(),
    accepted: counts.find((c) => c.agreementId === r.id)?.n ?? 0,
  }));
}

export async function publishAgreementVersion(
  trx: Db,
  studio: Studio,
  input: AgreementVersionInput,
  now: Date,
): Promise<AgreementVersionView> {
  // One publisher at a time per studio, so two versions never get the same number.
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`studio-agreement:${studio.id}`]);
  const last: { version: number } | undefined = await trx('studio_agreements')
    .where({ studioId: studio.id, kind: input.kind })
    .orderBy('version', 'desc')
    .first('version');
  const asText = (t: { en?: string; pl?: string }): LocaleText =>
    Object.fromEntries(Object.entries(t).flatMap(([k, v]) => (v ? [[k, { value: v }]] : [])));
  const id = uuidv7();
  await trx('studio_agreements').insert({
    id,
    studioId: studio.id,
    kind: input.kind,
    version: (last?.version ?? 0) + 1,
    required: input.required,
    title: JSON.stringify(asText(input.title)),
    content: JSON.stringify(asText(input.content)),
    publishedAt: now,
  });
  return (await agreementVersions(trx, studio)).find((v) => v.id === id)!;
}

/** The current versions the client has not answered (a required one refused counts as unanswered). */
export async function pendingFor(
  db: Db,
  studio: Studio,
  userId: string,
  locale: string | null,
): Promise<PendingAgreement[]> {
  const rows = (await versions(db, studio.id)).filter((r) => isKind(r.kind));
  const current = rows.filter((r) => currentIds(rows).has(r.id));
  const answers: { agreementId: string; kind: string; accepted: boolean }[] = await db(
    'client_agreement_acceptances',
  )
    .where({ studioId: studio.id, userId })
    .select('agreementId', 'kind', 'accepted');
  return current
    .filter((r) => !answers.some((a) => a.agreementId === r.id && (a.accepted || !r.required)))
    .map((r) => ({
      id: r.id,
      kind: r.kind as AgreementKind,
      version: r.version,
      required: r.required,
      title: resolveLocaleText(text(r.title), locale, studio.defaultLocale),
      content: resolveLocaleText(text(r.content), locale, studio.defaultLocale),
      changed: answers.some((a) => a.kind === r.kind && a.agreementId !== r.id),
    }));
}

export async function answerAgreements(
  trx: Db,
  studio: Studio,
  userId: string,
  body: AgreementAnswers,
  locale: string | null,
  now: Date,
): Promise<PendingAgreement[]> {
  const pending = await pendingFor(trx, studio, userId, locale);
  const fields: Record<string, string[]> = {};
  body.answers.forEach((answer, i) => {
    const agreement = pending.find((p) => p.id === answer.id);
    if (!agreement) fields[`answers.${i}.id`] = ['not an agreement waiting for your answer'];
    else if (agreement.required && !answer.accepted)
      fields[`answers.${i}.accepted`] = ['this agreement must be accepted to use the studio'];
  });
  if (Object.keys(fields).length > 0) throw AppError.invalid(fields);
  await trx('client_agreement_acceptances').insert(
    body.answers.map((answer) => {
      const agreement = pending.find((p) => p.id === answer.id)!;
      return {
        id: uuidv7(),
        studioId: studio.id,
        userId,
        agreementId: agreement.id,
        kind: agreement.kind,
        version: agreement.version,
        accepted: answer.accepted,
        decidedAt: now,
      };
    }),
  );
  return pendingFor(trx, studio, userId, locale);
}

const csvCell = (value: string) => {
  // A leading = + - @ would be read as a formula by spreadsheets.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** Every answer on record, oldest first: client, e-mail, agreement, version, answer, time (UTC). */
export async function acceptancesCsv(db: Db, studio: Studio): Promise<string> {
  const rows: {
    firstName: string;
    lastName: string;
    email: string;
    kind: string;
    version: number;
    accepted: boolean;
    decidedAt: Date;
  }[] = await db('client_agreement_acceptances as a')
    .join('users as u', 'u.id', 'a.user_id')
    .where('a.studio_id', studio.id)
    .orderBy([{ column: 'a.decided_at' }, { column: 'a.id' }])
    .select('u.first_name', 'u.last_name', 'u.email', 'a.kind', 'a.version', 'a.accepted', 'a.decided_at');
  const lines = [['first_name', 'last_name', 'email', 'agreement', 'version', 'accepted', 'decided_at']];
  for (const r of rows)
    lines.push([
      r.firstName,
      r.lastName,
      r.email,
      r.kind,
      String(r.version),
      r.accepted ? 'yes' : 'no',
      new Date(r.decidedAt).toISOString(),
    ]);
  return `${lines.map((l) => l.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
