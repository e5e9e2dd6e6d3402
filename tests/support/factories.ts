import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { hashPassword } from '../../cloud/src/modules/identity/passwords';
import { asStudio, type Membership, type Studio, type User } from '../../cloud/src/modules/identity/rows';
import { newSecret } from '../../cloud/src/modules/identity/tokens';

export const TEST_PASSWORD = 'correct horse battery';
/**
 * The fixtures' accounts store cheap scrypt hashes (N = 2^10): the suite signs them in thousands of
 * times, and at the product's 2^15 those checks were most of the integration run's time. Sign-in
 * verifies them by the same code; accounts made through the routes (sign-up) get the product's cost.
 */
export const TEST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };
let cachedHash: Promise<string> | undefined;
const passwordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD, TEST_SCRYPT));

const unique = () => uuidv7().slice(-12);

export async function createStudio(knex: Knex, overrides: Partial<Studio> = {}): Promise<Studio> {
  const tag = unique();
  const [row] = await knex('studios')
    .insert({
      id: uuidv7(),
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
    })
    .returning('*');
  return asStudio(row!);
}

export async function createUser(
  knex: Knex,
  overrides: Partial<User> & { password?: string | null } = {},
): Promise<User & { password: string }> {
  const { password = TEST_PASSWORD, ...rest } = overrides;
  const [user] = await knex('users')
    .insert({
      id: uuidv7(),
      email: `user-${unique()}@example.com`,
      passwordHash:
        password === null
          ? null
          : password === TEST_PASSWORD
            ? await passwordHash()
            : await hashPassword(password, TEST_SCRYPT),
      firstName: 'Test',
      lastName: 'User',
      locale: null,
      // An account with a password stands for an established one that proved its address; pass
      // `emailVerifiedAt: null` for a fresh sign-up that has not.
      emailVerifiedAt: password === null ? null : new Date(),
      ...rest,
    })
    .returning('*');
  return Object.assign(user!, { password: password ?? '' });
}

export async function addMembership(
  knex: Knex,
  studio: Pick<Studio, 'id'>,
  user: User,
  kind: { isClient?: boolean; isMember?: boolean; role?: string | null } = {},
): Promise<Membership> {
  const [membership] = await knex('memberships')
    .insert({
      id: uuidv7(),
      studioId: studio.id,
      userId: user.id,
      isClient: kind.isClient ?? false,
      isMember: kind.isMember ?? false,
      role: kind.role ?? null,
    })
    .returning('*');
  return membership!;
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
