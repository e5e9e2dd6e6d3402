import type {
  ClientContractEventView,
  ClientContractView,
  ContractRestrictions,
  ContractView,
  InstalmentView,
  PublicContractOffer,
} from '../../../../shared/contracts/api/contracts';
import {
  clientContractStatus,
  type ContractPeriodUnit,
  type InstalmentKind,
  type InstalmentStatus,
} from '../../../../shared/domain/contracts';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text/locale-text';
import { OrderStatus } from '../../../../shared/enums';
import type { ClientContractEventsRow, ClientContractSuspensionsRow } from '../../db/generated/tables';
import { dateOnly } from '../catalog/index';

export interface ContractRow {
  id: string;
  studioId: string;
  name: Record<string, { value: string }>;
  description: Record<string, { value: string }>;
  price: number;
  periodUnit: ContractPeriodUnit;
  periodLength: number;
  durationPeriods: number | null;
  activationType: number;
  proRata: boolean;
  serviceTypes: string[];
  restrictions: Partial<ContractRestrictions>;
  noticePeriods: number;
  signUpFee: number;
  taxId: string | null;
  joinedTaxRateBp: number | null;
  sellAtDesk: boolean;
  sellOnline: boolean;
  position: number;
  archivedAt: Date | null;
  activeClientContracts?: number;
}

export function restrictionsOf(r: Partial<ContractRestrictions>): ContractRestrictions {
  return {
    classServiceIds: r.classServiceIds ?? [],
    locationIds: r.locationIds ?? [],
    timeWindows: r.timeWindows ?? [],
    tagIds: r.tagIds ?? [],
  };
}

export function presentContract(row: ContractRow, currency: string): ContractView {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? {},
    price: row.price,
    currency,
    periodUnit: row.periodUnit,
    periodLength: row.periodLength,
    durationPeriods: row.durationPeriods,
    activationType: row.activationType,
    proRata: row.proRata,
    serviceTypes: row.serviceTypes,
    restrictions: restrictionsOf(row.restrictions ?? {}),
    noticePeriods: row.noticePeriods,
    signUpFee: row.signUpFee,
    taxId: row.taxId,
    taxRateBp: row.taxId ? row.joinedTaxRateBp : null,
    sellAtDesk: row.sellAtDesk,
    sellOnline: row.sellOnline,
    position: row.position,
    archived: row.archivedAt !== null,
    activeClientContracts: Number(row.activeClientContracts ?? 0),
  };
}

export function presentOffer(
  row: ContractRow,
  currency: string,
  locale: string | null,
  studioLocale: string,
): PublicContractOffer {
  return {
    id: row.id,
    name: resolveLocaleText(row.name as LocaleText, locale, studioLocale),
    description: resolveLocaleText((row.description ?? {}) as LocaleText, locale, studioLocale),
    price: row.price,
    currency,
    periodUnit: row.periodUnit,
    periodLength: row.periodLength,
    durationPeriods: row.durationPeriods,
    activationType: row.activationType,
    proRata: row.proRata,
    noticePeriods: row.noticePeriods,
    signUpFee: row.signUpFee,
    serviceTypes: row.serviceTypes,
  };
}

export interface ClientContractRow {
  id: string;
  studioId: string;
  clientId: string;
  contractId: string;
  channel: 'desk' | 'online' | 'api';
  soldAt: Date;
  name: Record<string, { value: string }>;
  price: number;
  periodUnit: ContractPeriodUnit;
  periodLength: number;
  durationPeriods: number | null;
  activationType: number;
  proRata: boolean;
  noticePeriods: number;
  signUpFee: number;
  taxRateBp: number | null;
  currency: string;
  anchorOn: Date | string;
  entitledFrom: Date | string;
  endsOn: Date | string | null;
  terminatedAt: Date | null;
  terminationRequestedOn: Date | string | null;
}

export interface InstalmentRow {
  id: string;
  clientContractId: string;
  kind: InstalmentKind;
  periodIndex: number | null;
  periodStartsOn: Date | string | null;
  periodEndsOn: Date | string | null;
  dueOn: Date | string;
  amount: number;
  status: InstalmentStatus;
  orderId: string | null;
  /** The order's status (spec §3), when the sales module has the order. */
  orderStatus?: number | null;
}

export type SuspensionRow = Pick<ClientContractSuspensionsRow, 'clientContractId' | 'startsOn' | 'endsOn'>;

const SETTLED: ReadonlySet<number> = new Set([OrderStatus.paid, OrderStatus.freeOfCharge]);

export function presentInstalment(row: InstalmentRow): InstalmentView {
  // An ordered instalment is paid once its order is (the order is the sales module's fact).
  const status =
    row.status === 'ordered' && row.orderStatus != null && SETTLED.has(row.orderStatus) ? 'paid' : row.status;
  return {
    id: row.id,
    kind: row.kind,
    periodIndex: row.periodIndex,
    periodStartsOn: dateOnly(row.periodStartsOn),
    periodEndsOn: dateOnly(row.periodEndsOn),
    dueOn: dateOnly(row.dueOn)!,
    amount: row.amount,
    status,
    orderId: row.orderId,
  };
}

export function presentClientContract(
  row: ClientContractRow,
  instalments: InstalmentRow[],
  suspensions: SuspensionRow[],
  today: string,
): ClientContractView {
  const views = instalments.map(presentInstalment);
  const suspensionViews = suspensions.map((s) => ({
    startsOn: dateOnly(s.startsOn)!,
    endsOn: dateOnly(s.endsOn),
  }));
  const endsOn = dateOnly(row.endsOn);
  const status = clientContractStatus(
    {
      entitledFrom: dateOnly(row.entitledFrom)!,
      endsOn,
      suspensions: suspensionViews.map((s) => ({ from: s.startsOn, to: s.endsOn })),
      terminated: row.terminatedAt !== null,
    },
    today,
  );
  const openSuspension = suspensionViews.some((s) => s.endsOn === null);
  const ended = status === 'ended';
  return {
    id: row.id,
    clientId: row.clientId,
    contractId: row.contractId,
    name: row.name,
    status,
    channel: row.channel,
    soldAt: row.soldAt.toISOString(),
    price: row.price,
    currency: row.currency,
    periodUnit: row.periodUnit,
    periodLength: row.periodLength,
    durationPeriods: row.durationPeriods,
    activationType: row.activationType,
    proRata: row.proRata,
    noticePeriods: row.noticePeriods,
    signUpFee: row.signUpFee,
    entitledFrom: dateOnly(row.entitledFrom)!,
    endsOn,
    terminatedAt: row.terminatedAt ? row.terminatedAt.toISOString() : null,
    terminationRequestedOn: dateOnly(row.terminationRequestedOn),
    suspensions: suspensionViews,
    instalments: views,
    outstanding: views
      .filter((i) => i.status === 'scheduled' || i.status === 'due' || i.status === 'suspended')
      .reduce((sum, i) => sum + i.amount, 0),
    canTerminate: !ended && row.terminatedAt === null,
    canSuspend:
      !ended &&
      row.terminatedAt === null &&
      !openSuspension &&
      views.some((i) => i.kind === 'period' && i.status === 'scheduled'),
    canResume: openSuspension && !ended,
  };
}

/** An event with its actor's name (joined); kind, via and payload as the service wrote them. */
export type EventRow = Pick<ClientContractEventsRow, 'id' | 'note' | 'actorId' | 'createdAt'> & {
  kind: ClientContractEventView['kind'];
  via: ClientContractEventView['via'];
  payload: Record<string, unknown>;
  actorFirstName: string | null;
  actorLastName: string | null;
};

export function presentEvent(row: EventRow): ClientContractEventView {
  return {
    id: row.id,
    kind: row.kind,
    payload: row.payload,
    note: row.note,
    via: row.via,
    actor: row.actorId
      ? { id: row.actorId, firstName: row.actorFirstName ?? '', lastName: row.actorLastName ?? '' }
      : null,
    createdAt: row.createdAt.toISOString(),
  };
}
