import type {
  ClientDocumentView,
  ClientFieldView,
  EmailBounce,
} from '../../../../shared/contracts/api/client-records';
import type { ClientSearchItem } from '../../../../shared/contracts/api/clients';
import type { EmailBounceReason } from '../../../../shared/enums/users';
import type { FieldOption, FieldSettings, FieldText } from '../../../../shared/domain/client-fields';
import type { ClientCustomFieldType } from '../../../../shared/enums/clients';
import type { ClientDocumentsRow, ClientFieldsRow } from '../../db/generated/tables';

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

/** A custom field the studio keeps on its clients (definition; values are `client_field_values`). */
export type ClientField = Omit<ClientFieldsRow, 'name' | 'type' | 'options' | 'settings'> & {
  name: FieldText;
  type: ClientCustomFieldType;
  options: FieldOption[];
  settings: FieldSettings;
};

/** A `client_fields` row with its jsonb columns named by what they hold (written only through zod-checked input). */
export const fieldOf = (row: ClientFieldsRow): ClientField => row as ClientField;

export function presentField(field: ClientField): ClientFieldView {
  return {
    id: field.id,
    name: field.name as ClientFieldView['name'],
    type: field.type,
    typeLabelKey: `enums:clientCustomFieldType.${field.type}`,
    required: field.required,
    encrypted: field.encrypted,
    options: field.options ?? [],
    settings: {
      min: field.settings?.min ?? null,
      max: field.settings?.max ?? null,
      maxLength: field.settings?.maxLength ?? null,
    },
    position: field.position,
    createdAt: iso(field.createdAt),
    updatedAt: iso(field.updatedAt),
  };
}

/** A document with its uploader's name (joined). */
export type DocumentRow = Pick<
  ClientDocumentsRow,
  'id' | 'clientId' | 'fileName' | 'contentType' | 'sha256' | 'uploadedBy' | 'createdAt'
> & {
  /** bigint: the driver's string for values past 2^53 (never, at 10 MB a file). */
  sizeBytes: number | string;
  uploaderFirstName?: string | null;
  uploaderLastName?: string | null;
};

export function presentDocument(row: DocumentRow): ClientDocumentView {
  return {
    id: row.id,
    clientId: row.clientId,
    fileName: row.fileName,
    contentType: row.contentType,
    sizeBytes: Number(row.sizeBytes),
    sha256: row.sha256,
    uploadedBy: row.uploadedBy
      ? { id: row.uploadedBy, firstName: row.uploaderFirstName ?? '', lastName: row.uploaderLastName ?? '' }
      : null,
    createdAt: iso(row.createdAt),
    downloadPath: `client-document/${row.id}/download`,
  };
}

export function presentBounce(row: {
  reason: EmailBounceReason;
  bouncedAt: Date;
  message: string | null;
  email: string;
}): EmailBounce {
  return {
    reason: row.reason,
    reasonLabelKey: `enums:emailBounceReason.${row.reason}`,
    at: iso(row.bouncedAt),
    message: row.message,
    emailAddress: row.email,
  };
}

export function presentClientRef(row: {
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
    status: row.archivedAt ? 'archived' : 'active',
  };
}
