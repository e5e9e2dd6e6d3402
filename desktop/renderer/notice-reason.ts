import type { SyncNotice } from '../../shared/contracts/ipc';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * Why the cloud decided otherwise, in the desk's language: the refusal's error key (the desk's own
 * words for the keys sync commands answer with, else the booking screens' staff texts for
 * `visit.*`), the fields an edit could not change, and at last the error's number. Null when the
 * outcome says nothing more than its status and flags (the flags are shown as badges).
 */
export function noticeReason(
  notice: Pick<SyncNotice, 'status' | 'key' | 'code' | 'fields'>,
  t: Translate,
  exists: (key: string) => boolean,
): string | null {
  if (notice.status === 'applied') return null;
  const parts: string[] = [];
  if (notice.key) {
    const own = `desktop:notices.reason.${notice.key}`;
    const booking = notice.key.startsWith('visit.')
      ? `bookings-ui:errors.${notice.key.slice('visit.'.length)}`
      : null;
    if (exists(own)) parts.push(t(own));
    else if (booking && exists(booking)) parts.push(t(booking));
    else if (notice.code !== null) parts.push(t('desktop:notices.reason.withCode', { code: notice.code }));
  } else if (notice.code !== null) {
    parts.push(t('desktop:notices.reason.withCode', { code: notice.code }));
  }
  // Fields name what an edit could not change (a partly applied updateClient, flagged); with a
  // refusal's key they only locate the refusal (e.g. the class of a booking) and add nothing.
  const fields = notice.key ? [] : Object.keys(notice.fields);
  if (fields.length > 0)
    parts.push(
      t('desktop:notices.reason.fields', {
        fields: fields
          .map((path) => path.replace(/^fields\./, ''))
          .map((f) => t(`desktop:notices.field.${f}`, { defaultValue: f }))
          .join(', '),
      }),
    );
  return parts.length > 0 ? parts.join(' ') : null;
}
