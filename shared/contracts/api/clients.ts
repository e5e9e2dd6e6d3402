import { z } from 'zod';
import { ClientNoteType, TagType } from '../../enums/clients';
import { UserSex } from '../../enums/users';
import { isPlausiblePhone } from '../../domain/clients/phone';
import { parseMonthDay } from '../../domain/clients/birthday';
import { email, requiredText, text, uuid, calendarDate } from './common';

/**
 * The back-office clients API (spec §7 "Clients", tags, user tags, client notes), under
 * `/api/v4/{uuid}/...`. Ids of clients in paths and bodies are USER ids (the spec's `{user}`).
 * A form's empty text field may be sent as "" or null: both mean "none".
 */

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

const optionalEmail = () => z.preprocess(blankToNull, email().nullable()).optional();
const phone = () =>
  text(40).refine(
    (v) => isPlausiblePhone(v),
    'invalid phone number (6 to 15 digits, + ( ) - . / and spaces)',
  );
const optionalPhone = () => z.preprocess(blankToNull, phone().nullable()).optional();
/** A calendar date; the service also refuses dates in the future. */
const birthDate = () =>
  z.iso
    .date('invalid date (YYYY-MM-DD)')
    .refine((d) => d >= '1900-01-01', 'too far in the past')
    .nullable();
const sex = () =>
  z.union([z.literal(UserSex.male), z.literal(UserSex.female)], { error: 'invalid value' }).nullable();
const tagType = () =>
  z.union([z.literal(TagType.client), z.literal(TagType.member)], { error: 'invalid value' });
const noteType = () => z.enum([ClientNoteType.private, ClientNoteType.public]);
const monthDay = () => z.string().refine((v) => parseMonthDay(v) !== null, 'invalid day of the year (MM-DD)');

export const CLIENT_NAME_MAX = 100;
export const NOTE_MAX = 5000;
export const TAG_NAME_MAX = 50;
export const BULK_MAX_CLIENTS = 5000;
export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 25;
export const SEARCH_LIMIT_DEFAULT = 10;

// ---------------------------------------------------------------------------------------- views

export const ClientStatusSchema = z.enum(['active', 'archived']);
export type ClientStatus = z.infer<typeof ClientStatusSchema>;

export const TagRefSchema = z.object({ id: z.string(), name: z.string() });

/** One row of the client list. */
export const ClientListItemSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailAddress: z.string().nullable(),
  phone: z.string().nullable(),
  birthDate: z.string().nullable(),
  sex: z.number().nullable(),
  status: ClientStatusSchema,
  tags: z.array(TagRefSchema),
  hasValidPass: z.boolean(),
  createdAt: z.string(),
  /** Only in the desk station's offline answers: added or edited there, not confirmed by a sync yet. */
  provisional: z.boolean().optional(),
});
export type ClientListItem = z.infer<typeof ClientListItemSchema>;

/** `GET client/{user}`. */
export const ClientDetailSchema = ClientListItemSchema.extend({
  /** Also a member of staff of the studio. */
  isMember: z.boolean(),
  /** The person has set a password (can sign in to the front office). */
  hasAccount: z.boolean(),
  archivedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type ClientDetail = z.infer<typeof ClientDetailSchema>;

/** Search results, duplicates and existence matches: enough to recognise the person. */
export const ClientSearchItemSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailAddress: z.string().nullable(),
  phone: z.string().nullable(),
  status: ClientStatusSchema,
});
export type ClientSearchItem = z.infer<typeof ClientSearchItemSchema>;

export const ClientListSchema = z.object({
  items: z.array(ClientListItemSchema),
  next: z.string().nullable(),
});
export type ClientList = z.infer<typeof ClientListSchema>;
export const ClientSearchResultSchema = z.object({
  items: z.array(ClientSearchItemSchema),
  next: z.string().nullable(),
});
export type ClientSearchResult = z.infer<typeof ClientSearchResultSchema>;

export const TagViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.number(),
  /** How many people carry the tag. */
  usageCount: z.number(),
  createdAt: z.string(),
});
export type TagView = z.infer<typeof TagViewSchema>;

export const ClientNoteViewSchema = z.object({
  id: z.string(),
  userId: z.string(),
  type: noteType(),
  content: z.string(),
  author: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ClientNoteView = z.infer<typeof ClientNoteViewSchema>;

const OptionSchema = z.object({ value: z.union([z.number(), z.string()]), labelKey: z.string() });

export const ClientAbilitiesSchema = z.object({
  canView: z.boolean(),
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  canExport: z.boolean(),
  canMessage: z.boolean(),
  canDecryptFields: z.boolean(),
});

/** `GET client/add/init`: what the add form needs. */
export const ClientAddInitSchema = z.object({
  fields: z.object({
    firstName: z.object({ required: z.literal(true), maxLength: z.number() }),
    lastName: z.object({ required: z.literal(true), maxLength: z.number() }),
    emailAddress: z.object({ required: z.literal(false), maxLength: z.number() }),
    phone: z.object({ required: z.literal(false), maxLength: z.number() }),
    birthDate: z.object({ required: z.literal(false) }),
    sex: z.object({ required: z.literal(false) }),
    note: z.object({ required: z.literal(false), maxLength: z.number() }),
  }),
  sexOptions: z.array(OptionSchema),
  /** The studio's country (ISO 3166-1), to preset a phone prefix. */
  country: z.string(),
});
export type ClientAddInit = z.infer<typeof ClientAddInitSchema>;

/** `GET client/{user}/init`: the edit form's values and options. */
export const ClientEditInitSchema = z.object({
  client: ClientDetailSchema,
  sexOptions: z.array(OptionSchema),
  tags: z.array(TagRefSchema),
  abilities: ClientAbilitiesSchema,
});
export type ClientEditInit = z.infer<typeof ClientEditInitSchema>;

/** `GET client/{user}/profile`. */
export const ClientProfileSchema = z.object({
  client: ClientDetailSchema,
  /** The newest 50 notes, newest first. */
  notes: z.array(ClientNoteViewSchema),
  validPasses: z.array(
    z.object({
      id: z.string(),
      pricingOptionId: z.string(),
      /** The pricing option's name per locale (spec §3 locale text). */
      name: z.record(z.string(), z.object({ value: z.string() })),
      entries: z.number().nullable(),
      expiresAt: z.string().nullable(),
    }),
  ),
  abilities: ClientAbilitiesSchema,
});
export type ClientProfile = z.infer<typeof ClientProfileSchema>;

/** `GET client-list/init`: filters and sort options of the list screen. */
export const ClientListInitSchema = z.object({
  statuses: z.array(ClientStatusSchema.or(z.literal('all'))),
  defaultStatus: ClientStatusSchema,
  birthdayFilters: z.array(z.enum(['thisMonth', 'range'])),
  hasValidPassFilter: z.array(z.boolean()),
  tags: z.array(TagRefSchema),
  tagModes: z.array(z.enum(['any', 'all'])),
  sortOptions: z.array(z.enum(['name', '-name', 'created', '-created'])),
  defaultSort: z.literal('name'),
  pageSizes: z.array(z.number()),
  bulkActions: z.array(z.enum(['tag', 'untag', 'message', 'export'])),
  exportFormats: z.array(z.enum(['csv', 'xlsx'])),
  abilities: ClientAbilitiesSchema,
});
export type ClientListInit = z.infer<typeof ClientListInitSchema>;

export const ClientBulkInitSchema = z.object({
  actions: z.array(z.enum(['tag', 'untag', 'message', 'export'])),
  tags: z.array(TagRefSchema),
  maxClients: z.number(),
});
export type ClientBulkInit = z.infer<typeof ClientBulkInitSchema>;

// --------------------------------------------------------------------------------------- inputs

/** `POST client`. */
export const ClientCreateInputSchema = z.strictObject({
  firstName: requiredText(CLIENT_NAME_MAX),
  lastName: requiredText(CLIENT_NAME_MAX),
  emailAddress: optionalEmail(),
  phone: optionalPhone(),
  birthDate: z.preprocess(blankToNull, birthDate()).optional(),
  sex: sex().optional(),
  /** Saved as the client's first private note. */
  note: z.preprocess(blankToNull, text(NOTE_MAX).nullable()).optional(),
});
export type ClientCreateInput = z.infer<typeof ClientCreateInputSchema>;

export const ClientCreateResultSchema = z.object({
  client: ClientDetailSchema,
  /** Other clients of the studio with the same phone number: reported, never refused. */
  possibleDuplicates: z.array(ClientSearchItemSchema),
  /** The email belonged to an existing account: it became a client here, nothing of it changed. */
  linkedExistingAccount: z.boolean(),
  /** The person was an archived client of the studio and is active again. */
  restored: z.boolean(),
});
export type ClientCreateResult = z.infer<typeof ClientCreateResultSchema>;

/** `PATCH client/{user}`: any subset; `archived: false` restores an archived client. */
export const ClientUpdateInputSchema = z.strictObject({
  firstName: requiredText(CLIENT_NAME_MAX).optional(),
  lastName: requiredText(CLIENT_NAME_MAX).optional(),
  emailAddress: optionalEmail(),
  phone: optionalPhone(),
  birthDate: z.preprocess(blankToNull, birthDate()).optional(),
  sex: sex().optional(),
  archived: z.literal(false).optional(),
});
export type ClientUpdateInput = z.infer<typeof ClientUpdateInputSchema>;

/** `GET client/check-existence?emailAddress=&phone=`: at least one of the two. */
export const ClientCheckExistenceQuerySchema = z
  .object({
    emailAddress: z.preprocess(blankToNull, email().nullable()).optional(),
    phone: z.preprocess(blankToNull, phone().nullable()).optional(),
  })
  .refine((q) => Boolean(q.emailAddress || q.phone), {
    message: 'give an email address or a phone number',
    path: ['emailAddress'],
  });
export type ClientCheckExistenceQuery = z.infer<typeof ClientCheckExistenceQuerySchema>;

export const ClientCheckExistenceResultSchema = z.object({
  exists: z.boolean(),
  matches: z.array(ClientSearchItemSchema.extend({ matchedBy: z.array(z.enum(['emailAddress', 'phone'])) })),
});
export type ClientCheckExistenceResult = z.infer<typeof ClientCheckExistenceResultSchema>;

export const CLIENT_SORTS = ['name', '-name', 'created', '-created'] as const;
export type ClientSort = (typeof CLIENT_SORTS)[number];

/** The list's filters as JSON (export, bulk); the query-string form is below. */
export const ClientFilterSchema = z.strictObject({
  q: text(100).optional(),
  status: z.enum(['active', 'archived', 'all']).default('active'),
  tagIds: z.array(uuid()).max(20).optional(),
  /** any: at least one of the tags; all: every one. */
  tagMode: z.enum(['any', 'all']).default('any'),
  /** true: holds an active pass valid now; false: holds none. */
  hasValidPass: z.boolean().optional(),
  /** thisMonth: born in the studio's current month; or a range of days MM-DD (may run over new year). */
  birthday: z.enum(['thisMonth']).optional(),
  birthdayFrom: monthDay().optional(),
  birthdayTo: monthDay().optional(),
  /** Became a client on or after / on or before these days (the studio's calendar). */
  createdFrom: calendarDate().optional(),
  createdTo: calendarDate().optional(),
  sort: z.enum(CLIENT_SORTS).default('name'),
});
export type ClientFilter = z.infer<typeof ClientFilterSchema>;

const checkFilter = (f: Partial<ClientFilter>, ctx: z.RefinementCtx) => {
  if ((f.birthdayFrom === undefined) !== (f.birthdayTo === undefined))
    ctx.addIssue({
      code: 'custom',
      message: 'give both ends of the birthday range',
      path: [f.birthdayFrom === undefined ? 'birthdayFrom' : 'birthdayTo'],
    });
  if (f.birthday && f.birthdayFrom)
    ctx.addIssue({ code: 'custom', message: 'thisMonth or a range, not both', path: ['birthday'] });
  if (f.createdFrom && f.createdTo && f.createdFrom > f.createdTo)
    ctx.addIssue({ code: 'custom', message: 'must not be after createdTo', path: ['createdFrom'] });
};

const boolString = () =>
  z.enum(['true', 'false', '1', '0'], { error: 'true or false' }).transform((v) => v === 'true' || v === '1');
const idList = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter((s) => s !== '') : v),
    z.array(uuid()).max(20),
  );
const limit = (fallback: number) => z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).default(fallback);

/** `GET client/collection`: the same filters in the query string, plus keyset paging. */
export const ClientListQuerySchema = z
  .object({
    q: text(100).optional(),
    status: z.enum(['active', 'archived', 'all']).default('active'),
    /** Comma-separated or repeated `tagIds`. */
    tagIds: idList().optional(),
    tagMode: z.enum(['any', 'all']).default('any'),
    hasValidPass: boolString().optional(),
    birthday: z.enum(['thisMonth']).optional(),
    birthdayFrom: monthDay().optional(),
    birthdayTo: monthDay().optional(),
    createdFrom: calendarDate().optional(),
    createdTo: calendarDate().optional(),
    sort: z.enum(CLIENT_SORTS).default('name'),
    limit: limit(LIST_LIMIT_DEFAULT),
    /** `next` of the previous page, unchanged. */
    cursor: z.string().max(1000).optional(),
  })
  .superRefine(checkFilter);
export type ClientListQuery = z.infer<typeof ClientListQuerySchema>;

/** `GET client/search?q=`: name, email or phone (card numbers arrive with client identities). */
export const ClientSearchQuerySchema = z.object({
  q: requiredText(100),
  status: z.enum(['active', 'archived', 'all']).default('active'),
  limit: limit(SEARCH_LIMIT_DEFAULT),
  cursor: z.string().max(1000).optional(),
});
export type ClientSearchQuery = z.infer<typeof ClientSearchQuerySchema>;

/** `POST backoffice/search`: the back office's search box. */
export const BackofficeSearchInputSchema = z.strictObject({ queryString: requiredText(100) });
export const BackofficeSearchResultSchema = z.object({ clients: z.array(ClientSearchItemSchema) });
export type BackofficeSearchResult = z.infer<typeof BackofficeSearchResultSchema>;

/** `POST client/export`: the filtered list as a CSV (UTF-8 with BOM) or XLSX download. */
export const ClientExportInputSchema = ClientFilterSchema.extend({
  format: z.enum(['csv', 'xlsx']).default('csv'),
  /** Default: ';' for studios whose language writes decimal commas (pl), else ','. */
  delimiter: z.enum([',', ';']).optional(),
}).superRefine(checkFilter);
export type ClientExportInput = z.infer<typeof ClientExportInputSchema>;

const clientIds = () => z.array(uuid()).min(1, 'choose at least one client').max(BULK_MAX_CLIENTS);

/**
 * `POST client/bulk`. `message` records the request only (who, what, to whom): sending arrives with
 * campaigns. `export` answers the chosen clients as CSV, like `client/export`.
 */
export const ClientBulkInputSchema = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('tag'),
    clientIds: clientIds(),
    tagIds: z.array(uuid()).min(1).max(20),
  }),
  z.strictObject({
    action: z.literal('untag'),
    clientIds: clientIds(),
    tagIds: z.array(uuid()).min(1).max(20),
  }),
  z.strictObject({
    action: z.literal('message'),
    clientIds: clientIds(),
    subject: requiredText(200),
    content: requiredText(10_000),
  }),
  z.strictObject({
    action: z.literal('export'),
    clientIds: clientIds(),
    format: z.enum(['csv', 'xlsx']).default('csv'),
    delimiter: z.enum([',', ';']).optional(),
  }),
]);
export type ClientBulkInput = z.infer<typeof ClientBulkInputSchema>;

export const ClientBulkResultSchema = z.union([
  z.object({ action: z.enum(['tag', 'untag']), clients: z.number(), changed: z.number() }),
  z.object({
    action: z.literal('message'),
    /** The recorded request; nothing is sent yet. */
    requestId: z.string(),
    recipients: z.number(),
    status: z.literal('recorded'),
  }),
]);
export type ClientBulkResult = z.infer<typeof ClientBulkResultSchema>;

/** `POST tag`, `PUT tag/{tag}` (every field). Names are unique per studio whatever the case. */
export const TagInputSchema = z.strictObject({ name: requiredText(TAG_NAME_MAX), type: tagType() });
export type TagInput = z.infer<typeof TagInputSchema>;
/** `PATCH tag/{tag}`. The type of a tag in use cannot change. */
export const TagPatchSchema = z.strictObject({
  name: requiredText(TAG_NAME_MAX).optional(),
  type: tagType().optional(),
});
export type TagPatch = z.infer<typeof TagPatchSchema>;
export const TagListQuerySchema = z.object({
  type: z.enum(['0', '1'], { error: '0 (client) or 1 (member)' }).transform(Number).optional(),
});
export const TagListSchema = z.object({ items: z.array(TagViewSchema) });
export type TagList = z.infer<typeof TagListSchema>;

/** `POST user-tag/add` and `user-tag/remove`: every tag on / off every user. */
export const UserTagBulkInputSchema = z.strictObject({
  tagIds: z.array(uuid()).min(1).max(20),
  userIds: z.array(uuid()).min(1).max(BULK_MAX_CLIENTS),
});
export type UserTagBulkInput = z.infer<typeof UserTagBulkInputSchema>;
export const UserTagBulkResultSchema = z.object({ changed: z.number() });

/** `PUT client-note` creates a note on a client. */
export const ClientNoteCreateInputSchema = z.strictObject({
  userId: uuid(),
  type: noteType(),
  content: requiredText(NOTE_MAX),
});
export type ClientNoteCreateInput = z.infer<typeof ClientNoteCreateInputSchema>;
export const ClientNotePatchSchema = z.strictObject({
  type: noteType().optional(),
  content: requiredText(NOTE_MAX).optional(),
});
export type ClientNotePatch = z.infer<typeof ClientNotePatchSchema>;
