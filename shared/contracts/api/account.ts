import { z } from 'zod';

/**
 * `DELETE /api/v4/{uuid}/account`: a client erases their account in one studio. The current password
 * is asked again because the action cannot be undone (a stolen session alone must not be enough).
 * The answer is 204 without a body.
 */
export const AccountErasureInputSchema = z.strictObject({
  password: z.string().min(1, 'required').max(200),
});
export type AccountErasureInput = z.infer<typeof AccountErasureInputSchema>;
