import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type {
  Mutation,
  MutationResult,
  Outcome,
  PushInput,
  PushResult,
} from '../../../shared/contracts/sync';
import { EXPECTED_SEQ_HEADER } from '../../../shared/contracts/sync';
import { AppError, zodIssuesToFields } from '../../../shared/errors';
import { can } from '../../../shared/policies/abilities';
import { abilitiesOf } from '../http/abilities';
import { toAppError } from '../http/errors';
import { findStudio, type Studio } from '../modules/identity/index';
import { findHandler, type CommandHandler } from './commands';
import { foreignReferenceOutcome } from './commands/references';
import { deviceLastSeq } from './changefeed';
import type { SyncDevice } from './devices.service';

/** A handler that fails this many times on the same mutation has it quarantined (the queue moves on). */
export const QUARANTINE_AFTER_FAILURES = 5;
/** Device times further ahead than this are clamped to the server's receipt time and flagged. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;
/** The longest a station may have been offline: older action times are clamped and flagged. */
export const OFFLINE_WINDOW_MS = 30 * 86_400_000;

/**
 * Test seam: called after each mutation's transaction committed, before the next one starts and
 * before the answer leaves (the kill -9 test of the API during a push kills the process here).
 */
export const pushTestHooks: { afterCommit?: (mutation: Mutation) => void } = {};

type Step =
  { kind: 'result'; result: MutationResult } | { kind: 'reset' } | { kind: 'transient'; message: string };

/**
 * Corrects the device's action time: ordering never uses it, but rules that read "when" (late
 * cancellation, the pass valid at the visit) do. Far future or beyond the offline window: clamped and
 * flagged, so a station whose clock jumped neither books into the future nor rewrites last year.
 */
export function checkedActionTime(occurredAt: string, receivedAt: Date): { at: Date; flags: string[] } {
  const at = new Date(occurredAt);
  if (at.getTime() > receivedAt.getTime() + FUTURE_TOLERANCE_MS)
    return { at: receivedAt, flags: ['clockAhead'] };
  if (at.getTime() < receivedAt.getTime() - OFFLINE_WINDOW_MS)
    return { at: new Date(receivedAt.getTime() - OFFLINE_WINDOW_MS), flags: ['clockBehind'] };
  return { at, flags: [] };
}

/**
 * Runs a batch of a device's mutations in seq order, each in its own transaction that locks the
 * device's `sync_clients` row: a known mutation id answers its stored outcome (idempotent replay); a
 * seq already used by another id answers `clientReset`; a gap is 409 with the expected seq; otherwise
 * the handler runs and its outcome and `last_seq` are stored with its effects.
 */
export async function pushMutations(
  knex: Knex,
  device: SyncDevice,
  input: PushInput,
  receivedAt: Date,
): Promise<PushResult> {
  // A command this server does not know: the station is newer than the server. Nothing runs (426).
  const handlers = input.mutations.map((m) => findHandler(m.name, m.version));
  const unknown = input.mutations.find((_, i) => !handlers[i]);
  if (unknown)
    throw new AppError('sync.commandUnknown', {
      message: `unknown command ${unknown.name}@${unknown.version}`,
    });
  const studio = await findStudio(knex, device.studioId);
  if (!studio) throw AppError.notFound('studio');

  const results: MutationResult[] = [];
  let clientReset = false;
  for (const [i, mutation] of input.mutations.entries()) {
    const step = await knex.transaction((trx) =>
      runOne(trx, device, studio, mutation, handlers[i]!, receivedAt),
    );
    if (step.kind === 'reset') {
      clientReset = true;
      break;
    }
    if (step.kind === 'transient')
      throw new AppError('sync.transient', {
        message: `mutation ${mutation.seq} failed, retry later`,
        headers: { 'Retry-After': '5' },
      });
    results.push(step.result);
    pushTestHooks.afterCommit?.(mutation);
  }
  return {
    results,
    lastMutationSeq: await deviceLastSeq(knex, device.id),
    serverTime: new Date().toISOString(),
    ...(clientReset ? { clientReset: true } : {}),
  };
}

async function runOne(
  trx: Knex.Transaction,
  device: SyncDevice,
  studio: Studio,
  mutation: Mutation,
  handler: CommandHandler<unknown>,
  receivedAt: Date,
): Promise<Step> {
  const locked: { rows: Array<{ last_seq: number }> } = await trx.raw(
    'select last_seq from sync_clients where device_id = ? for update',
    [device.id],
  );
  if (!locked.rows[0]) throw AppError.notFound('device');
  const lastSeq = Number(locked.rows[0].last_seq);

  const known = (await trx('sync_mutations').where({ id: mutation.id }).first()) as
    { deviceId: string; seq: number; outcome: Outcome } | undefined;
  if (known) {
    // The same id from another device: a copied device database.
    if (known.deviceId !== device.id) return { kind: 'reset' };
    return {
      kind: 'result',
      result: { id: mutation.id, seq: Number(known.seq), outcome: known.outcome, replayed: true },
    };
  }
  // The seq was used by another id: a restored or copied device database.
  if (mutation.seq <= lastSeq) return { kind: 'reset' };
  if (mutation.seq > lastSeq + 1)
    throw new AppError('sync.seqGap', {
      message: `expected seq ${lastSeq + 1}, got ${mutation.seq}`,
      headers: { [EXPECTED_SEQ_HEADER]: String(lastSeq + 1) },
    });

  const { actorId, actorAllowed } = await resolveActor(trx, device, mutation, handler);
  const clock = checkedActionTime(mutation.occurredAt, receivedAt);
  let outcome: Outcome;
  try {
    const parsed = handler.args.safeParse(mutation.args);
    if (!parsed.success) throw new z.ZodError(parsed.error.issues);
    // Another studio's ids: rejected before the handler, whatever the command's kind (not stored).
    const foreign = await foreignReferenceOutcome(trx, studio.id, handler.references(parsed.data));
    outcome =
      foreign ??
      (await trx.transaction((sp) =>
        handler.handle({
          trx: sp,
          studio,
          device,
          actorId,
          actorAllowed,
          args: parsed.data,
          mutation,
          receivedAt,
          occurredAt: clock.at,
          clockFlags: clock.flags,
          flag: async (
            kind: string,
            subject: { table: string; id: string },
            details: Record<string, unknown> = {},
          ) => {
            await sp('sync_flags').insert({
              id: uuidv7(),
              studioId: studio.id,
              deviceId: device.id,
              mutationId: mutation.id,
              kind,
              subjectTable: subject.table,
              subjectId: subject.id,
              details: JSON.stringify(details),
              createdAt: receivedAt,
            });
          },
        }),
      ));
  } catch (err) {
    const known4xx =
      err instanceof z.ZodError ? AppError.invalid(zodIssuesToFields(err.issues)) : toAppError(err);
    if (known4xx && known4xx.status < 500 && handler.kind !== 'fact') {
      outcome = {
        status: 'rejected',
        code: known4xx.code,
        key: known4xx.key,
        message: known4xx.message,
        ...(known4xx.fields ? { fields: known4xx.fields } : {}),
      };
    } else {
      // A bug, a lost connection, or a fact the rules refused: count it; keep facts, never drop them.
      const message = err instanceof Error ? err.message : String(err);
      const failures: { rows: Array<{ failures: number }> } = await trx.raw(
        `insert into sync_failures (mutation_id, device_id, failures, last_error, updated_at)
         values (?, ?, 1, ?, ?)
         on conflict (mutation_id) do update
           set failures = sync_failures.failures + 1, last_error = excluded.last_error, updated_at = excluded.updated_at
         returning failures`,
        [mutation.id, device.id, message.slice(0, 2000), receivedAt],
      );
      const count = failures.rows[0]!.failures;
      const permanent = known4xx !== null && known4xx.status < 500;
      if (!permanent && count < QUARANTINE_AFTER_FAILURES) return { kind: 'transient', message };
      await trx('sync_quarantine').insert({
        mutationId: mutation.id,
        studioId: studio.id,
        deviceId: device.id,
        seq: mutation.seq,
        name: mutation.name,
        version: mutation.version,
        args: JSON.stringify(mutation.args),
        error: message.slice(0, 2000),
        createdAt: receivedAt,
      });
      outcome = {
        status: 'quarantined',
        message: 'kept for review by the studio',
        ...(known4xx ? { code: known4xx.code, key: known4xx.key } : {}),
      };
    }
  }

  await trx('sync_mutations').insert({
    id: mutation.id,
    deviceId: device.id,
    studioId: studio.id,
    seq: mutation.seq,
    name: mutation.name,
    version: mutation.version,
    args: JSON.stringify(mutation.args),
    actorId,
    occurredAt: clock.at,
    receivedAt,
    outcome: JSON.stringify(outcome),
  });
  await trx('sync_clients')
    .where({ deviceId: device.id })
    .update({ lastSeq: mutation.seq, updatedAt: receivedAt });
  await trx('sync_failures').where({ mutationId: mutation.id }).delete();
  return { kind: 'result', result: { id: mutation.id, seq: mutation.seq, outcome } };
}

/** The staff member a mutation runs as: its actor when a live staff member of the studio, else the registrant. */
async function resolveActor(
  trx: Knex.Transaction,
  device: SyncDevice,
  mutation: Mutation,
  handler: CommandHandler<unknown>,
): Promise<{ actorId: string | null; actorAllowed: boolean }> {
  for (const candidate of [mutation.actorId, device.registeredBy]) {
    if (!candidate) continue;
    const membership = await trx('memberships')
      .where({ studioId: device.studioId, userId: candidate, isMember: true })
      .whereNull('archivedAt')
      .first();
    if (membership)
      return { actorId: candidate, actorAllowed: can(await abilitiesOf(trx, membership), handler.ability) };
  }
  return { actorId: null, actorAllowed: false };
}
