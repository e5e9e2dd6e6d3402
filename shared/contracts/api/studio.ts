import { z } from 'zod';

/** The signed-in view of a studio that back/front office shells load at start (`backoffice/init`). */
export const StudioViewSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  slug: z.string(),
  currency: z.string(),
  defaultLocale: z.string(),
  timeZone: z.string(),
  logoUrl: z.string().nullable(),
  rootSearchAddress: z.string(),
  frontOfficeLink: z.string(),
});
export type StudioView = z.infer<typeof StudioViewSchema>;

export const BackofficeInitSchema = z.object({
  studio: StudioViewSchema,
  member: z.object({
    userId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    emailAddress: z.string(),
    /** The default role key of the member's role (owner, manager, …), null for a studio's own role. */
    role: z.string().nullable(),
    /** The studio's name for the member's role; null when it is a default role shown by its key. */
    roleName: z.string().nullable(),
    /** What the member may do (shared/policies/abilities.ts); the back office hides the rest. */
    abilities: z.array(z.string()),
  }),
});
export type BackofficeInit = z.infer<typeof BackofficeInitSchema>;
