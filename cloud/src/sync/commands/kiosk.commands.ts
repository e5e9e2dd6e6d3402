import {
  KioskEntryArgsSchema,
  KioskEntryV2ArgsSchema,
  type KioskEntryArgs,
  type KioskEntryV2Args,
  type Outcome,
} from '../../../../shared/contracts/sync';
import type { EntryServicesRow } from '../../db/generated/tables';
import { entryDecisions } from '../../modules/entries/index';
import { kioskRow, type KioskRow } from '../../modules/kiosk/index';
import { entryDecision } from '../../modules/kiosk/index';
import { clientTagIds } from '../../modules/bookings/index';
import { passCandidatesFor } from '../../modules/catalog/index';
import type { CommandContext } from './registry';
import { registerCommand } from './registry';

/**
 * kioskEntry@1 — fact, never rejected: a client let in at a desktop kiosk's door with an entry pass
 * while the cloud was away. The same `kiosk_check_ins` row (kind `entry`) the kiosk writes online,
 * under the station's id (a replay finds it), at the entry's corrected time, with the pass the
 * kiosk's entry rule picks then. No pass left (spent, expired, frozen meanwhile): the entry stays,
 * flagged `uncovered` for the desk. A kiosk removed meanwhile: the studio's default kiosk.
 */
async function defaultKiosk(
  trx: CommandContext<unknown>['trx'],
  studioId: string,
): Promise<KioskRow | undefined> {
  const row: { id: string } | undefined = await trx('studio_kiosks')
    .where({ studioId, isDefault: true })
    .first('id');
  return row ? kioskRow(trx, studioId, row.id) : undefined;
}

async function kioskEntryCommand(ctx: CommandContext<KioskEntryArgs>): Promise<Outcome> {
  const { trx, studio, args } = ctx;
  const flags = [...ctx.clockFlags];
  if (!ctx.actorAllowed) flags.push('actorNotAllowed');
  const existing: { id: string; clientPricingOptionId: string | null } | undefined = await trx(
    'kiosk_check_ins',
  )
    .where({ studioId: studio.id, id: args.entryId })
    .first('id', 'client_pricing_option_id');
  if (existing)
    return {
      status: 'applied',
      data: { entryId: existing.id, clientPricingOptionId: existing.clientPricingOptionId },
    };
  const kiosk = (await kioskRow(trx, studio.id, args.kioskId)) ?? (await defaultKiosk(trx, studio.id));
  if (!kiosk) throw new Error(`studio ${studio.id} has no kiosk`);
  const decision = entryDecision(
    await passCandidatesFor(trx, studio, args.userId),
    kiosk,
    await clientTagIds(trx, studio.id, args.userId),
    studio,
    ctx.occurredAt,
  );
  await trx('kiosk_check_ins').insert({
    id: args.entryId,
    studioId: studio.id,
    kioskId: kiosk.id,
    clientId: args.userId,
    kind: 'entry',
    clientVisitId: null,
    clientPricingOptionId: decision.available ? decision.passId : null,
    lockResult: args.lock,
    createdAt: ctx.occurredAt,
  });
  if (!decision.available) {
    flags.push('uncovered');
    await ctx.flag(
      'uncovered',
      { table: 'kiosk_check_ins', id: args.entryId },
      { userId: args.userId, reason: decision.reason },
    );
  }
  return {
    status: flags.length > 0 ? 'flagged' : 'applied',
    ...(flags.length > 0 ? { flags } : {}),
    data: {
      entryId: args.entryId,
      clientPricingOptionId: decision.available ? decision.passId : null,
    },
  };
}

registerCommand({
  name: 'kioskEntry',
  version: 1,
  kind: 'fact',
  ability: 'schedule.checkIn',
  args: KioskEntryArgsSchema,
  references: (a) => [
    { kind: 'kioskEntry', id: a.entryId, field: 'entryId' },
    { kind: 'kiosk', id: a.kioskId, field: 'kioskId' },
    { kind: 'client', id: a.userId, field: 'userId' },
  ],
  handle: kioskEntryCommand,
});

/**
 * kioskEntry@2 — fact, never rejected: a client let in at a desktop kiosk's door into an entry service
 * (issue 22) while the cloud was away. Recorded as the `client_entries` row the kiosk writes online
 * (source `kiosk`, id = `entryId`, so a replay finds it) and the kiosk's check-in row, at the entry's
 * corrected time, with the pass the entries rule picks then. What the cloud's rule would have refused
 * meanwhile is kept and flagged for the desk: a limit (closed, daily limit, full) as
 * `attendanceForced`, no pass as `uncovered`. A service deleted meanwhile
 * (entries are archived, not deleted; a missing one is another station's bad id): only the kiosk's
 * check-in is kept, flagged `uncovered`. An archived service still takes the entry (it happened).
 */
async function kioskServiceEntryCommand(ctx: CommandContext<KioskEntryV2Args>): Promise<Outcome> {
  const { trx, studio, args } = ctx;
  const flags = [...ctx.clockFlags];
  if (!ctx.actorAllowed) flags.push('actorNotAllowed');
  const existing: { id: string; clientPricingOptionId: string | null } | undefined = await trx(
    'client_entries',
  )
    .where({ studioId: studio.id, id: args.entryId })
    .first('id', 'client_pricing_option_id');
  if (existing)
    return {
      status: 'applied',
      data: { entryId: existing.id, clientPricingOptionId: existing.clientPricingOptionId },
    };
  const kiosk = (await kioskRow(trx, studio.id, args.kioskId)) ?? (await defaultKiosk(trx, studio.id));
  if (!kiosk) throw new Error(`studio ${studio.id} has no kiosk`);
  const service: EntryServicesRow | undefined = await trx('entry_services')
    .where({ studioId: studio.id, id: args.entryServiceId })
    .forUpdate()
    .first();
  let passId: string | null = null;
  if (service) {
    const [decision] = await entryDecisions(trx, studio, args.userId, [service], ctx.occurredAt, {
      locationId: kiosk.locationId,
    });
    passId = decision!.passId;
    const refusal = decision!.refusal;
    if (refusal === 'closed' || refusal === 'dailyLimitReached' || refusal === 'full') {
      flags.push('attendanceForced');
      await ctx.flag(
        'attendanceForced',
        { table: 'client_entries', id: args.entryId },
        { userId: args.userId, reason: refusal, entryServiceId: service.id },
      );
    }
    await trx('client_entries').insert({
      id: args.entryId,
      studioId: studio.id,
      entryServiceId: service.id,
      clientId: args.userId,
      enteredAt: ctx.occurredAt,
      leavesAt: new Date(ctx.occurredAt.getTime() + service.stayMinutes * 60_000),
      clientPricingOptionId: passId,
      source: 'kiosk',
      enrolledByUserId: null,
      kioskId: kiosk.id,
    });
  }
  await trx('kiosk_check_ins')
    .insert({
      id: args.entryId,
      studioId: studio.id,
      kioskId: kiosk.id,
      clientId: args.userId,
      kind: 'entry',
      clientVisitId: null,
      clientPricingOptionId: passId,
      lockResult: args.lock,
      createdAt: ctx.occurredAt,
    })
    .onConflict('id')
    .ignore();
  if (!passId) {
    flags.push('uncovered');
    await ctx.flag(
      'uncovered',
      { table: service ? 'client_entries' : 'kiosk_check_ins', id: args.entryId },
      { userId: args.userId, reason: service ? 'noPass' : 'entryServiceMissing' },
    );
  }
  return {
    status: flags.length > 0 ? 'flagged' : 'applied',
    ...(flags.length > 0 ? { flags } : {}),
    data: { entryId: args.entryId, clientPricingOptionId: passId },
  };
}

registerCommand({
  name: 'kioskEntry',
  version: 2,
  kind: 'fact',
  ability: 'schedule.checkIn',
  args: KioskEntryV2ArgsSchema,
  references: (a) => [
    { kind: 'clientEntry', id: a.entryId, field: 'entryId' },
    { kind: 'kioskEntry', id: a.entryId, field: 'entryId' },
    { kind: 'kiosk', id: a.kioskId, field: 'kioskId' },
    { kind: 'client', id: a.userId, field: 'userId' },
    { kind: 'entryService', id: a.entryServiceId, field: 'entryServiceId' },
  ],
  handle: kioskServiceEntryCommand,
});
