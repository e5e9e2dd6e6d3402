import { describe, expect, it } from 'vitest';
import {
  addMembership,
  createStudio,
  createStudioScenario,
  createUser,
} from '../../../../tests/support/factories';
import { useTestApp } from '../../../../tests/support/test-app';

const app = useTestApp();

/**
 * A one-word search is a name and maybe a card number: the list runs the two as a UNION (each through
 * its own index, issue 27) and must still find both kinds of match, in name order, in this studio only.
 */
describe('client search by a word that is a name and a card number', () => {
  it('finds the namesakes and the card holder, sorted by name, and no other studio’s', async () => {
    const { studio, manager } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const client = async (studioId: string, firstName: string, lastName: string) => {
      const user = await createUser(app.knex, { firstName, lastName });
      await addMembership(app.knex, { id: studioId }, user, { isClient: true });
      return user.id;
    };
    const kowalska = await client(studio.id, 'Anna', 'Kowalska');
    const kowal = await client(studio.id, 'Jan', 'Kowal');
    const holder = await client(studio.id, 'Zofia', 'Zielińska');
    await client(studio.id, 'Ewa', 'Nowak');
    const added = await owner.post(`/api/v4/${studio.id}/client/${holder}/client-identity`, {
      cardNumber: 'KOWAL',
    });
    expect(added.status, added.text).toBe(201);
    const other = await createStudio(app.knex);
    await client(other.id, 'Piotr', 'Kowalski');

    for (const path of ['client/search?q=kowal', 'client/collection?q=kowal']) {
      const res = await owner.get(`/api/v4/${studio.id}/${path}`);
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.items.map((c: { id: string }) => c.id),
        path,
      ).toEqual([kowal, kowalska, holder]);
    }
  });
});
