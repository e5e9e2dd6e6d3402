import { v7 as uuidv7 } from 'uuid';
import type { TagInput, TagPatch, TagView } from '../../../../shared/contracts/api/clients';
import { TagType } from '../../../../shared/enums/clients';
import { AppError } from '../../../../shared/errors';
import { can, type Ability } from '../../../../shared/policies/abilities';
import { tagAbility } from '../../../../shared/policies/clients';
import type { TagsRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import { presentTag, type TagRow } from './clients.presenter';

const forbidden = () =>
  new AppError('auth.forbidden', { message: 'you have no permission to perform this action' });

export function assertTagAbility(
  abilities: ReadonlySet<Ability>,
  type: number,
  action: 'view' | 'edit',
): void {
  if (!can(abilities, tagAbility(type as TagType, action))) throw forbidden();
}

const nameTaken = () =>
  new AppError('resource.conflict', {
    message: 'a tag with this name already exists',
    fields: { name: ['a tag with this name already exists'] },
  });

/** Names are unique per studio whatever the case (the unique index on lower(name)). */
async function saving<T>(work: () => PromiseLike<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw nameTaken();
    throw err;
  }
}

function selectTags(db: Db, studioId: string) {
  return db('tags as t')
    .where('t.studio_id', studioId)
    .select(
      't.id',
      't.name',
      't.type',
      't.created_at',
      db('user_tags as ut').whereRaw('ut.tag_id = t.id').count('*').as('usage_count'),
    );
}

export async function listTags(db: Db, studioId: string, types: number[]): Promise<TagView[]> {
  if (types.length === 0) return [];
  const rows = (await selectTags(db, studioId)
    .whereIn('t.type', types)
    .orderByRaw('lower(t.name), t.id')
    .limit(1000)) as TagRow[];
  return rows.map(presentTag);
}

/** Client tags for pickers: id and name. */
export async function clientTagRefs(db: Db, studioId: string): Promise<Array<{ id: string; name: string }>> {
  return db('tags')
    .where({ studioId, type: TagType.client })
    .orderByRaw('lower(name), id')
    .limit(1000)
    .select('id', 'name');
}

async function tagView(db: Db, studioId: string, tagId: string): Promise<TagView> {
  const row = (await selectTags(db, studioId).where('t.id', tagId).first()) as TagRow | undefined;
  if (!row) throw AppError.notFound('tag');
  return presentTag(row);
}

export async function createTag(
  trx: Db,
  studioId: string,
  abilities: ReadonlySet<Ability>,
  input: TagInput,
): Promise<TagView> {
  assertTagAbility(abilities, input.type, 'edit');
  const id = uuidv7();
  const now = new Date();
  await saving(() =>
    trx('tags').insert({ id, studioId, name: input.name, type: input.type, createdAt: now, updatedAt: now }),
  );
  return tagView(trx, studioId, id);
}

async function lockTag(trx: Db, studioId: string, tagId: string): Promise<TagsRow> {
  const tag = await trx('tags').where({ studioId, id: tagId }).forUpdate().first();
  if (!tag) throw AppError.notFound('tag');
  return tag;
}

/** PUT (every field) and PATCH (some): a tag in use keeps its type (its people are of that kind). */
export async function updateTag(
  trx: Db,
  studioId: string,
  abilities: ReadonlySet<Ability>,
  tagId: string,
  input: TagPatch,
): Promise<TagView> {
  const tag = await lockTag(trx, studioId, tagId);
  assertTagAbility(abilities, tag.type, 'edit');
  const patch: { name?: string; type?: number } = {};
  if (input.name !== undefined && input.name !== tag.name) patch.name = input.name;
  if (input.type !== undefined && input.type !== tag.type) {
    assertTagAbility(abilities, input.type, 'edit');
    const used = await trx('user_tags').where({ tagId: tag.id }).first('id');
    if (used)
      throw new AppError('resource.conflict', {
        message: 'the tag is in use: its type cannot change',
        fields: { type: ['the tag is in use: its type cannot change'] },
      });
    patch.type = input.type;
  }
  if (Object.keys(patch).length > 0)
    await saving(() =>
      trx('tags')
        .where({ id: tag.id })
        .update({ ...patch, updatedAt: new Date() }),
    );
  return tagView(trx, studioId, tag.id);
}

export async function deleteTag(
  trx: Db,
  studioId: string,
  abilities: ReadonlySet<Ability>,
  tagId: string,
): Promise<void> {
  const tag = await lockTag(trx, studioId, tagId);
  assertTagAbility(abilities, tag.type, 'edit');
  await trx('tags').where({ id: tag.id }).delete();
}

/**
 * The tags, all of this studio, and the people, all of the kind the tags are for (clients for client
 * tags, staff for member tags). Anything else is 404: ids of another studio name nothing here.
 */
async function loadAssignment(
  trx: Db,
  studioId: string,
  abilities: ReadonlySet<Ability>,
  tagIds: string[],
  userIds: string[],
): Promise<{ tagIds: string[]; userIds: string[] }> {
  const uniqueTags = [...new Set(tagIds)];
  const uniqueUsers = [...new Set(userIds)];
  const tags = await trx('tags').where({ studioId }).whereIn('id', uniqueTags).select('id', 'type');
  if (tags.length !== uniqueTags.length) throw AppError.notFound('tag');
  for (const tag of tags) assertTagAbility(abilities, tag.type, 'edit');
  for (const type of new Set(tags.map((t) => t.type))) {
    const found =
      type === TagType.client
        ? await trx('clients')
            .where({ studioId })
            .whereRaw('user_id = any(?::uuid[])', [uniqueUsers])
            .count('*', { as: 'n' })
        : await trx('memberships')
            .where({ studioId, isMember: true })
            .whereRaw('user_id = any(?::uuid[])', [uniqueUsers])
            .count('*', { as: 'n' });
    if (Number((found[0] as { n: number }).n) !== uniqueUsers.length)
      throw AppError.notFound(type === TagType.client ? 'client' : 'member');
  }
  return { tagIds: uniqueTags, userIds: uniqueUsers };
}

/** Every tag on every person, in one statement; assignments already there are left as they are. */
export async function addUserTags(
  trx: Db,
  studioId: string,
  abilities: ReadonlySet<Ability>,
  tagIds: string[],
  userIds: string[],
): Promise<number> {
  const chosen = await loadAssignment(trx, studioId, abilities, tagIds, userIds);
  const pairs = chosen.tagIds.flatMap((tagId) => chosen.userIds.map((userId) => [tagId, userId] as const));
  const result = await trx.raw(
    `insert into user_tags (id, studio_id, tag_id, user_id)
     select id, ?::uuid, tag_id, user_id from unnest(?::uuid[], ?::uuid[], ?::uuid[]) as p(id, tag_id, user_id)
     on conflict (tag_id, user_id) do nothing`,
    [studioId, pairs.map(() => uuidv7()), pairs.map(([t]) => t), pairs.map(([, u]) => u)],
  );
  return (result as { rowCount: number }).rowCount;
}

export async function removeUserTags(
  trx: Db,
  studioId: string,
  abilities: ReadonlySet<Ability>,
  tagIds: string[],
  userIds: string[],
): Promise<number> {
  const chosen = await loadAssignment(trx, studioId, abilities, tagIds, userIds);
  return trx('user_tags')
    .where({ studioId })
    .whereRaw('tag_id = any(?::uuid[])', [chosen.tagIds])
    .whereRaw('user_id = any(?::uuid[])', [chosen.userIds])
    .delete();
}
