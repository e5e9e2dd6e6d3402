import { v7 as uuidv7 } from 'uuid';
import {
  PayRateKindSchema,
  type PayRate,
  type PayRates,
  type PayrollValuesBody,
} from '../../../../shared/contracts/api/reports';
import { resolveLocaleText } from '../../../../shared/domain/locale-text';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { Studio } from '../identity/index';

type Named = { id: string; name: string };

/** Staff members of the studio (who may teach), by name. */
export async function studioInstructors(db: Db, studioId: string): Promise<Named[]> {
  const rows = await db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.studio_id': studioId, 'm.is_member': true })
    .whereNull('m.archived_at')
    .orderBy([{ column: 'u.last_name' }, { column: 'u.first_name' }, { column: 'u.id' }])
    .select<Array<{ id: string; firstName: string; lastName: string }>>('u.id', 'u.firstName', 'u.lastName');
  return rows.map((r) => ({ id: r.id, name: `${r.firstName} ${r.lastName}`.trim() }));
}

export async function studioClassServices(db: Db, studio: Studio, locale: string | null): Promise<Named[]> {
  const rows = await db('class_services')
    .where({ studioId: studio.id })
    .whereNull('archivedAt')
    .select('id', 'name');
  return rows
    .map((r) => ({ id: r.id, name: resolveLocaleText(r.name, locale, studio.defaultLocale) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The instructors' pay rates with what the form needs to add more (manager-tools/payroll-values). */
export async function payRates(db: Db, studio: Studio, locale: string | null): Promise<PayRates> {
  const [rows, instructors, classServices] = await Promise.all([
    db('instructor_pay_rates').where({ studioId: studio.id }).select('*'),
    studioInstructors(db, studio.id),
    studioClassServices(db, studio, locale),
  ]);
  const people = new Map(instructors.map((i) => [i.id, i.name]));
  const services = new Map(classServices.map((s) => [s.id, s.name]));
  const items: PayRate[] = rows.map((r) => ({
    instructorId: r.instructorId,
    instructorName: people.get(r.instructorId) ?? '',
    classServiceId: r.classServiceId,
    classServiceName: r.classServiceId ? (services.get(r.classServiceId) ?? '') : null,
    kind: PayRateKindSchema.parse(r.kind),
    amount: r.amount,
    minimum: r.minimum,
  }));
  items.sort(
    (a, b) =>
      a.instructorName.localeCompare(b.instructorName) ||
      (a.classServiceName ?? '').localeCompare(b.classServiceName ?? ''),
  );
  return { items, instructors, classServices };
}

/**
 * Sets rates in bulk (one transaction): each given rate replaces the instructor's rate for that class
 * service (or the default), `remove` deletes rates. Instructors and class services must be the
 * studio's (404 otherwise, naming nothing of another studio).
 */
export async function setPayRates(
  trx: Knex.Transaction,
  studio: Studio,
  body: PayrollValuesBody,
  now: Date,
): Promise<void> {
  const people = new Set((await studioInstructors(trx, studio.id)).map((i) => i.id));
  const wantedServices = [
    ...new Set(
      [...body.rates, ...body.remove].map((r) => r.classServiceId).filter((id): id is string => id !== null),
    ),
  ];
  const services =
    wantedServices.length === 0
      ? new Set<string>()
      : new Set(
          (
            await trx('class_services')
              .where({ studioId: studio.id })
              .whereIn('id', wantedServices)
              .select('id')
          ).map((s) => s.id as string),
        );
  for (const r of [...body.rates, ...body.remove]) {
    if (!people.has(r.instructorId)) throw AppError.notFound('instructor');
    if (r.classServiceId !== null && !services.has(r.classServiceId)) throw AppError.notFound('classService');
  }
  const rateOf = (r: { instructorId: string; classServiceId: string | null }) => {
    const q = trx('instructor_pay_rates').where({ studioId: studio.id, instructorId: r.instructorId });
    return r.classServiceId === null
      ? q.whereNull('classServiceId')
      : q.where({ classServiceId: r.classServiceId });
  };
  for (const r of body.remove) await rateOf(r).delete();
  for (const r of body.rates) {
    const minimum = r.kind === 'perAttendee' ? r.minimum : 0;
    const updated = await rateOf(r).update({ kind: r.kind, amount: r.amount, minimum, updatedAt: now });
    if (updated === 0)
      await trx('instructor_pay_rates').insert({
        id: uuidv7(),
        studioId: studio.id,
        instructorId: r.instructorId,
        classServiceId: r.classServiceId,
        kind: r.kind,
        amount: r.amount,
        minimum,
      });
  }
}
