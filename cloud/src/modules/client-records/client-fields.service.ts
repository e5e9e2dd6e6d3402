import { v7 as uuidv7 } from 'uuid';
import type {
  ClientFieldDecryptResult,
  ClientFieldInput,
  ClientFieldPatch,
  ClientFieldValues,
  ClientFieldView,
} from '../../../../shared/contracts/api/client-records';
import {
  checkFieldValue,
  definitionProblems,
  hasOptions,
  type FieldValue,
} from '../../../../shared/domain/client-fields';
import { ClientCustomFieldType } from '../../../../shared/enums/clients';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { decryptFieldValue, encryptFieldValue, type FieldKeyring } from '../../crypto/field-crypto';
import { fieldOf, presentField, type ClientField } from './client-records.presenter';
import { readAll } from '../../db/read-all';

/** The studio's client (any standing): 404 for anyone else, other studios' clients included. */
export async function assertClient(db: Db, studioId: string, userId: string): Promise<void> {
  const found = await db('clients').where({ studioId, userId }).first('id');
  if (!found) throw AppError.notFound('client');
}

export async function listFields(db: Db, studioId: string): Promise<ClientFieldView[]> {
  const fields = await selectFields(db, studioId);
  return fields.map(presentField);
}

/** The studio's field definitions in their order. */
async function selectFields(db: Db, studioId: string): Promise<ClientField[]> {
  const rows = await db('client_fields').where({ studioId }).orderBy(['position', 'createdAt', 'id']);
  return rows.map(fieldOf);
}

async function findField(db: Db, studioId: string, id: string, lock = false): Promise<ClientField> {
  const q = db('client_fields').where({ studioId, id });
  const field = await (lock ? q.forUpdate() : q).first();
  if (!field) throw AppError.notFound('client field');
  return fieldOf(field);
}

/** The jsonb columns written as JSON text (the driver would send arrays as PostgreSQL arrays). */
function jsonColumns<D extends Pick<ClientField, 'name' | 'options' | 'settings'>>(def: D) {
  return {
    ...def,
    name: JSON.stringify(def.name),
    options: JSON.stringify(def.options),
    settings: JSON.stringify(def.settings),
  };
}

function assertDefinition(def: Pick<ClientField, 'type' | 'required' | 'options' | 'settings'>): void {
  const problems = definitionProblems(def);
  if (Object.keys(problems).length > 0) throw AppError.invalid(problems);
}

export async function createField(
  trx: Db,
  studioId: string,
  input: ClientFieldInput,
): Promise<ClientFieldView> {
  const def = {
    name: input.name,
    type: input.type,
    required: input.required,
    encrypted: input.encrypted,
    options: input.options,
    settings: input.settings,
    position: input.position,
  };
  assertDefinition(def);
  const now = new Date();
  const [field] = await trx('client_fields')
    .insert({ id: uuidv7(), studioId, createdAt: now, updatedAt: now, ...jsonColumns(def) })
    .returning('*');
  return presentField(fieldOf(field!));
}

/**
 * Changes a definition (PUT gives every field, PATCH some). Once clients hold values, the type and
 * the encryption cannot change (the values would no longer fit or would need re-encrypting), and an
 * option in use cannot be removed: 409 with the field named.
 */
export async function updateField(
  trx: Db,
  studioId: string,
  id: string,
  patch: ClientFieldPatch,
): Promise<ClientFieldView> {
  const field = await findField(trx, studioId, id, true);
  const next = {
    name: patch.name ?? field.name,
    type: patch.type ?? field.type,
    required: patch.required ?? field.required,
    encrypted: patch.encrypted ?? field.encrypted,
    options: patch.options ?? field.options,
    settings: patch.settings ?? field.settings,
    position: patch.position ?? field.position,
  };
  // A field that stops having options drops the old ones rather than failing on them.
  if (!hasOptions(next.type) && patch.options === undefined) next.options = [];
  if (next.type !== ClientCustomFieldType.numeric && patch.settings === undefined)
    next.settings = { ...next.settings, min: null, max: null };
  if (next.type !== ClientCustomFieldType.text && patch.settings === undefined)
    next.settings = { ...next.settings, maxLength: null };
  assertDefinition(next);

  const values = trx('client_field_values').where({ studioId, fieldId: id });
  const inUse = Number((await values.clone().count({ n: '*' }).first())?.n ?? 0) > 0;
  if (inUse) {
    const fields: Record<string, string[]> = {};
    if (next.type !== field.type) fields.type = ['clients hold values of this field: the type cannot change'];
    if (next.encrypted !== field.encrypted)
      fields.encrypted = ['clients hold values of this field: encryption cannot change'];
    const removed = field.options.map((o) => o.value).filter((v) => !next.options.some((o) => o.value === v));
    if (removed.length > 0 && next.type === field.type) {
      const used = field.encrypted
        ? true
        : Number(
            (
              await values
                .clone()
                .where((w) => {
                  for (const v of removed)
                    w.orWhereRaw('value = ?::jsonb', [JSON.stringify(v)]).orWhereRaw('value @> ?::jsonb', [
                      JSON.stringify([v]),
                    ]);
                })
                .count({ n: '*' })
                .first()
            )?.n ?? 0,
          ) > 0;
      if (used) fields.options = ['an option clients hold cannot be removed'];
    }
    if (Object.keys(fields).length > 0)
      throw new AppError('resource.conflict', { message: 'the field is in use', fields });
  }
  const [updated] = await trx('client_fields')
    .where({ id })
    .update({ ...jsonColumns(next), updatedAt: new Date() })
    .returning('*');
  return presentField(fieldOf(updated!));
}

/** Deletes the definition and every client's value of it (the decrypt audit keeps its rows). */
export async function deleteField(trx: Db, studioId: string, id: string): Promise<void> {
  await findField(trx, studioId, id, true);
  await trx('client_fields').where({ id }).delete();
}

export async function clientFieldValues(
  db: Db,
  studioId: string,
  userId: string,
  can: { edit: boolean; decrypt: boolean },
): Promise<ClientFieldValues> {
  await assertClient(db, studioId, userId);
  const [fields, rows, locations, members] = await readAll(db, [
    () => selectFields(db, studioId),
    () =>
      db('client_field_values')
        .where({ studioId, clientId: userId })
        .select('fieldId', 'value', 'ciphertext', 'updatedAt'),
    () => db('locations').where({ studioId }).orderBy(['name', 'id']).select('id', 'name'),
    () =>
      db('memberships as m')
        .join('users as u', 'u.id', 'm.user_id')
        .where({ 'm.studio_id': studioId, 'm.is_member': true })
        .whereNull('m.archived_at')
        .orderBy(['u.last_name', 'u.first_name', 'u.id'])
        .select('u.id', 'u.first_name', 'u.last_name') as Promise<
        Array<{ id: string; firstName: string; lastName: string }>
      >,
  ]);
  const byField = new Map(rows.map((r) => [r.fieldId, r]));
  return {
    items: fields.map((field) => {
      const row = byField.get(field.id);
      const hasValue = Boolean(row && (row.ciphertext !== null || row.value !== null));
      return {
        field: presentField(field),
        value: field.encrypted || !row ? null : (row.value as FieldValue | null),
        masked: field.encrypted && hasValue,
        hasValue,
        updatedAt: row ? row.updatedAt.toISOString() : null,
      };
    }),
    locations: locations.map((l) => ({ id: l.id, name: l.name })),
    members: members.map((m) => ({ id: m.id, name: `${m.firstName} ${m.lastName}`.trim() })),
    canEdit: can.edit,
    canDecrypt: can.decrypt,
  };
}

/**
 * Writes some of a client's field values, all or none: every named field is checked (its type, the
 * studio's locations and staff for the reference types) and every problem reported at once under
 * `values.<field id>`. Encrypted fields are stored as ciphertext only.
 */
export async function patchClientFieldValues(
  trx: Db,
  studioId: string,
  userId: string,
  values: Record<string, unknown>,
  key: FieldKeyring,
): Promise<void> {
  await assertClient(trx, studioId, userId);
  const ids = Object.keys(values);
  const fields = (await trx('client_fields').where({ studioId }).whereIn('id', ids)).map(fieldOf);
  const byId = new Map(fields.map((f) => [f.id, f]));
  const problems: Record<string, string[]> = {};
  const checked: Array<{ field: ClientField; value: FieldValue | null }> = [];
  for (const id of ids) {
    const field = byId.get(id);
    if (!field) {
      problems[`values.${id}`] = ['no such field'];
      continue;
    }
    const result = checkFieldValue(field, values[id]);
    if (!result.ok) problems[`values.${id}`] = [result.message];
    else checked.push({ field, value: result.value });
  }
  // References must be the studio's own locations and staff.
  const refs = async (table: 'locations' | 'members', wanted: string[]) => {
    if (wanted.length === 0) return new Set<string>();
    const rows =
      table === 'locations'
        ? await trx('locations').where({ studioId }).whereIn('id', wanted).select('id')
        : await trx('memberships')
            .where({ studioId, isMember: true })
            .whereNull('archived_at')
            .whereIn('user_id', wanted)
            .select('user_id as id');
    return new Set((rows as Array<{ id: string }>).map((r) => r.id));
  };
  const refOf = (type: number) =>
    checked.filter((c) => c.field.type === type && typeof c.value === 'string').map((c) => c.value as string);
  const [locations, members] = await readAll(trx, [
    () => refs('locations', refOf(ClientCustomFieldType.locationSelect)),
    () => refs('members', refOf(ClientCustomFieldType.memberSelect)),
  ]);
  for (const c of checked) {
    if (typeof c.value !== 'string') continue;
    if (c.field.type === ClientCustomFieldType.locationSelect && !locations.has(c.value))
      problems[`values.${c.field.id}`] = ['not a location of the studio'];
    if (c.field.type === ClientCustomFieldType.memberSelect && !members.has(c.value))
      problems[`values.${c.field.id}`] = ['not a member of staff of the studio'];
  }
  if (Object.keys(problems).length > 0) throw AppError.invalid(problems);

  for (const { field, value } of checked) {
    const where = { studioId, fieldId: field.id, clientId: userId };
    if (value === null) {
      await trx('client_field_values').where(where).delete();
      continue;
    }
    const stored = field.encrypted
      ? {
          value: null,
          ciphertext: encryptFieldValue(key, { studioId, fieldId: field.id, clientId: userId }, value),
        }
      : { value: trx.raw('?::jsonb', [JSON.stringify(value)]), ciphertext: null };
    await trx('client_field_values')
      .insert({ id: uuidv7(), ...where, ...stored })
      .onConflict(['field_id', 'client_id'])
      .merge({ ...stored, updatedAt: trx.fn.now() });
  }
}

/**
 * Reveals one encrypted value to a member of staff allowed to (the route checks
 * clients.decryptFields), and records who saw whose field and when, in the same transaction: no
 * value leaves without its audit row.
 */
export async function decryptClientField(
  trx: Db,
  studioId: string,
  userId: string,
  fieldId: string,
  actorId: string,
  requestId: string,
  key: FieldKeyring,
): Promise<ClientFieldDecryptResult> {
  await assertClient(trx, studioId, userId);
  const field = await trx('client_fields').where({ studioId, id: fieldId }).first('encrypted');
  if (!field) throw AppError.invalid({ fieldId: ['no such field'] });
  if (!field.encrypted) throw AppError.invalid({ fieldId: ['this field is not encrypted'] });
  const row = (await trx('client_field_values')
    .where({ studioId, clientId: userId, fieldId })
    .first('ciphertext')) as { ciphertext: string | null } | undefined;
  await trx('client_field_decrypt_audits').insert({
    id: uuidv7(),
    studioId,
    actorId,
    clientId: userId,
    fieldId,
    requestId: requestId.slice(0, 64),
  });
  const value = row?.ciphertext
    ? (decryptFieldValue(key, { studioId, fieldId, clientId: userId }, row.ciphertext) as FieldValue)
    : null;
  return { fieldId, value };
}
