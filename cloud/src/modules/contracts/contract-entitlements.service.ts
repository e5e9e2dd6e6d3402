import type { ContractRestrictions } from '../../../../shared/contracts/api/contracts';
import type { ContractEntitlement } from '../../../../shared/domain/contracts';
import type { PassCoverage } from '../../../../shared/domain/entitlements';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { dateOnly } from '../catalog/index';
import { restrictionsOf } from './contracts.presenter';

/** A client contract the booking rule may choose, with its name (a booking's answer names what paid). */
export type NamedContractEntitlement = ContractEntitlement & { name: Record<string, { value: string }> };

interface EntitlementRow {
  id: string;
  name: Record<string, { value: string }>;
  serviceTypes: string[] | null;
  restrictions: Partial<ContractRestrictions> | null;
  contractServiceTypes: string[];
  contractRestrictions: Partial<ContractRestrictions>;
  entitledFrom: Date | string;
  endsOn: Date | string | null;
}

/**
 * The client's contracts as entitlements for the booking rule (`chooseEntitlementForVisit`): what
 * each covered when sold (the snapshot; the contract's own coverage for rows without one), its days
 * and its suspensions. Contracts that ended before `since` (a studio day) are left out.
 */
export async function contractEntitlementsFor(
  db: Db,
  studio: Studio,
  clientId: string,
  since: string,
): Promise<NamedContractEntitlement[]> {
  const rows = (await db('client_contracts as cc')
    .join('contracts as c', 'c.id', 'cc.contract_id')
    .where({ 'cc.studio_id': studio.id, 'cc.client_id': clientId })
    .where((q) => q.whereNull('cc.ends_on').orWhere('cc.ends_on', '>=', since))
    .orderBy('cc.id')
    .limit(100)
    .select(
      'cc.id',
      'cc.name',
      'cc.service_types',
      'cc.restrictions',
      'c.service_types as contract_service_types',
      'c.restrictions as contract_restrictions',
      'cc.entitled_from',
      'cc.ends_on',
    )) as EntitlementRow[];
  if (rows.length === 0) return [];
  const suspensions = (await db('client_contract_suspensions')
    .whereIn(
      'client_contract_id',
      rows.map((r) => r.id),
    )
    .select('client_contract_id', 'starts_on', 'ends_on')) as Array<{
    clientContractId: string;
    startsOn: Date | string;
    endsOn: Date | string | null;
  }>;
  return rows.map((row) => {
    const r = restrictionsOf(row.restrictions ?? row.contractRestrictions ?? {});
    const coverage: PassCoverage = {
      serviceTypes: (row.serviceTypes ?? row.contractServiceTypes) as PassCoverage['serviceTypes'],
      classServiceIds: r.classServiceIds,
      locationIds: r.locationIds,
      timeWindows: r.timeWindows,
      tagIds: r.tagIds,
    };
    return {
      id: row.id,
      name: row.name,
      coverage,
      entitledFrom: dateOnly(row.entitledFrom)!,
      endsOn: dateOnly(row.endsOn),
      suspensions: suspensions
        .filter((s) => s.clientContractId === row.id)
        .map((s) => ({ from: dateOnly(s.startsOn)!, to: dateOnly(s.endsOn) })),
    };
  });
}
