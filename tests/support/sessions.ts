import type { Studio } from '../../cloud/src/modules/identity/rows';
import { addMembership, createStudioScenario, createUser } from './factories';
import type { HttpClient } from './http-client';
import type { TestApp } from './test-app';

/**
 * The signed-in sessions the integration tests start from, over the file's app (a getter, since the
 * app starts in the file's beforeAll): a fresh studio with its owner signed in, and a member of staff
 * of a studio with a role key, signed in.
 */
export function studioSessions(app: () => TestApp) {
  /** A studio with its owner signed in. */
  async function ownerStudio() {
    const scenario = await createStudioScenario(app().knex);
    const owner = await app().signedIn(scenario.manager.email, scenario.manager.password);
    return { ...scenario, owner };
  }

  /** A member of staff of the studio with a role key, signed in. */
  async function staffWithRole(studio: Studio, role: string): Promise<HttpClient> {
    const user = await createUser(app().knex, { firstName: 'Staff', lastName: role });
    await addMembership(app().knex, studio, user, { isMember: true, role });
    return app().signedIn(user.email, user.password);
  }

  return { ownerStudio, staffWithRole };
}
