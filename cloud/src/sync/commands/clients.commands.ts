import { v7 as uuidv7 } from 'uuid';
import {
  CreateClientArgsSchema,
  UpdateClientArgsSchema,
  type CreateClientArgs,
  type Outcome,
  type UpdateClientArgs,
} from '../../../../shared/contracts/sync';
import { localDate, phoneMatchKey } from '../../../../shared/domain/clients';
import { ClientNoteType } from '../../../../shared/enums/clients';
import { AppError } from '../../../../shared/errors';
import { placeholderEmail, updateClient } from '../../modules/clients/index';
import type { CommandContext } from './registry';
import { registerCommand } from './registry';
import type { ClientsRow } from '../../db/generated/tables';

/**
 * createClient@1 — fact-like: insert by id. The station assigned the person's id and the record's id
 * and may already have checked the person in under them, so the server never swaps them for an
 * existing account: an email that an account or another client already has makes a possible-duplicate
 * flag (merging is staff's decision, `client/{user}/merge`), never a rejection. Same phone: reported.
 */
async function createClientCommand(ctx: CommandContext<CreateClientArgs>): Promise<Outcome> {
  const { trx, studio, args } = ctx;
  const already = await trx('clients').where({ id: args.clientId }).first();
  if (already) {
    if (already.studioId !== studio.id || already.userId !== args.userId)
      throw new AppError('resource.conflict', { message: 'these ids belong to someone else' });
    return { status: 'applied', data: { userId: args.userId, clientId: args.clientId, existed: true } };
  }
  const user = await trx('users').where({ id: args.userId }).first();
  if (user) throw new AppError('resource.conflict', { message: 'this person id belongs to someone else' });
  if (args.birthDate && args.birthDate > localDate(ctx.receivedAt, studio.timeZone))
    throw AppError.invalid({ birthDate: ['cannot be in the future'] });

  const email = args.emailAddress ?? null;
  const phone = args.phone ?? null;
  const accountWithEmail = email
    ? await trx('users').whereRaw('lower(email) = ?', [email]).first('id')
    : undefined;
  await trx('users').insert({
    id: args.userId,
    email: accountWithEmail || !email ? placeholderEmail(args.userId) : email,
    passwordHash: null,
    firstName: args.firstName,
    lastName: args.lastName,
    phone,
    locale: null,
  });
  // The membership trigger writes the record with the membership's id; it then holds what was typed.
  await trx('memberships').insert({
    id: args.clientId,
    studioId: studio.id,
    userId: args.userId,
    isClient: true,
    isMember: false,
    role: null,
  });
  await trx('clients')
    .where({ id: args.clientId })
    .update({
      firstName: args.firstName,
      lastName: args.lastName,
      email,
      phone,
      birthDate: args.birthDate ?? null,
      sex: args.sex ?? null,
      updatedAt: ctx.receivedAt,
    });
  if (args.note) {
    await trx('client_notes').insert({
      id: uuidv7(),
      studioId: studio.id,
      clientId: args.userId,
      authorId: ctx.actorId,
      type: ClientNoteType.private,
      content: args.note,
    });
  }

  const sameEmail = email
    ? ((await trx('clients')
        .where({ studioId: studio.id, email })
        .whereNot({ userId: args.userId })
        .limit(20)
        .pluck('user_id')) as string[])
    : [];
  const key = phoneMatchKey(phone);
  const samePhone = key
    ? ((await trx('clients')
        .where({ studioId: studio.id, phoneKey: key })
        .whereNot({ userId: args.userId })
        .limit(20)
        .pluck('user_id')) as string[])
    : [];
  const flags: string[] = [...ctx.clockFlags];
  if (sameEmail.length > 0 || accountWithEmail) {
    flags.push('possibleDuplicate');
    await ctx.flag(
      'possibleDuplicate',
      { table: 'clients', id: args.clientId },
      {
        userId: args.userId,
        emailAddress: email,
        sameEmailClients: sameEmail,
        emailHasAccount: Boolean(accountWithEmail),
      },
    );
  }
  if (!ctx.actorAllowed) flags.push('actorNotAllowed');
  return {
    status: flags.length > 0 ? 'flagged' : 'applied',
    ...(flags.length > 0 ? { flags } : {}),
    data: {
      userId: args.userId,
      clientId: args.clientId,
      possibleDuplicates: [...new Set([...sameEmail, ...samePhone])],
    },
  };
}

const FIELD_COLUMNS: Record<string, keyof ClientsRow> = {
  firstName: 'firstName',
  lastName: 'lastName',
  emailAddress: 'email',
  phone: 'phone',
  birthDate: 'birthDate',
  sex: 'sex',
  archived: 'archivedAt',
};

/**
 * updateClient@1 — intent: the fields sent are applied in server receipt order, each on its own (last
 * writer wins per field; fields the station did not touch are not overwritten), with one audit row per
 * changed field. An email another client of the studio has is refused for that field only (flagged).
 */
async function updateClientCommand(ctx: CommandContext<UpdateClientArgs>): Promise<Outcome> {
  const { trx, studio, args } = ctx;
  if (!ctx.actorAllowed)
    throw new AppError('auth.forbidden', { message: 'you have no permission to perform this action' });
  const before = await trx('clients').where({ studioId: studio.id, userId: args.userId }).forUpdate().first();
  if (!before) throw AppError.notFound('client');
  let fields = { ...args.fields };
  const flags: string[] = [...ctx.clockFlags];
  let refused: Record<string, string[]> | undefined;
  try {
    await trx.transaction((sp) => updateClient(sp, studio, args.userId, fields, ctx.receivedAt));
  } catch (err) {
    if (!(err instanceof AppError) || !err.fields?.emailAddress || fields.emailAddress === undefined)
      throw err;
    refused = { emailAddress: err.fields.emailAddress };
    flags.push('emailTaken');
    const { emailAddress: _dropped, ...rest } = fields;
    fields = rest;
    if (Object.keys(fields).length > 0)
      await trx.transaction((sp) => updateClient(sp, studio, args.userId, fields, ctx.receivedAt));
  }
  const after = await trx('clients').where({ id: before.id }).first();
  const audit = Object.keys(fields)
    .map((field) => {
      const column = FIELD_COLUMNS[field]!;
      return { field, old: normalize(before[column]), next: normalize(after![column]) };
    })
    .filter((c) => JSON.stringify(c.old) !== JSON.stringify(c.next));
  if (audit.length > 0) {
    await trx('client_field_changes').insert(
      audit.map((c) => ({
        id: uuidv7(),
        studioId: studio.id,
        userId: args.userId,
        field: c.field,
        oldValue: JSON.stringify(c.old),
        newValue: JSON.stringify(c.next),
        mutationId: ctx.mutation.id,
        deviceId: ctx.device.id,
        actorId: ctx.actorId,
        occurredAt: ctx.occurredAt,
      })),
    );
  }
  return {
    status: refused ? 'flagged' : flags.length > 0 ? 'flagged' : 'applied',
    ...(flags.length > 0 ? { flags } : {}),
    ...(refused ? { fields: refused } : {}),
    data: { changed: audit.map((c) => c.field) },
  };
}

function normalize(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value ?? null;
}

registerCommand({
  name: 'createClient',
  version: 1,
  kind: 'factLike',
  ability: 'clients.edit',
  args: CreateClientArgsSchema,
  // Both ids are new ones the station chose; the handler refuses ids that are someone else's.
  references: () => [],
  handle: createClientCommand,
});
registerCommand({
  name: 'updateClient',
  version: 1,
  kind: 'intent',
  ability: 'clients.edit',
  args: UpdateClientArgsSchema,
  references: (a) => [{ kind: 'client', id: a.userId, field: 'userId' }],
  handle: updateClientCommand,
});
