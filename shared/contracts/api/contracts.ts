import { z } from 'zod';
import { ContractActivationType } from '../../enums/pricing-options';
import {
  CLIENT_CONTRACT_STATUSES,
  CONTRACT_PERIOD_UNITS,
  INSTALMENT_KINDS,
  INSTALMENT_STATUSES,
} from '../../domain/contracts';
import {
  PRICE_MAX,
  PRICING_OPTION_DESCRIPTION_MAX,
  PRICING_OPTION_NAME_MAX,
  PRICING_OPTION_SERVICE_TYPES,
  PricingOptionRestrictionInitSchema,
  PricingOptionViewSchema,
  RestrictionsSchema,
  TaxViewSchema,
} from './catalog';
import { text, uuid, calendarDate } from './common';

/**
 * Contracts (memberships) and client contracts: the back-office calls `contract/init`, `/all`,
 * `/{contract}`, a client's `client-contract/all` and `PATCH client-contract/{clientContract}` under
 * `/api/v4/{uuid}/...`; the front office's `pricing/contracts` and `contracts`; and the public API's
 * contract calls under `/api/v2/public/...` (API key). Money is integer minor units.
 */

export const CONTRACT_PERIOD_LENGTH_MAX = 24;
export const CONTRACT_DURATION_MAX = 120;
export const CONTRACT_NOTICE_MAX = 12;

const LocaleTextViewSchema = z.record(z.string(), z.object({ value: z.string() }));
const localeText = (max: number, required = true) =>
  z
    .strictObject({
      en: z.strictObject({ value: text(max) }).optional(),
      pl: z.strictObject({ value: text(max) }).optional(),
    })
    .refine((v) => !required || Object.values(v).some((t) => t && t.value !== ''), 'required');
const localDate = () => calendarDate();
const money = () =>
  z
    .number({ error: 'a number is required' })
    .int('in minor units (grosze, cents)')
    .min(0, 'must not be negative')
    .max(PRICE_MAX, 'too large');
const ACTIVATION_TYPES = Object.values(ContractActivationType);

const contractFields = {
  name: localeText(PRICING_OPTION_NAME_MAX),
  description: localeText(PRICING_OPTION_DESCRIPTION_MAX, false).optional(),
  /** Price of one period. */
  price: money(),
  periodUnit: z.enum(CONTRACT_PERIOD_UNITS, { error: 'week or month' }),
  periodLength: z.number().int().min(1, 'at least 1').max(CONTRACT_PERIOD_LENGTH_MAX),
  /** Number of periods; null = open-ended. */
  durationPeriods: z.number().int().min(1, 'at least 1').max(CONTRACT_DURATION_MAX).nullable(),
  activationType: z.union(
    ACTIVATION_TYPES.map((v) => z.literal(v)),
    { error: 'invalid value' },
  ),
  proRata: z.boolean().optional(),
  serviceTypes: z
    .array(z.enum(PRICING_OPTION_SERVICE_TYPES as [string, ...string[]]))
    .min(1, 'choose at least one kind of service')
    .max(PRICING_OPTION_SERVICE_TYPES.length),
  restrictions: RestrictionsSchema.optional(),
  noticePeriods: z.number().int().min(0).max(CONTRACT_NOTICE_MAX).optional(),
  signUpFee: money().optional(),
  taxId: uuid().nullable().optional(),
  sellAtDesk: z.boolean().optional(),
  sellOnline: z.boolean().optional(),
  position: z.number().int().min(0).max(10_000).optional(),
};

export const ContractInputSchema = z.strictObject(contractFields);
export type ContractInput = z.infer<typeof ContractInputSchema>;
export const ContractPatchSchema = z.strictObject({
  ...Object.fromEntries(Object.entries(contractFields).map(([k, s]) => [k, s.optional()])),
  archived: z.boolean().optional(),
}) as unknown as z.ZodType<Partial<ContractInput> & { archived?: boolean }>;
export type ContractPatch = Partial<ContractInput> & { archived?: boolean };

export type ContractRestrictions = z.infer<typeof RestrictionsSchema>;

/** A contract's terms as every view shows them (money in minor units). */
const contractTerms = {
  price: z.number(),
  currency: z.string(),
  periodUnit: z.enum(CONTRACT_PERIOD_UNITS),
  periodLength: z.number(),
  durationPeriods: z.number().nullable(),
  activationType: z.number(),
  proRata: z.boolean(),
};

export const ContractViewSchema = z.object({
  id: z.string(),
  name: LocaleTextViewSchema,
  description: LocaleTextViewSchema,
  ...contractTerms,
  serviceTypes: z.array(z.string()),
  restrictions: PricingOptionViewSchema.shape.restrictions,
  noticePeriods: z.number(),
  signUpFee: z.number(),
  taxId: z.string().nullable(),
  taxRateBp: z.number().nullable(),
  sellAtDesk: z.boolean(),
  sellOnline: z.boolean(),
  position: z.number(),
  archived: z.boolean(),
  /** Client contracts sold and not ended. */
  activeClientContracts: z.number(),
});
export type ContractView = z.infer<typeof ContractViewSchema>;
export const ContractListSchema = z.object({ items: z.array(ContractViewSchema), next: z.null() });
export type ContractList = z.infer<typeof ContractListSchema>;

export const ContractListQuerySchema = z.object({
  archived: z.enum(['include', 'only', 'exclude']).default('exclude'),
  channel: z.enum(['desk', 'online']).optional(),
});
export const ContractInitQuerySchema = z.object({ contract: uuid().optional() });

export const ContractInitSchema = z.object({
  contract: ContractViewSchema.nullable(),
  taxes: z.array(TaxViewSchema),
  currency: z.string(),
  activationTypes: z.array(z.object({ value: z.number(), labelKey: z.string() })),
  periodUnits: z.array(z.string()).readonly(),
  serviceTypes: z.array(z.object({ value: z.string(), labelKey: z.string() })),
  restrictions: PricingOptionRestrictionInitSchema,
});
export type ContractInit = z.infer<typeof ContractInitSchema>;

// ------------------------------------------------------------------------- client contracts

export const InstalmentViewSchema = z.object({
  id: z.string(),
  kind: z.enum(INSTALMENT_KINDS),
  periodIndex: z.number().nullable(),
  periodStartsOn: z.string().nullable(),
  periodEndsOn: z.string().nullable(),
  dueOn: z.string(),
  amount: z.number(),
  status: z.enum(INSTALMENT_STATUSES),
  orderId: z.string().nullable(),
});
export type InstalmentView = z.infer<typeof InstalmentViewSchema>;

export const ClientContractViewSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  contractId: z.string(),
  name: LocaleTextViewSchema,
  status: z.enum(CLIENT_CONTRACT_STATUSES),
  channel: z.enum(['desk', 'online', 'api']),
  soldAt: z.string(),
  ...contractTerms,
  noticePeriods: z.number(),
  signUpFee: z.number(),
  entitledFrom: z.string(),
  endsOn: z.string().nullable(),
  terminatedAt: z.string().nullable(),
  terminationRequestedOn: z.string().nullable(),
  suspensions: z.array(z.object({ startsOn: z.string(), endsOn: z.string().nullable() })),
  instalments: z.array(InstalmentViewSchema),
  /** What the client still owes on the schedule (not yet ordered, not cancelled). */
  outstanding: z.number(),
  canTerminate: z.boolean(),
  canSuspend: z.boolean(),
  canResume: z.boolean(),
});
export type ClientContractView = z.infer<typeof ClientContractViewSchema>;
export const ClientContractListSchema = z.object({
  items: z.array(ClientContractViewSchema),
  next: z.null(),
});
export type ClientContractList = z.infer<typeof ClientContractListSchema>;

export const ClientContractEventViewSchema = z.object({
  id: z.string(),
  kind: z.enum(['sold', 'terminated', 'suspended', 'resumed', 'instalmentOrdered', 'scheduleExtended']),
  payload: z.record(z.string(), z.unknown()),
  note: z.string(),
  via: z.enum(['staff', 'client', 'api', 'job']),
  actor: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  createdAt: z.string(),
});
export type ClientContractEventView = z.infer<typeof ClientContractEventViewSchema>;
export const ClientContractDetailSchema = z.object({
  clientContract: ClientContractViewSchema,
  events: z.array(ClientContractEventViewSchema),
});
export type ClientContractDetail = z.infer<typeof ClientContractDetailSchema>;

export const ClientContractSaleSchema = z.strictObject({
  contractId: uuid(),
  note: text(500).optional(),
});
export type ClientContractSaleInput = z.infer<typeof ClientContractSaleSchema>;

/** `PATCH client-contract/{clientContract}`: one action per call. */
export const ClientContractPatchSchema = z.discriminatedUnion(
  'action',
  [
    z.strictObject({
      action: z.literal('terminate'),
      /** The studio day the client gave notice (default today; not in the future). */
      requestedOn: localDate().optional(),
      /** Staff may shorten or waive the contract's notice (needs settings.edit). */
      noticePeriods: z.number().int().min(0).max(CONTRACT_NOTICE_MAX).optional(),
      note: text(500).optional(),
    }),
    z.strictObject({
      action: z.literal('suspend'),
      /** Billing pauses at the first period boundary on or after this day (default today). */
      from: localDate().optional(),
      note: text(500).optional(),
    }),
    z.strictObject({
      action: z.literal('resume'),
      /** Billing restarts at the first period boundary on or after this day (default today). */
      on: localDate().optional(),
      note: text(500).optional(),
    }),
  ],
  { error: 'choose an action: terminate, suspend or resume' },
);
export type ClientContractPatch = z.infer<typeof ClientContractPatchSchema>;

// ------------------------------------------------------------------------------ front office

/** `POST pricing/contracts`: the contracts a visitor can buy online. */
export const PublicContractPriceListInputSchema = z.strictObject({});
export const PublicContractOfferSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  ...contractTerms,
  noticePeriods: z.number(),
  signUpFee: z.number(),
  serviceTypes: z.array(z.string()),
});
export type PublicContractOffer = z.infer<typeof PublicContractOfferSchema>;
export const PublicContractPriceListSchema = z.object({
  items: z.array(PublicContractOfferSchema),
  currency: z.string(),
});
export type PublicContractPriceList = z.infer<typeof PublicContractPriceListSchema>;

// ------------------------------------------------------------------------------- public API

export const PublicTerminateSchema = z.strictObject({
  requestedOn: localDate().optional(),
  note: text(500).optional(),
});
export const PublicInstalmentActionSchema = z.strictObject({ note: text(500).optional() });
export const PublicContractCheckoutSchema = z.strictObject({
  contractId: uuid(),
  userId: uuid(),
});
