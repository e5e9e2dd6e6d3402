import { describe, expect, it } from 'vitest';
import { toAppError } from './errors';

/** An error as node-postgres raises it (knex passes it on as it is). */
const pgError = (code: string, more: Record<string, string> = {}) =>
  Object.assign(new Error('db error'), { code, severity: 'ERROR', ...more });

describe("PostgreSQL's errors of typed knex queries", () => {
  it('a unique violation is 409 naming the key’s columns as fields', () => {
    const err = toAppError(
      pgError('23505', {
        detail: 'Key (studio_id, "user_id")=(0190…, 0190…) already exists.',
        constraint: 'memberships_studio_id_user_id_unique',
      }),
    );
    expect(err?.status).toBe(409);
    expect(err?.toBody()).toMatchObject({
      key: 'resource.conflict',
      fields: { studioId: ['already taken'], userId: ['already taken'] },
    });
  });

  it('a foreign key violation is 409, a missing value 400 on its field, bad data and checks 400', () => {
    expect(toAppError(pgError('23503'))?.toBody()).toMatchObject({ key: 'resource.referenceInvalid' });
    expect(toAppError(pgError('23503'))?.status).toBe(409);
    const notNull = toAppError(pgError('23502', { column: 'first_name' }));
    expect(notNull?.status).toBe(400);
    expect(notNull?.toBody().fields).toEqual({ firstName: ['required'] });
    expect(toAppError(pgError('23514'))?.status).toBe(400);
    expect(toAppError(pgError('22P02'))?.status).toBe(400);
    expect(toAppError(pgError('22001'))?.status).toBe(400);
  });

  it('an error that is not from the database is not mapped (a 500)', () => {
    expect(toAppError(new Error('bug'))).toBeNull();
    expect(toAppError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBeNull();
  });
});
