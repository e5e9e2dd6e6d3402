import { z } from 'zod';
import { ContractActivationType } from '../../enums/pricing-options';
import {
  type CLIENT_CONTRACT_STATUSES,
  CONTRACT_PERIOD_UNITS,
  type INSTALMENT_KINDS,
  type INSTALMENT_STATUSES,
} from '../../domain/contracts';
import {
  PRICE_MAX,
  PRICING_OPTION_DESCRIPTION_MAX,
  PRICING_OPTION_NAME_MAX,
  PRICING_OPTION_SERVICE_TYPES,
  RestrictionsSchema,
  type PricingOptionRestrictionInit,
  type TaxView,
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

type LocaleTextValue = Record<string, { value: string }>;
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

export interface ContractView {
  id: string;
  name: LocaleTextValue;
  description: LocaleTextValue;
  price: number;
  currency: string;
  periodUnit: (typeof CONTRACT_PERIOD_UNITS)[number];
  periodLength: number;
  durationPeriods: number | null;
  activationType: number;
  proRata: boolean;
  serviceTypes: string[];
  restrictions: ContractRestrictions;
  noticePeriods: number;
  signUpFee: number;
  taxId: string | null;
  taxRateBp: number | null;
  sellAtDesk: boolean;
  sellOnline: boolean;
  position: number;
  archived: boolean;
  /** Client contracts sold and not ended. */
  activeClientContracts: number;
}
export type ContractList = { items: ContractView[]; next: null };

export const ContractListQuerySchema = z.object({
  archived: z.enum(['include', 'only', 'exclude']).default('exclude'),
  channel: z.enum(['desk', 'online']).optional(),
});
export const ContractInitQuerySchema = z.object({ contract: uuid().optional() });

export type ContractInit = {
  contract: ContractView | null;
  taxes: TaxView[];
  currency: string;
  activationTypes: Array<{ value: number; labelKey: string }>;
  periodUnits: readonly string[];
  serviceTypes: Array<{ value: string; labelKey: string }>;
  restrictions: PricingOptionRestrictionInit;
};

// ------------------------------------------------------------------------- client contracts

export interface InstalmentView {
  id: string;
  kind: (typeof INSTALMENT_KINDS)[number];
  periodIndex: number | null;
  periodStartsOn: string | null;
  periodEndsOn: string | null;
  dueOn: string;
  amount: number;
  status: (typeof INSTALMENT_STATUSES)[number];
  orderId: string | null;
}

export interface ClientContractView {
  id: string;
  clientId: string;
  contractId: string;
  name: LocaleTextValue;
  status: (typeof CLIENT_CONTRACT_STATUSES)[number];
  channel: 'desk' | 'online' | 'api';
  soldAt: string;
  price: number;
  currency: string;
  periodUnit: (typeof CONTRACT_PERIOD_UNITS)[number];
  periodLength: number;
  durationPeriods: number | null;
  activationType: number;
  proRata: boolean;
  noticePeriods: number;
  signUpFee: number;
  entitledFrom: string;
  endsOn: string | null;
  terminatedAt: string | null;
  terminationRequestedOn: string | null;
  suspensions: Array<{ startsOn: string; endsOn: string | null }>;
  instalments: InstalmentView[];
  /** What the client still owes on the schedule (not yet ordered, not cancelled). */
  outstanding: number;
  canTerminate: boolean;
  canSuspend: boolean;
  canResume: boolean;
}
export type ClientContractList = { items: ClientContractView[]; next: null };

export interface ClientContractEventView {
  id: string;
  kind: 'sold' | 'terminated' | 'suspended' | 'resumed' | 'instalmentOrdered' | 'scheduleExtended';
  payload: Record<string, unknown>;
  note: string;
  via: 'staff' | 'client' | 'api' | 'job';
  actor: { id: string; firstName: string; lastName: string } | null;
  createdAt: string;
}
export type ClientContractDetail = { clientContract: ClientContractView; events: ClientContractEventView[] };

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
export interface PublicContractOffer {
  id: string;
  name: string;
  description: string;
  price: number;
  currency: string;
  periodUnit: (typeof CONTRACT_PERIOD_UNITS)[number];
  periodLength: number;
  durationPeriods: number | null;
  activationType: number;
  proRata: boolean;
  noticePeriods: number;
  signUpFee: number;
  serviceTypes: string[];
}
export type PublicContractPriceList = { items: PublicContractOffer[]; currency: string };

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
