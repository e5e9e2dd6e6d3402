import { systemClock } from '../../../cloud/src/clock';
import type { Knex } from '../../../cloud/src/db/knex';
import { openSession } from '../../../cloud/src/modules/identity/sessions.service';
import { HttpClient } from '../../support/http-client';

/** An HTTP client of the server at `url`, signed in as `userId` by a session written straight to the database. */
export async function signedInClient(knex: Knex, url: string, userId: string): Promise<HttpClient> {
  const { session, sessionId } = await openSession(knex, systemClock, userId, 24, {});
  const http = new HttpClient(url);
  http.token = session.csrfToken;
  http.session = { sessionId, userId, token: session.csrfToken, me: {} as never };
  return http;
}
