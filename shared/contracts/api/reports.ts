import { z } from 'zod';
import { calendarDate, uuid } from './common';

/**
 * Management insight (issue 20): the back-office dashboard, the report catalog and its reports, the
 * instructors' pay rates and the payroll report. Money is in minor units (grosze) of the studio's
 * currency; days are the studio's calendar days.
 */

/** The longest period one report covers (a year, leap years included). */
export const REPORT_RANGE_MAX_DAYS = 366;
/** Rows a report answers on screen; the export streams every row. */
export const REPORT_SCREEN_ROWS = 500;

export const REPORT_IDS = [
  'sales-by-item',
  'sales-by-method',
  'sales-by-day',
  'payments',
  'outstanding',
  'attendance',
  'retention',
  'pass-liability',
  'wallet-balances',
  'payroll',
  'payroll-summary',
  'voucher-liability',
  'stock',
  'fiscal-documents',
] as const;
export const ReportIdSchema = z.enum(REPORT_IDS);
export type ReportId = z.infer<typeof ReportIdSchema>;

export const REPORT_GROUPS = ['sales', 'attendance', 'clients', 'payroll'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

export const REPORT_FILTERS = [
  'location',
  'instructor',
  'classService',
  'pricingOption',
  'method',
  'groupBy',
] as const;
export type ReportFilter = (typeof REPORT_FILTERS)[number];

export const ATTENDANCE_GROUPS = ['classService', 'instructor', 'hour', 'weekday'] as const;

const DAY_MS = 86_400_000;
export const REPORT_RANGE_MESSAGES = {
  order: 'the end is before the start',
  span: `at most ${REPORT_RANGE_MAX_DAYS} days`,
} as const;

const ReportFilterFields = {
  from: calendarDate(),
  to: calendarDate(),
  location: uuid().optional(),
  instructor: uuid().optional(),
  classService: uuid().optional(),
  pricingOption: uuid().optional(),
  method: z.coerce.number().int().min(0).max(99).optional(),
  groupBy: z.enum(ATTENDANCE_GROUPS).optional(),
};

function checkRange(q: { from: string; to: string }, ctx: z.RefinementCtx): void {
  if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_RANGE_MESSAGES.order });
  else if ((Date.parse(q.to) - Date.parse(q.from)) / DAY_MS >= REPORT_RANGE_MAX_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_RANGE_MESSAGES.span });
}

export const ReportQuerySchema = z.strictObject(ReportFilterFields).superRefine(checkRange);
export type ReportQuery = z.infer<typeof ReportQuerySchema>;

export const ReportExportQuerySchema = z
  .strictObject({ ...ReportFilterFields, format: z.enum(['csv', 'xlsx']) })
  .superRefine(checkRange);
export type ReportExportQuery = z.infer<typeof ReportExportQuerySchema>;

export const ReportParamsSchema = z.object({ uuid: z.string(), report: ReportIdSchema });

/**
 * How a column's values read: money in minor units, counts, a percentage (0–100, one decimal), text,
 * or `label`: an i18n key (`enums:paymentMethod.2`) shown in the viewer's language.
 */
export const ReportColumnKindSchema = z.enum([
  'text',
  'label',
  'date',
  'datetime',
  'money',
  'count',
  'percent',
]);
export type ReportColumnKind = z.infer<typeof ReportColumnKindSchema>;

export const ReportColumnSchema = z.object({
  key: z.string(),
  kind: ReportColumnKindSchema,
  /** Summed into the report's totals row. */
  total: z.boolean(),
});
export type ReportColumn = z.infer<typeof ReportColumnSchema>;

export const ReportCellSchema = z.union([z.string(), z.number(), z.null()]);
export const ReportRowSchema = z.record(z.string(), ReportCellSchema);
export type ReportRow = z.infer<typeof ReportRowSchema>;

export const ReportCatalogItemSchema = z.object({
  id: ReportIdSchema,
  group: z.enum(REPORT_GROUPS),
  filters: z.array(z.enum(REPORT_FILTERS)),
});
export const ReportCatalogSchema = z.object({
  items: z.array(ReportCatalogItemSchema),
  /** What the filters offer: the studio's locations, instructors, class services, pricing options. */
  options: z.object({
    locations: z.array(z.object({ id: z.string(), name: z.string() })),
    instructors: z.array(z.object({ id: z.string(), name: z.string() })),
    classServices: z.array(z.object({ id: z.string(), name: z.string() })),
    pricingOptions: z.array(z.object({ id: z.string(), name: z.string() })),
    methods: z.array(z.number()),
  }),
});
export type ReportCatalog = z.infer<typeof ReportCatalogSchema>;

export const ReportDataSchema = z.object({
  id: ReportIdSchema,
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  columns: z.array(ReportColumnSchema),
  rows: z.array(ReportRowSchema),
  /** The sums of the `total` columns over every row (not only the rows shown). */
  totals: z.record(z.string(), z.number()),
  rowCount: z.number().int(),
  /** More rows than REPORT_SCREEN_ROWS: the export holds them all. */
  truncated: z.boolean(),
});
export type ReportData = z.infer<typeof ReportDataSchema>;

/**
 * Which locations the dashboard covers: `location` one of them; else `scope` `mine` (the default) the
 * member's own locations (every location when they have none), `all` every location.
 */
export const DashboardQuerySchema = z.strictObject({
  location: uuid().optional(),
  scope: z.enum(['mine', 'all']).optional(),
});

export type DashboardQuery = z.infer<typeof DashboardQuerySchema>;

/** The member's own locations (`PUT backoffice/dashboard/locations`); empty: none, the dashboard shows all. */
export const MemberLocationsSchema = z.strictObject({ locations: z.array(uuid()).max(100) });
export type MemberLocations = z.infer<typeof MemberLocationsSchema>;

export const DashboardClassSchema = z.object({
  id: z.string(),
  startsAt: z.string(),
  name: z.string(),
  location: z.string(),
  booked: z.number().int(),
  capacity: z.number().int(),
  checkedIn: z.number().int(),
  waiting: z.number().int(),
});

export const DashboardSchema = z.object({
  today: z.string(),
  /** The member's own locations (ids), and the locations the figures cover (null: every location). */
  myLocations: z.array(z.string()),
  locations: z.array(z.string()).nullable(),
  currency: z.string(),
  classes: z.array(DashboardClassSchema),
  revenue: z.object({
    today: z.number().int(),
    month: z.number().int(),
    /** Last month up to the same day of the month: the fair comparison mid-month. */
    lastMonthToDate: z.number().int(),
    lastMonth: z.number().int(),
  }),
  newClients: z.object({ today: z.number().int(), month: z.number().int() }),
  expiring: z.object({ passes: z.number().int(), contracts: z.number().int() }),
  failedInstalments: z.number().int(),
  waitingList: z.number().int(),
  revenueByDay: z.array(z.object({ day: z.string(), amount: z.number().int() })),
  /** Visits attended over the last eight weeks by weekday (1 Monday … 7 Sunday) and hour. */
  attendanceByWeekday: z.array(z.object({ weekday: z.number().int(), visits: z.number().int() })),
  attendanceByHour: z.array(z.object({ hour: z.number().int(), visits: z.number().int() })),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

/** Instructors' pay rates (payroll). */
export const PAY_RATE_KINDS = ['perClass', 'perAttendee', 'perHour', 'revenuePercent'] as const;
export const PayRateKindSchema = z.enum(PAY_RATE_KINDS);
export type PayRateKind = z.infer<typeof PayRateKindSchema>;

export const PayRateInputSchema = z
  .strictObject({
    instructorId: uuid(),
    /** null: the instructor's rate for every class service without one of its own. */
    classServiceId: uuid().nullable(),
    kind: PayRateKindSchema,
    /** Minor units per class, attendee or hour; basis points of revenue for `revenuePercent`. */
    amount: z.number().int().min(0).max(100_000_00),
    /** For `perAttendee`: the least a class pays, however few came. */
    minimum: z.number().int().min(0).max(100_000_00).default(0),
  })
  .superRefine((r, ctx) => {
    if (r.kind === 'revenuePercent' && r.amount > 10_000)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'at most 100% (10000 basis points)' });
  });
export type PayRateInput = z.infer<typeof PayRateInputSchema>;

export const PayrollValuesBodySchema = z.strictObject({
  rates: z.array(PayRateInputSchema).min(1).max(500),
  /** Rates to remove, by instructor and class service. */
  remove: z
    .array(z.strictObject({ instructorId: uuid(), classServiceId: uuid().nullable() }))
    .max(500)
    .default([]),
});
export type PayrollValuesBody = z.infer<typeof PayrollValuesBodySchema>;

export const PayRateSchema = z.object({
  instructorId: z.string(),
  instructorName: z.string(),
  classServiceId: z.string().nullable(),
  classServiceName: z.string().nullable(),
  kind: PayRateKindSchema,
  amount: z.number().int(),
  minimum: z.number().int(),
});
export type PayRate = z.infer<typeof PayRateSchema>;
export const PayRatesSchema = z.object({
  items: z.array(PayRateSchema),
  instructors: z.array(z.object({ id: z.string(), name: z.string() })),
  classServices: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type PayRates = z.infer<typeof PayRatesSchema>;

/** The studio's data export (a zip of CSV files made by a background job). */
export const StudioExportViewSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'ready', 'failed']),
  /** 0–100: the share of the studio's tables written so far. */
  progress: z.number().int(),
  /** Bytes of the zip, once ready. */
  size: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type StudioExportView = z.infer<typeof StudioExportViewSchema>;
export const StudioExportListSchema = z.object({ items: z.array(StudioExportViewSchema) });

/** DAC7 (the Polish DPI rules): what the platform reports of a studio that sells through it, per year. */
export const DAC7_FIELDS = [
  'sellerName',
  'taxId',
  'addressLine',
  'postalCode',
  'city',
  'country',
  'iban',
  /** An individual seller (sole trader) only: */
  'firstName',
  'lastName',
  'birthDate',
] as const;
/** An entity (a company) or an individual (a sole trader, identified by name and date of birth). */
export const DAC7_SELLER_KINDS = ['entity', 'individual'] as const;
export const Dac7SellerKindSchema = z.enum(DAC7_SELLER_KINDS);

/** Who the studio is as a seller (`PUT dac7-report/seller`); an individual needs names and birth date. */
export const Dac7SellerBodySchema = z
  .strictObject({
    kind: Dac7SellerKindSchema,
    firstName: z.string().trim().max(200).default(''),
    lastName: z.string().trim().max(200).default(''),
    birthDate: calendarDate().nullable().default(null),
  })
  .superRefine((b, ctx) => {
    if (b.kind !== 'individual') return;
    if (!b.firstName) ctx.addIssue({ code: 'custom', path: ['firstName'], message: 'required' });
    if (!b.lastName) ctx.addIssue({ code: 'custom', path: ['lastName'], message: 'required' });
    if (!b.birthDate) ctx.addIssue({ code: 'custom', path: ['birthDate'], message: 'required' });
    else if (b.birthDate < '1900-01-01' || b.birthDate > new Date().toISOString().slice(0, 10))
      ctx.addIssue({ code: 'custom', path: ['birthDate'], message: 'a date of birth in the past' });
  });
export type Dac7SellerBody = z.infer<typeof Dac7SellerBodySchema>;

export const Dac7ReportSchema = z.object({
  year: z.number().int(),
  /** TaxReportStatus (spec §3): `requireInput` until the identification is complete. */
  status: z.enum(['requireInput', 'completed']),
  /** What to fill in (the invoice settings' seller details and bank account; an individual's names and birth date). */
  missing: z.array(z.enum(DAC7_FIELDS)),
  seller: z.object({
    kind: Dac7SellerKindSchema,
    name: z.string(),
    /** An individual's names and date of birth (empty for an entity). */
    firstName: z.string(),
    lastName: z.string(),
    birthDate: z.string().nullable(),
    taxId: z.string().nullable(),
    address: z.string(),
    country: z.string(),
    iban: z.string().nullable(),
  }),
  currency: z.string(),
  quarters: z.array(
    z.object({
      quarter: z.number().int(),
      /** Paid to the studio through the platform (online and card payments, less refunds), minor units. */
      consideration: z.number().int(),
      /** Sales paid through the platform. */
      activities: z.number().int(),
      /** Fees the platform operator charged the studio in the quarter (`platform_fees`), minor units. */
      fees: z.number().int(),
    }),
  ),
});
export type Dac7Report = z.infer<typeof Dac7ReportSchema>;
export const Dac7CollectionSchema = z.object({ items: z.array(Dac7ReportSchema) });
export type Dac7SellerKind = z.infer<typeof Dac7SellerKindSchema>;
