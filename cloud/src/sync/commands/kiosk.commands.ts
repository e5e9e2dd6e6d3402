import { KioskEntryArgsSchema, type KioskEntryArgs, type Outcome } from '../../../../shared/contracts/sync';
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
