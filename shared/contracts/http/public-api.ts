import { PingEchoSchema, PingInputSchema, PingSchema } from '../api/integrations';
import { contractGroup } from './define';

/**
 * The public API's own calls (issue 24, spec §7 "ping GET and POST"): the studio comes from the
 * `x-api-key` header (see the integrations module's gate: 401 without a live key, 403 for a read
 * key writing, per-key rate limits). The other public calls live with the module that owns their data.
 */
export const PublicApi = contractGroup('publicApi', {
  ping: {
    method: 'get',
    path: '/v2/public/ping',
    access: 'public',
    response: PingSchema,
  },
  pingPost: {
    method: 'post',
    path: '/v2/public/ping',
    access: 'public',
    body: PingInputSchema,
    response: PingEchoSchema,
  },
});
