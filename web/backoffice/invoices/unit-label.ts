import type { TFunction } from 'i18next';

/**
 * An invoice keeps its units in its own language ("szt.", "usł.", or "szt./pcs" on a bilingual one:
 * `INVOICE_UNITS` of cloud/src/modules/invoices/invoice-orders.service.ts); a screen names them in the
 * viewer's, through i18next (`invoices:unitOfMeasure.*`; issue 25: no "usł." on an English screen).
 * Units typed by hand that are not one of these are shown as typed.
 */
const KINDS: Record<string, 'piece' | 'service'> = {
  'szt.': 'piece',
  'usł.': 'service',
  'szt./pcs': 'piece',
  'usł./service': 'service',
};

export function unitLabel(unit: string, t: TFunction): string {
  const kind = KINDS[unit.trim()];
  return kind ? t(`invoices:unitOfMeasure.${kind}`) : unit;
}
