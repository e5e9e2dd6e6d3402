import { createHash } from 'node:crypto';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { AppContext } from '../../http/context';
import { findStudio, type Studio } from './rows';

/**
 * The studio a public API call acts for: `x-api-key` holds the secret, `studio_apis` only its SHA-256
 * (the bookings module issues and checks keys the same way; this is the same lookup).
 */
export async function studioOfApiKey(ctx: AppContext, db: Db): Promise<Studio> {
  // Checked already (scope, rate limit, last use) by the integrations module's middleware.
  const checked = ctx.state.apiKey ? await findStudio(db, ctx.state.apiKey.studioId) : undefined;
  if (checked) return checked;
  const key = ctx.get('x-api-key');
  const row =
    key && key.length >= 16 && key.length <= 200
      ? ((await db('studio_apis')
          .where({ keyHash: createHash('sha256').update(key, 'utf8').digest('hex') })
          .whereNull('revoked_at')
          .first('studio_id')) as { studioId: string } | undefined)
      : undefined;
  const studio = row ? await findStudio(db, row.studioId) : undefined;
  if (!studio) throw new AppError('apiKey.invalid', { message: 'missing or invalid API key' });
  return studio;
}
