import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { hashPassword } from '../../cloud/src/modules/identity/passwords';
import { Membership } from '../../cloud/src/modules/identity/membership.model';
import { Studio } from '../../cloud/src/modules/identity/studio.model';
import { User } from '../../cloud/src/modules/identity/user.model';
import { newSecret } from '../../cloud/src/modules/identity/tokens';

export const TEST_PASSWORD = 'correct horse battery';
let cachedHash: Promise<string> | undefined;
const passwordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD));

const unique = () => uuidv7().slice(-12);

export async function createStudio(knex: Knex, overrides: Partial<Studio> = {}): Promise<Studio> {
  const tag = unique();
  return Studio.query(knex).insertAndFetch({
    name: `Test Studio ${tag}`,
    slug: `test-${tag}`,
    currency: 'PLN',
    defaultLocale: 'pl',
    timeZone: 'Europe/Warsaw',
    studioType: 1,
    addressLine: 'ul. Testowa 1',
    postalCode: '00-001',
    city: 'Warszawa',
    country: 'PL',
    kioskKey: newSecret(12),
    appearance: {},
    settings: {},
    ...overrides,
  });
}

export async function createUser(
  knex: Knex,
  overrides: Partial<User> & { password?: string | null } = {},
): Promise<User & { password: string }> {
  const { password = TEST_PASSWORD, ...rest } = overrides;
  const user = await User.query(knex).insertAndFetch({
    email: `user-${unique()}@example.com`,
    passwordHash:
      password === null
        ? null
        : password === TEST_PASSWORD
          ? await passwordHash()
          : await hashPassword(password),
    firstName: 'Test',
    lastName: 'User',
    locale: null,
    // An account with a password stands for an established one that proved its address; pass
    // `emailVerifiedAt: null` for a fresh sign-up that has not.
    emailVerifiedAt: password === null ? null : new Date(),
    ...rest,
  });
  return Object.assign(user, { password: password ?? '' });
}

export async function addMembership(
  knex: Knex,
  studio: Pick<Studio, 'id'>,
  user: User,
  kind: { isClient?: boolean; isMember?: boolean; role?: string | null } = {},
): Promise<Membership> {
  return Membership.query(knex).insertAndFetch({
    studioId: studio.id,
    userId: user.id,
    isClient: kind.isClient ?? false,
    isMember: kind.isMember ?? false,
    role: kind.role ?? null,
  });
}

/** A studio with an owner (staff) and a client, each able to sign in. */
export async function createStudioScenario(knex: Knex, overrides: Partial<Studio> = {}) {
  const studio = await createStudio(knex, overrides);
  const manager = await createUser(knex, { firstName: 'Maria', lastName: 'Manager' });
  await addMembership(knex, studio, manager, { isMember: true, role: 'owner' });
  const client = await createUser(knex, { firstName: 'Kamil', lastName: 'Client' });
  await addMembership(knex, studio, client, { isClient: true });
  return { studio, manager, client };
}
