import type { AccountErasureInput } from '../../../shared/contracts/api/account';
import { IdentityApi } from '../../../shared/contracts/http/identity';
import type { ApiClient } from '../../lib/api-client';

/**
 * Erases the signed-in client's account in one studio (DELETE {uuid}/account, 204). The server ends
 * the session and clears its cookie; the caller then forgets the credentials it holds in memory
 * (`api.clearSession()`), once it shows the confirmation.
 */
export async function eraseAccount(
  api: ApiClient,
  studioUuid: string,
  input: AccountErasureInput,
): Promise<void> {
  await api.call(IdentityApi.eraseAccount, { params: { uuid: studioUuid }, body: input });
}
