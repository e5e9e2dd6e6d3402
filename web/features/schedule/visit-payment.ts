import type { TFunction } from 'i18next';
import type { ClientVisitView, MyVisitView } from '../../../shared/contracts/api/bookings';
import { serviceName } from './week';

type PaidVisit = Pick<ClientVisitView | MyVisitView, 'pass' | 'payment' | 'contract'>;

/**
 * What paid a visit, in the screen's language: the pass, the client contract (membership) by the name
 * it was sold under, a free class, or the desk. `audience` picks the staff or the client wording
 * (`bookings-ui:staff.*` / `bookings-ui:client.*`). Null when nothing pays yet (a waiting client with
 * no pass; staff see "No pass" instead).
 */
export function visitPaymentLabel(
  visit: PaidVisit,
  t: TFunction,
  language: string,
  audience: 'staff' | 'client',
): string | null {
  const name = (text: Parameters<typeof serviceName>[0]) => serviceName(text, language, null);
  if (visit.contract)
    return audience === 'staff'
      ? t('bookings-ui:staff.contract', { name: name(visit.contract.name) })
      : t('bookings-ui:client.paidWithContract', { contract: name(visit.contract.name) });
  if (visit.pass)
    return audience === 'staff'
      ? name(visit.pass.name)
      : t('bookings-ui:client.paidWith', { pass: name(visit.pass.name) });
  if (visit.payment === 'free')
    return audience === 'staff' ? t('bookings-ui:staff.free') : t('bookings-ui:client.paidFree');
  if (visit.payment === 'desk')
    return audience === 'staff' ? t('bookings-ui:staff.paysAtDesk') : t('bookings-ui:client.paidAtDesk');
  return audience === 'staff' ? t('bookings-ui:staff.noPass') : null;
}
