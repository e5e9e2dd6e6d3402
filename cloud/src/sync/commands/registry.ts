import type { Knex } from 'knex';
import type { z } from 'zod';
import type { CommandKind, Mutation, Outcome } from '../../../../shared/contracts/sync';
import type { Ability } from '../../../../shared/policies/abilities';
import type { Studio } from '../../modules/identity/index';
import type { SyncDevice } from '../devices.service';
import type { StudioReference } from './references';

export interface CommandContext<A> {
  /** A savepoint inside the mutation's transaction: throwing rolls back the handler's writes only. */
  trx: Knex.Transaction;
  studio: Studio;
  device: SyncDevice;
  /** The staff member the command runs as (the mutation's actor when valid, else the registrant). */
  actorId: string | null;
  /** Whether that staff member holds the command's ability. */
  actorAllowed: boolean;
  args: A;
  mutation: Mutation;
  /** When the server received the push (ordering: server receipt order). */
  receivedAt: Date;
  /** The device's action time, corrected by its clock offset and clamped (see push.service). */
  occurredAt: Date;
  /** Flags the clock check already raised for this mutation. */
  clockFlags: string[];
  /** Leaves a flag for the desk (possible duplicate, uncovered visit...). */
  flag(
    kind: string,
    subject: { table: string; id: string },
    details?: Record<string, unknown>,
  ): Promise<void>;
}

export interface CommandHandler<A = unknown> {
  name: string;
  version: number;
  kind: CommandKind;
  ability: Ability;
  args: z.ZodType<A>;
  /** Every id of another record the command names: checked against the station's studio first. */
  references(args: A): StudioReference[];
  handle(ctx: CommandContext<A>): Promise<Outcome>;
}

const handlers = new Map<string, CommandHandler<unknown>>();

/**
 * The commands the server runs, by `name@version`. A module registers its handlers at import time
 * (see ./index.ts); a version no handler knows answers 426 so an old server never guesses.
 */
export function registerCommand<A>(handler: CommandHandler<A>): void {
  handlers.set(`${handler.name}@${handler.version}`, handler as CommandHandler<unknown>);
}

export function findHandler(name: string, version: number): CommandHandler<unknown> | undefined {
  return handlers.get(`${name}@${version}`);
}

export function registeredCommands(): string[] {
  return [...handlers.keys()];
}
