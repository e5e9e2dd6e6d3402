import type {
  ClientDetail,
  ClientListItem,
  ClientNoteView,
  ClientSearchItem,
  TagView,
} from '../../../../shared/contracts/api/clients';
import { CSV_BOM, csvLine, type CsvDelimiter } from '../../../../shared/domain/clients';
import type { ClientNoteType } from '../../../../shared/enums/clients';
import { UserSex } from '../../../../shared/enums/users';
import type { ClientNotesRow, TagsRow } from '../../db/generated/tables';
import type { ClientRow } from './client-list.service';

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

const statusOf = (row: { archivedAt: Date | null }): 'active' | 'archived' =>
  row.archivedAt ? 'archived' : 'active';

export function presentClientListItem(row: ClientRow): ClientListItem {
  return {
    id: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    emailAddress: row.email,
    phone: row.phone,
    birthDate: row.birthDate,
    sex: row.sex,
    status: statusOf(row),
    tags: row.tags,
    hasValidPass: row.hasValidPass,
    createdAt: iso(row.createdAt),
  };
}

export function presentClientDetail(
  row: ClientRow & { isMember: boolean | null; hasAccount: boolean },
): ClientDetail {
  return {
    ...presentClientListItem(row),
    isMember: Boolean(row.isMember),
    hasAccount: row.hasAccount,
    archivedAt: row.archivedAt ? iso(row.archivedAt) : null,
    updatedAt: iso(row.updatedAt),
  };
}

export function presentClientSearchItem(row: {
  userId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  archivedAt: Date | null;
}): ClientSearchItem {
  return {
    id: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    emailAddress: row.email,
    phone: row.phone,
    status: statusOf(row),
  };
}

/** A tag with the count of people who carry it. */
export type TagRow = Pick<TagsRow, 'id' | 'name' | 'type' | 'createdAt'> & { usageCount: number };

export function presentTag(row: TagRow): TagView {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    usageCount: Number(row.usageCount),
    createdAt: iso(row.createdAt),
  };
}

/** A note with its author's name (joined). */
export type NoteRow = Pick<
  ClientNotesRow,
  'id' | 'clientId' | 'content' | 'authorId' | 'createdAt' | 'updatedAt'
> & {
  type: ClientNoteType;
  authorFirstName: string | null;
  authorLastName: string | null;
};

export function presentClientNote(row: NoteRow): ClientNoteView {
  return {
    id: row.id,
    userId: row.clientId,
    type: row.type,
    content: row.content,
    author: row.authorId
      ? { id: row.authorId, firstName: row.authorFirstName ?? '', lastName: row.authorLastName ?? '' }
      : null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * The export's columns: the API's field names (stable for spreadsheets and re-imports), one client
 * per line, tags joined by ", ".
 */
export const EXPORT_COLUMNS = [
  'id',
  'firstName',
  'lastName',
  'emailAddress',
  'phone',
  'birthDate',
  'sex',
  'status',
  'tags',
  'hasValidPass',
  'createdAt',
] as const;

const SEX_NAMES = new Map<number, string>(Object.entries(UserSex).map(([name, value]) => [value, name]));

export function exportHeader(delimiter: CsvDelimiter): string {
  return CSV_BOM + csvLine(EXPORT_COLUMNS, delimiter);
}

export function exportLine(row: ClientRow, delimiter: CsvDelimiter): string {
  const item = presentClientListItem(row);
  return csvLine(
    [
      item.id,
      item.firstName,
      item.lastName,
      item.emailAddress,
      item.phone,
      item.birthDate,
      item.sex === null ? null : (SEX_NAMES.get(item.sex) ?? String(item.sex)),
      item.status,
      item.tags.map((t) => t.name).join(', '),
      item.hasValidPass,
      item.createdAt,
    ],
    delimiter,
  );
}
