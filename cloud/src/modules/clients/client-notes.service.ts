import type {
  ClientNoteCreateInput,
  ClientNotePatch,
  ClientNoteView,
} from '../../../../shared/contracts/api/clients';
import { AppError } from '../../../../shared/errors';
import { v7 as uuidv7 } from 'uuid';
import type { ClientNotesRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import { presentClientNote, type NoteRow } from './clients.presenter';

function selectNotes(db: Db, studioId: string) {
  return db('client_notes as n')
    .leftJoin('users as a', 'a.id', 'n.author_id')
    .where('n.studio_id', studioId)
    .select(
      'n.id',
      'n.client_id',
      'n.type',
      'n.content',
      'n.author_id',
      'a.first_name as author_first_name',
      'a.last_name as author_last_name',
      'n.created_at',
      'n.updated_at',
    );
}

/** A client's newest notes, newest first, with their authors (one query). */
export async function listNotes(
  db: Db,
  studioId: string,
  userId: string,
  limit: number,
): Promise<ClientNoteView[]> {
  const rows = (await selectNotes(db, studioId)
    .where('n.client_id', userId)
    .orderBy([
      { column: 'n.created_at', order: 'desc' },
      { column: 'n.id', order: 'desc' },
    ])
    .limit(limit)) as NoteRow[];
  return rows.map(presentClientNote);
}

async function noteView(db: Db, studioId: string, noteId: string): Promise<ClientNoteView> {
  const row = (await selectNotes(db, studioId).where('n.id', noteId).first()) as NoteRow | undefined;
  if (!row) throw AppError.notFound('client note');
  return presentClientNote(row);
}

export async function createNote(
  trx: Db,
  studioId: string,
  authorId: string,
  input: ClientNoteCreateInput,
): Promise<ClientNoteView> {
  const client = await trx('clients').where({ studioId, userId: input.userId }).first('id');
  if (!client) throw AppError.notFound('client');
  const id = uuidv7();
  const now = new Date();
  await trx('client_notes').insert({
    id,
    studioId,
    clientId: input.userId,
    authorId,
    type: input.type,
    content: input.content,
    createdAt: now,
    updatedAt: now,
  });
  return noteView(trx, studioId, id);
}

async function lockNote(trx: Db, studioId: string, noteId: string): Promise<ClientNotesRow> {
  const note = await trx('client_notes').where({ studioId, id: noteId }).forUpdate().first();
  if (!note) throw AppError.notFound('client note');
  return note;
}

export async function updateNote(
  trx: Db,
  studioId: string,
  noteId: string,
  input: ClientNotePatch,
): Promise<ClientNoteView> {
  const note = await lockNote(trx, studioId, noteId);
  const patch: Pick<Partial<ClientNotesRow>, 'type' | 'content'> = {};
  if (input.type !== undefined) patch.type = input.type;
  if (input.content !== undefined) patch.content = input.content;
  if (Object.keys(patch).length > 0)
    await trx('client_notes')
      .where({ id: note.id })
      .update({ ...patch, updatedAt: new Date() });
  return noteView(trx, studioId, note.id);
}

export async function deleteNote(trx: Db, studioId: string, noteId: string): Promise<void> {
  const note = await lockNote(trx, studioId, noteId);
  await trx('client_notes').where({ id: note.id }).delete();
}
