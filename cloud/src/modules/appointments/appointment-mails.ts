import { isLocale } from '../../../../shared/i18n/locales';
import type { Knex } from '../../db/knex';
import { tFor } from '../../i18n';
import { enqueue } from '../../jobs/queue';
import { findUser, type Studio } from '../identity/index';
import type { AppointmentRow } from './appointments.rows';
import { formatDateTimeLong } from '../../../../shared/i18n/dates';

export type AppointmentMailKind = 'confirmed' | 'rejected' | 'calledOff' | 'moved';

/**
 * Tells the client what staff decided (issue 21: "the client is told either way"): a `mail.send`
 * job enqueued in the decision's transaction, rendered now in the client's language (else the
 * studio's), keyed by appointment and decision so a retried request mails once.
 */
export async function enqueueAppointmentMail(
  trx: Knex.Transaction,
  studio: Studio,
  row: AppointmentRow,
  kind: AppointmentMailKind,
  reason: string,
): Promise<void> {
  if (!row.clientId) return;
  const client = await findUser(trx, row.clientId);
  if (!client?.email) return;
  const service = await trx('appointment_services').where({ id: row.serviceId }).first('name');
  const member = await findUser(trx, row.memberId);
  const locale = isLocale(client.locale)
    ? client.locale
    : isLocale(studio.defaultLocale)
      ? studio.defaultLocale
      : 'en';
  const t = tFor(locale);
  const when = formatDateTimeLong(row.startsAt, locale, studio.timeZone);
  const vars = {
    name: client.firstName || client.email,
    studio: studio.name,
    service:
      service?.name[locale]?.value ??
      service?.name.en?.value ??
      Object.values(service?.name ?? {})[0]?.value ??
      '',
    member: member ? `${member.firstName} ${member.lastName}`.trim() : '',
    when,
    reason: reason ? t('appointments:mail.reason', { reason }) : '',
  };
  const key = `appointment.${kind}:${row.id}:${row.startsAt.toISOString()}`;
  await enqueue(
    trx,
    'mail.send',
    {
      to: client.email,
      subject: t(`appointments:mail.${kind}.subject`, vars),
      text: t(`appointments:mail.${kind}.body`, vars),
    },
    { key },
  );
}
