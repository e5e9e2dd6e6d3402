import { z } from 'zod';

/** Text inputs trim whitespace (spec §5); bounded so huge strings are refused as bad input. */
// PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database.
const noNul = (s: string) => !s.includes('\u0000');
export const text = (max = 255) => z.string().trim().max(max).refine(noNul, 'invalid character');
export const requiredText = (max = 255) =>
  z.string().trim().min(1, 'required').max(max).refine(noNul, 'invalid character');
export const email = () => z.string().trim().toLowerCase().max(254).pipe(z.email('invalid email address'));
export const uuid = () => z.uuid('invalid id');
export const password = () => z.string().min(8, 'at least 8 characters').max(200);

export type ListResponse<T> = { items: T[]; next: string | null };
