import { z } from 'zod';
import { isTaxOfficeCode } from '../../domain/accounting/tax-offices';
import { calendarDate, email, requiredText, text } from './common';

/**
 * The accountant's files (issue 19): JPK_FA(4) and the JPK_V7M(3) sales records as XML valid against
 * the Ministry of Finance's schemas (`shared/spec/jpk`), and the sales register as CSV and XLSX.
 */

/** The first and last day the JPK schemas take (JPK_FA(4) TData: 2016-07-01 to 2030-01-01). */
export const JPK_RANGE = { min: '2016-07-01', max: '2029-12-31' } as const;
/** The longest range one file covers. */
export const ACCOUNTING_RANGE_MAX_DAYS = 366;
/** The first month JPK_V7M(3) is filed for (it replaced JPK_V7M(2) from February 2026). */
export const JPK_V7M3_FIRST_MONTH = '2026-02';

export const ACCOUNTING_RANGE_MESSAGES = {
  order: 'the end is before the start',
  span: `at most ${ACCOUNTING_RANGE_MAX_DAYS} days`,
  outside: `a date from ${JPK_RANGE.min} to ${JPK_RANGE.max}`,
  month: 'JPK_V7M covers one calendar month: from its first to its last day',
  v7m3: `JPK_V7M(3) covers months from ${JPK_V7M3_FIRST_MONTH}`,
} as const;

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS;

export const AccountingRangeQuerySchema = z
  .strictObject({ from: calendarDate(), to: calendarDate() })
  .superRefine((q, ctx) => {
    for (const key of ['from', 'to'] as const)
      if (q[key] < JPK_RANGE.min || q[key] > JPK_RANGE.max)
        ctx.addIssue({ code: 'custom', path: [key], message: ACCOUNTING_RANGE_MESSAGES.outside });
    if (q.to < q.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: ACCOUNTING_RANGE_MESSAGES.order });
    else if (daysBetween(q.from, q.to) >= ACCOUNTING_RANGE_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: ACCOUNTING_RANGE_MESSAGES.span });
  });
export type AccountingRangeQuery = z.infer<typeof AccountingRangeQuerySchema>;

/** The last day of the month of a `YYYY-MM-DD` day. */
export function lastDayOfMonth(day: string): string {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${day.slice(0, 7)}-${String(last).padStart(2, '0')}`;
}

/** Whether a range is one whole calendar month (what a JPK_V7M file covers). */
export function isWholeMonth(from: string, to: string): boolean {
  return from.endsWith('-01') && to === lastDayOfMonth(from);
}

export const AccountingMonthQuerySchema = AccountingRangeQuerySchema.superRefine((q, ctx) => {
  if (!isWholeMonth(q.from, q.to))
    ctx.addIssue({ code: 'custom', path: ['to'], message: ACCOUNTING_RANGE_MESSAGES.month });
  else if (q.from.slice(0, 7) < JPK_V7M3_FIRST_MONTH)
    ctx.addIssue({ code: 'custom', path: ['from'], message: ACCOUNTING_RANGE_MESSAGES.v7m3 });
});

export const TAX_OFFICE_MESSAGE = 'not a tax office code of the Ministry of Finance list';

export const AccountingSettingsInputSchema = z
  .strictObject({
    taxOfficeCode: z.string().trim().refine(isTaxOfficeCode, TAX_OFFICE_MESSAGE),
    email: email(),
    province: requiredText(36),
    county: requiredText(36),
    commune: requiredText(36),
    street: text(65).default(''),
    houseNumber: requiredText(9),
    flatNumber: text(10).default(''),
    /** A sole trader (natural person): JPK_V7M names them with their first name, surname and birth date. */
    naturalPerson: z.boolean().default(false),
    firstName: text(30).default(''),
    lastName: text(81).default(''),
    birthDate: calendarDate().nullable().default(null),
  })
  .superRefine((v, ctx) => {
    if (!v.naturalPerson) return;
    if (!v.firstName) ctx.addIssue({ code: 'custom', path: ['firstName'], message: 'required' });
    if (!v.lastName) ctx.addIssue({ code: 'custom', path: ['lastName'], message: 'required' });
    if (!v.birthDate) ctx.addIssue({ code: 'custom', path: ['birthDate'], message: 'required' });
  });
export type AccountingSettingsInput = z.infer<typeof AccountingSettingsInputSchema>;

export const AccountingSettingsSchema = z.object({
  taxOfficeCode: z.string(),
  email: z.string(),
  province: z.string(),
  county: z.string(),
  commune: z.string(),
  street: z.string(),
  houseNumber: z.string(),
  flatNumber: z.string(),
  naturalPerson: z.boolean(),
  firstName: z.string(),
  lastName: z.string(),
  birthDate: z.string().nullable(),
});
export type AccountingSettings = z.infer<typeof AccountingSettingsSchema>;

export const AccountingSettingsViewSchema = z.object({
  settings: AccountingSettingsSchema.nullable(),
  /** The seller's invoice settings are complete (name, address, NIP): the JPK files need them. */
  sellerReady: z.boolean(),
});
export type AccountingSettingsView = z.infer<typeof AccountingSettingsViewSchema>;

/** What the files of a range hold, for the screen before downloading. */
export const AccountingSummarySchema = z.object({
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  invoices: z.number(),
  corrections: z.number(),
  /** Invoices for fiscal receipts (FP): in the records, outside the tax due of the records. */
  forReceipts: z.number(),
  receipts: z.number(),
  receiptDays: z.number(),
  /** Gross of invoices and corrections (PLN ones) plus receipts, in minor units. */
  gross: z.number(),
  wholeMonth: z.boolean(),
});
export type AccountingSummary = z.infer<typeof AccountingSummarySchema>;
