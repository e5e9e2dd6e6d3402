import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { compiled } from './compiled';
import { preparesStatements } from './knex';

/**
 * Hot statements compiled once (`compiled`): they answer what the same knex query answers, inside
 * and outside a transaction, are sent prepared on PostgreSQL, show in knex's query events, and a
 * statement whose text would vary with its values is refused instead of run wrong.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

async function twoUsers() {
  const tag = uuidv7().slice(-8);
  const users = [
    { id: uuidv7(), email: `a-${tag}@example.com`, firstName: 'Ada', lastName: `Compiled ${tag}` },
    { id: uuidv7(), email: `b-${tag}@example.com`, firstName: 'Bo', lastName: `Compiled ${tag}` },
  ];
  await app.knex('users').insert(users);
  return { tag, users };
}

const byLastName = compiled<{ lastName: string; after: Date }>((db, p) =>
  db('users as u')
    .where('u.lastName', p.lastName)
    .where('u.createdAt', '>', p.after)
    .select('u.id', 'u.firstName', db.raw('upper(u.email) as shout'))
    .orderBy('u.firstName'),
);

describe('compiled statements', () => {
  it('answer what the knex query answers, camelCase keys and first row alike', async () => {
    const { tag, users } = await twoUsers();
    const params = { lastName: `Compiled ${tag}`, after: new Date(0) };
    const viaKnex = await app
      .knex('users as u')
      .where('u.lastName', params.lastName)
      .where('u.createdAt', '>', params.after)
      .select('u.id', 'u.firstName', app.knex.raw('upper(u.email) as shout'))
      .orderBy('u.firstName');
    const rows = await byLastName.rows(app.knex, params);
    expect(rows).toEqual(viaKnex);
    expect(rows.map((r) => (r as { firstName: string }).firstName)).toEqual(['Ada', 'Bo']);
    expect(await byLastName.first(app.knex, params)).toEqual(viaKnex[0]);
    expect(await byLastName.first(app.knex, { ...params, lastName: 'nobody' })).toBeUndefined();
    // Another call's values, the same compiled text.
    expect(await byLastName.rows(app.knex, { ...params, after: new Date(Date.now() + 3_600_000) })).toEqual(
      [],
    );
    expect(users).toHaveLength(2);
  });

  it('run on the transaction’s connection: they see its writes and roll back with it', async () => {
    const { tag } = await twoUsers();
    const lastName = `Compiled ${tag}`;
    await app.knex
      .transaction(async (trx) => {
        await trx('users').where({ lastName, firstName: 'Bo' }).update({ firstName: 'Cy' });
        const inside = await byLastName.rows<{ firstName: string }>(trx, { lastName, after: new Date(0) });
        expect(inside.map((r) => r.firstName)).toEqual(['Ada', 'Cy']);
        throw new Error('roll back');
      })
      .catch((err: Error) => expect(err.message).toBe('roll back'));
    const after = await byLastName.rows<{ firstName: string }>(app.knex, { lastName, after: new Date(0) });
    expect(after.map((r) => r.firstName)).toEqual(['Ada', 'Bo']);
  });

  it('raw statements answer the driver’s result; knex’s query events see them', async () => {
    const echo = compiled<{ a: number; b: string }>((db, p) =>
      db.raw('select ?::int + 1 as next, ?::text as "sameKey"', [p.a, p.b]),
    );
    const seen: string[] = [];
    const listen = (q: { sql: string }) => seen.push(q.sql);
    app.knex.on('query', listen);
    try {
      const { rows } = await echo.raw<{ next: number; sameKey: string }>(app.knex, { a: 41, b: 'x' });
      expect(rows).toEqual([{ next: 42, sameKey: 'x' }]);
    } finally {
      app.knex.off('query', listen);
    }
    expect(seen).toEqual([echo.text]);
    expect(echo.values({ a: 1, b: 'y' })).toEqual([1, 'y']);
  });

  it.skipIf(inject('embeddedDatabase'))('are sent prepared on PostgreSQL', async () => {
    expect(preparesStatements(app.knex)).toBe(true);
    const probe = compiled<{ n: number }>((db, p) =>
      db.raw('select ?::int * 2 as twice /* compiled probe */', [p.n]),
    );
    await app.knex.transaction(async (trx) => {
      const { rows } = await probe.raw<{ twice: number }>(trx, { n: 21 });
      expect(rows[0]!.twice).toBe(42);
      const prepared = await trx.raw<{ rows: Array<{ statement: string }> }>(
        'select statement from pg_prepared_statements',
      );
      expect(prepared.rows.some((r) => r.statement.includes('compiled probe'))).toBe(true);
    });
  });

  it('refuses a statement that decides its text with a parameter instead of binding it', async () => {
    // A marker stands in while the text is built: a clause chosen by a value would be chosen once for all.
    const varying = compiled<{ lastName: string; onlyAda: boolean }>((db, p) => {
      const q = db('users').where('lastName', p.lastName).select('id');
      return p.onlyAda ? q.where('firstName', 'Ada') : q;
    });
    await expect(varying.rows(app.knex, { lastName: 'x', onlyAda: false })).rejects.toThrow(
      /not bound: onlyAda/,
    );
  });
});
