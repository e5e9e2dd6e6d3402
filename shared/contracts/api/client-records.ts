import { z } from 'zod';
import { ClientCustomFieldType } from '../../enums/clients';
import { EmailBounceReason } from '../../enums/users';
import { OPTIONS_MAX, TEXT_MAX } from '../../domain/client-fields/client-fields';
import { ClientSearchItemSchema } from './clients';
import { requiredText, text, uuid } from './common';

/**
 * Client records beyond the card (modules/client-records): documents, custom fields (encrypted
 * ones revealed through `client/{user}/client-field/decrypt`), email bounce state, duplicates,
 * merge and link. All under `/api/v4/{uuid}/...`; client ids are USER ids.
 */

// ------------------------------------------------------------------------------------ documents

/** 10 MB: scans and phone photos of contracts, medical certificates. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** What may be uploaded: the declared type must match what the bytes are. */
export const DOCUMENT_TYPES = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/heic': ['heic'],
  'image/heif': ['heif'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.oasis.opendocument.text': ['odt'],
} as const satisfies Record<string, readonly string[]>;
export type DocumentType = keyof typeof DOCUMENT_TYPES;

export const ClientDocumentViewSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number(),
  sha256: z.string(),
  uploadedBy: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  createdAt: z.string(),
  /** Relative to /api/v4: GET it for the file. */
  downloadPath: z.string(),
});
export type ClientDocumentView = z.infer<typeof ClientDocumentViewSchema>;
export const ClientDocumentListSchema = z.object({
  items: z.array(ClientDocumentViewSchema),
  maxBytes: z.number(),
  allowedTypes: z.array(z.string()),
});
export type ClientDocumentList = z.infer<typeof ClientDocumentListSchema>;

// -------------------------------------------------------------------------------- custom fields

const FieldTextSchema = z.union([
  requiredText(100),
  z
    .strictObject({
      en: z.strictObject({ value: text(100) }).optional(),
      pl: z.strictObject({ value: text(100) }).optional(),
    })
    .refine((t) => Boolean(t.en?.value || t.pl?.value), 'give the name in English or Polish'),
]);

const fieldType = () =>
  z.union(
    Object.values(ClientCustomFieldType).map((v) => z.literal(v)) as unknown as [
      z.ZodLiteral<ClientCustomFieldType>,
      ...z.ZodLiteral<ClientCustomFieldType>[],
    ],
    { error: 'one of the seven field types (0-6)' },
  );

const OptionSchema = z.strictObject({
  value: z
    .string()
    .trim()
    .min(1, 'required')
    .max(50)
    .regex(/^[\p{L}\p{N}_.-]+$/u, 'letters, digits, _ . - only'),
  label: FieldTextSchema,
});
const SettingsSchema = z.strictObject({
  min: z.number().finite().nullable().optional(),
  max: z.number().finite().nullable().optional(),
  maxLength: z.number().int().min(1).max(TEXT_MAX).nullable().optional(),
});

/** `POST client-field`, `PUT client-field/{clientField}` (every field). */
export const ClientFieldInputSchema = z.strictObject({
  name: FieldTextSchema,
  type: fieldType(),
  required: z.boolean().default(false),
  /** Stored encrypted at rest, shown masked, revealed through decrypt (clients.decryptFields). */
  encrypted: z.boolean().default(false),
  options: z.array(OptionSchema).max(OPTIONS_MAX).default([]),
  settings: SettingsSchema.default({}),
  /** Display order, ascending; ties by creation. */
  position: z.number().int().min(0).max(10_000).default(0),
});
export type ClientFieldInput = z.infer<typeof ClientFieldInputSchema>;
/** `PATCH client-field/{clientField}`: any subset. Type and `encrypted` are fixed once values exist. */
export const ClientFieldPatchSchema = z.strictObject({
  name: FieldTextSchema.optional(),
  type: fieldType().optional(),
  required: z.boolean().optional(),
  encrypted: z.boolean().optional(),
  options: z.array(OptionSchema).max(OPTIONS_MAX).optional(),
  settings: SettingsSchema.optional(),
  position: z.number().int().min(0).max(10_000).optional(),
});
export type ClientFieldPatch = z.infer<typeof ClientFieldPatchSchema>;

export const ClientFieldViewSchema = z.object({
  id: z.string(),
  name: z.union([z.string(), z.record(z.string(), z.object({ value: z.string() }))]),
  type: z.number(),
  typeLabelKey: z.string(),
  required: z.boolean(),
  encrypted: z.boolean(),
  options: z.array(z.object({ value: z.string(), label: z.unknown() })),
  settings: z.object({
    min: z.number().nullable().optional(),
    max: z.number().nullable().optional(),
    maxLength: z.number().nullable().optional(),
  }),
  position: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ClientFieldView = z.infer<typeof ClientFieldViewSchema>;
export const ClientFieldListSchema = z.object({ items: z.array(ClientFieldViewSchema) });
export type ClientFieldList = z.infer<typeof ClientFieldListSchema>;

const FieldValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/** One field of one client: plain fields carry the value; encrypted ones only whether one is set. */
export const ClientFieldValueViewSchema = z.object({
  field: ClientFieldViewSchema,
  value: FieldValue.nullable(),
  /** Encrypted field holding a value: `value` is null, `masked` true; reveal with decrypt. */
  masked: z.boolean(),
  hasValue: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type ClientFieldValueView = z.infer<typeof ClientFieldValueViewSchema>;

/** `GET client/{user}/client-field/collection`: every field of the studio with this client's values. */
export const ClientFieldValuesSchema = z.object({
  items: z.array(ClientFieldValueViewSchema),
  /** Options for location and member selects: `{ id, name }`. */
  locations: z.array(z.object({ id: z.string(), name: z.string() })),
  members: z.array(z.object({ id: z.string(), name: z.string() })),
  canEdit: z.boolean(),
  canDecrypt: z.boolean(),
});
export type ClientFieldValues = z.infer<typeof ClientFieldValuesSchema>;

/**
 * `PATCH client/{user}/client-field`: `{ values: { <field id>: value | null } }`. Only the fields
 * named change; null (or "" / [] / false on an optional checkbox) clears. Unknown field ids are 400.
 */
export const ClientFieldValuesPatchSchema = z.strictObject({
  values: z
    .record(uuid(), z.union([FieldValue, z.null()]))
    .refine((v) => Object.keys(v).length > 0, 'give at least one field')
    .refine((v) => Object.keys(v).length <= 200, 'too many fields'),
});
export type ClientFieldValuesPatch = z.infer<typeof ClientFieldValuesPatchSchema>;

/** `POST client/{user}/client-field/decrypt`. */
export const ClientFieldDecryptInputSchema = z.strictObject({ fieldId: uuid() });
export const ClientFieldDecryptResultSchema = z.object({
  fieldId: z.string(),
  value: FieldValue.nullable(),
});
export type ClientFieldDecryptResult = z.infer<typeof ClientFieldDecryptResultSchema>;

// --------------------------------------------------------------------------------- email bounce

export const EmailBounceSchema = z.object({
  reason: z.enum(EmailBounceReason),
  reasonLabelKey: z.string(),
  at: z.string(),
  message: z.string().nullable(),
  /** The address that bounced (the client's current one: a changed address clears the state). */
  emailAddress: z.string(),
});
export type EmailBounce = z.infer<typeof EmailBounceSchema>;
/** `GET client/{user}/email-bounce`. */
export const ClientEmailBounceSchema = z.object({ emailBounce: EmailBounceSchema.nullable() });
export type ClientEmailBounce = z.infer<typeof ClientEmailBounceSchema>;

// ------------------------------------------------------------------------ duplicates, merge, link

export const DuplicateCandidateSchema = ClientSearchItemSchema.extend({
  matchedBy: z.array(z.enum(['emailAddress', 'phone'])),
  hasAccount: z.boolean(),
  /** Staff linked the two as one person with separate accounts. */
  linked: z.boolean(),
});
export type DuplicateCandidate = z.infer<typeof DuplicateCandidateSchema>;
/** `GET client/{user}/duplicates`. */
export const ClientDuplicatesSchema = z.object({
  client: ClientSearchItemSchema.extend({ hasAccount: z.boolean() }),
  items: z.array(DuplicateCandidateSchema),
});
export type ClientDuplicates = z.infer<typeof ClientDuplicatesSchema>;

/** `POST client/{user}/merge`: `{user}` is kept, `duplicateId` merged into it and archived. */
export const ClientMergeInputSchema = z.strictObject({ duplicateId: uuid() });
export type ClientMergeInput = z.infer<typeof ClientMergeInputSchema>;
export const ClientMergeResultSchema = z.object({
  keptId: z.string(),
  mergedId: z.string(),
  moved: z.object({
    notes: z.number(),
    tags: z.number(),
    documents: z.number(),
    fieldValues: z.number(),
    passes: z.number(),
    /** Card fields of the kept client that were empty and came from the duplicate. */
    filled: z.array(z.string()),
  }),
});
export type ClientMergeResult = z.infer<typeof ClientMergeResultSchema>;

/** `POST client/{user}/link`: the same person with two accounts; nothing moves. */
export const ClientLinkInputSchema = z.strictObject({ otherId: uuid() });
export const ClientLinkResultSchema = z.object({
  clientId: z.string(),
  otherId: z.string(),
  linked: z.literal(true),
});
export type ClientLinkResult = z.infer<typeof ClientLinkResultSchema>;
