import type { TFunction } from 'i18next';
import { ApiError, NetworkError } from '../lib/api-client';
import { errorCodeLabel } from '../lib/form-errors';

/** Why the kiosk could not help, in words a client understands (and where to go: the desk). */
export function kioskErrorMessage(error: unknown, t: TFunction): string {
  if (error instanceof NetworkError) return t('errors.offline');
  if (!(error instanceof ApiError)) return t('errors.generic', { code: '100-100' });
  const firstField = Object.values(error.fields)[0]?.[0];
  switch (error.key) {
    case 'kiosk.clientNotFound':
      return t('errors.clientNotFound');
    case 'kiosk.clientAmbiguous':
      return t('errors.clientAmbiguous');
    case 'kiosk.methodDisabled':
      return t('errors.methodDisabled');
    case 'kiosk.noPassCovers':
      return reasonMessage(firstField ?? 'noPasses', t);
    case 'visit.tooEarly':
      return t('errors.tooEarly');
    case 'visit.statusNotAllowed':
      return firstField === 'waitingList' ? t('errors.waitingList') : t('errors.unpaid');
    case 'kiosk.needsConnection':
      return t('errors.needsConnection');
    case 'kiosk.notSignedIn':
      return t('errors.notSignedIn');
    case 'kiosk.stationNotSetUp':
      return t('errors.stationNotSetUp');
    case 'station.cloudUnreachable':
      return t('errors.offline');
    case 'request.invalid':
      return t('errors.invalid');
    case 'rateLimit.exceeded':
      // Too many identifications at this kiosk (or the studio's kiosks): a short pause, said plainly.
      return t('errors.tooManyAttempts');
    default:
      if (error.key?.startsWith('visit.')) return reasonMessage(error.key.slice('visit.'.length), t);
      return t('errors.generic', { code: errorCodeLabel(error) });
  }
}

/** A pass rule's or booking rule's reason → a sentence; unknown reasons get the general one. */
export function reasonMessage(reason: string, t: TFunction): string {
  return t(`reasons.${reason}`, { defaultValue: t('reasons.other') });
}
