import { z } from 'zod';
import { ALL_ABILITIES, DEFAULT_ROLE_KEYS, type Ability } from '../../policies/abilities';
import { email, requiredText, text, uuid } from './common';

/**
 * Staff (members) and studio IAM roles (spec §7 "member…", "studio-iam-role…"). The decisions behind
 * these shapes are in cloud/src/modules/staff/README.md.
 */

export const AbilitySchema = z.enum(ALL_ABILITIES as [Ability, ...Ability[]]);

/** A list of abilities as sent by a form: duplicates dropped, kept in the catalogue's order. */
const abilityList = () =>
  z
    .array(AbilitySchema)
    .max(ALL_ABILITIES.length * 2)
    .transform((list) => ALL_ABILITIES.filter((a) => list.includes(a)));

export const RoleNameSchema = requiredText(100);

// ---------------------------------------------------------------------------------------------------
// Roles

export const StudioIamRoleSchema = z.object({
  uuid: z.string(),
  /** The default role this one started as (owner, manager, …), null for roles the studio made. */
  key: z.enum(DEFAULT_ROLE_KEYS).nullable(),
  /** The studio's own name; null for a default role never renamed (shown translated by its key). */
  name: z.string().nullable(),
  /** The owner role holds every ability, cannot lose any and cannot be deleted. */
  isOwner: z.boolean(),
  abilities: z.array(AbilitySchema),
  /** Active members of staff holding the role. */
  memberCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StudioIamRole = z.infer<typeof StudioIamRoleSchema>;

export const StudioIamRoleListSchema = z.object({
  items: z.array(StudioIamRoleSchema),
  next: z.null(),
});
export type StudioIamRoleList = z.infer<typeof StudioIamRoleListSchema>;

/** PUT studio-iam-role */
export const CreateStudioIamRoleInputSchema = z.strictObject({
  name: RoleNameSchema,
  abilities: abilityList(),
});
export type CreateStudioIamRoleInput = z.input<typeof CreateStudioIamRoleInputSchema>;

/** PATCH studio-iam-role/{studioIamRole}: any of the fields, at least one. */
export const UpdateStudioIamRoleInputSchema = z
  .strictObject({
    name: RoleNameSchema.optional(),
    abilities: abilityList().optional(),
  })
  .refine((v) => v.name !== undefined || v.abilities !== undefined, 'nothing to change');
export type UpdateStudioIamRoleInput = z.input<typeof UpdateStudioIamRoleInputSchema>;

/** POST studio-iam-role/{studioIamRole}/replicate: the copy's name (default: the source's, "(copy)"). */
export const ReplicateStudioIamRoleInputSchema = z.strictObject({
  name: RoleNameSchema.optional(),
});
export type ReplicateStudioIamRoleInput = z.input<typeof ReplicateStudioIamRoleInputSchema>;

export const StudioIamRoleParamsSchema = z.object({ uuid: uuid(), studioIamRole: uuid() });

// ---------------------------------------------------------------------------------------------------
// Members

/** The role as shown next to a member. */
export const MemberRoleSchema = z.object({
  uuid: z.string(),
  key: z.enum(DEFAULT_ROLE_KEYS).nullable(),
  name: z.string().nullable(),
  isOwner: z.boolean(),
});
export type MemberRole = z.infer<typeof MemberRoleSchema>;

/** A member of staff (the user is the member: `uuid` is the user's id, the spec's {user}). */
export const MemberSchema = z.object({
  uuid: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailAddress: z.string(),
  phone: z.string().nullable(),
  role: MemberRoleSchema.nullable(),
  /** Also a client of the studio. */
  isClient: z.boolean(),
  /** When the membership began (ISO). */
  since: z.string(),
});
export type Member = z.infer<typeof MemberSchema>;

export const MemberListSchema = z.object({
  items: z.array(MemberSchema),
  next: z.string().nullable(),
});
export type MemberList = z.infer<typeof MemberListSchema>;

export const MEMBER_PAGE_SIZE = 50;
/** Spec §9: a table search waits 600 ms after the last key. */
export const MEMBER_SEARCH_DELAY_MS = 600;

/** GET member/collection: filters and the keyset cursor (`next` of the previous page). */
export const MemberCollectionQuerySchema = z.strictObject({
  role: uuid().optional(),
  /** Members who named this location as one where they work (the dashboard's "my locations"). */
  location: uuid().optional(),
  search: text(100).optional(),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
export type MemberCollectionQuery = z.input<typeof MemberCollectionQuerySchema>;

/** GET member/{user}/profile */
export const MemberProfileSchema = z.object({
  uuid: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailAddress: z.string(),
  phone: z.string().nullable(),
  locale: z.string().nullable(),
});
export type MemberProfile = z.infer<typeof MemberProfileSchema>;

/** A role offered in a picker, with whether the signed-in member may give it. */
export const AssignableRoleSchema = MemberRoleSchema.extend({
  abilities: z.array(AbilitySchema),
  assignable: z.boolean(),
});
export type AssignableRole = z.infer<typeof AssignableRoleSchema>;

/** GET member-list/init: what the staff list screen offers before it lists anyone. */
export const MemberListInitSchema = z.object({
  /** Active members of staff. */
  total: z.number(),
  /** The role filter: every role with how many active members hold it. */
  roles: z.array(MemberRoleSchema.extend({ memberCount: z.number() })),
  /** The location filter: the studio's locations with how many members work there. */
  locations: z.array(z.object({ id: z.string(), name: z.string(), memberCount: z.number() })),
  /** What the signed-in member may do here (the server checks again on every call). */
  abilities: z.object({
    addMember: z.boolean(),
    changeRole: z.boolean(),
    removeMember: z.boolean(),
    manageRoles: z.boolean(),
  }),
  pageSize: z.number(),
  /** Spec §9: a table search waits this long after the last key. */
  searchDelayMs: z.number(),
});
export type MemberListInit = z.infer<typeof MemberListInitSchema>;

/** GET member/add/init */
export const MemberAddInitSchema = z.object({ roles: z.array(AssignableRoleSchema) });
export type MemberAddInit = z.infer<typeof MemberAddInitSchema>;

/** What the signed-in member may do to this member (the server checks again on every call). */
export const MemberPermissionsSchema = z.object({
  editProfile: z.boolean(),
  changeRole: z.boolean(),
  remove: z.boolean(),
});
export type MemberPermissions = z.infer<typeof MemberPermissionsSchema>;

/** GET member/{user}/init */
export const MemberInitSchema = z.object({
  member: MemberSchema,
  profile: MemberProfileSchema,
  permissions: MemberPermissionsSchema,
});
export type MemberInit = z.infer<typeof MemberInitSchema>;

/** GET member/{user}/iam/init */
export const MemberIamInitSchema = z.object({
  member: MemberSchema,
  roles: z.array(AssignableRoleSchema),
  /** False for one's own role and for a member above the signed-in one. */
  canChange: z.boolean(),
});
export type MemberIamInit = z.infer<typeof MemberIamInitSchema>;

/** POST member: an existing user (by email) or a new one becomes staff with a role. */
export const AddMemberInputSchema = z.strictObject({
  emailAddress: email(),
  firstName: requiredText(100),
  lastName: requiredText(100),
  phone: text(40).optional(),
  studioIamRole: uuid(),
});
export type AddMemberInput = z.input<typeof AddMemberInputSchema>;

/** PATCH member/{user}: the profile (locations arrive with the locations module). */
export const UpdateMemberInputSchema = z
  .strictObject({
    firstName: requiredText(100).optional(),
    lastName: requiredText(100).optional(),
    phone: text(40).nullable().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'nothing to change');
export type UpdateMemberInput = z.input<typeof UpdateMemberInputSchema>;

/** PATCH member/{user}/iam */
export const SetMemberIamInputSchema = z.strictObject({ studioIamRole: uuid() });
export type SetMemberIamInput = z.input<typeof SetMemberIamInputSchema>;

export const MemberParamsSchema = z.object({ uuid: uuid(), user: uuid() });
export const StudioParamsSchema = z.object({ uuid: uuid() });
/** GET routes that take no query: unknown parameters are refused like unknown body fields. */
export const NoQuerySchema = z.strictObject({});
