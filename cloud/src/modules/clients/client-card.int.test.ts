import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createUser } from '../../../../tests/support/factories';
import type { TestApp } from '../../../../tests/support/test-app';
import { findUser } from '../identity/rows';
import { api, NOW, unique, useClientsApp } from './clients.test-support';

// Clients: the client card (read, edit, archive), notes and the studio's client records.
const kit = useClientsApp();
const { ownerStudio, staffWithRole, seedClient, createTag, givePass } = kit;
let app: TestApp;
beforeAll(() => {
  app = kit.app();
});

describe('GET client/{user}, init and profile; PATCH; DELETE', () => {
  it('shows a client with tags, valid pass and notes; 404 for staff-only and unknown users', async () => {
    const { studio, owner, manager } = await ownerStudio();
    const id = await seedClient(studio, {
      firstName: 'Olga',
      lastName: 'Pass',
      birthDate: '1985-01-31',
      sex: 1,
    });
    const tag = await createTag(owner, studio, 'VIP');
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [tag], userIds: [id] });
    await givePass(studio, id, { status: 1, expiresAt: new Date('2026-12-31T00:00:00Z') });
    const detail = await owner.get(api(studio, `client/${id}`));
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body).toMatchObject({
      id,
      firstName: 'Olga',
      birthDate: '1985-01-31',
      sex: 1,
      tags: [{ id: tag, name: 'VIP' }],
      hasValidPass: true,
    });
    const init = await owner.get(api(studio, `client/${id}/init`));
    expect(init.body).toMatchObject({
      client: { id },
      sexOptions: [
        { value: 0, labelKey: 'enums:userSex.0' },
        { value: 1, labelKey: 'enums:userSex.1' },
      ],
      tags: [{ id: tag, name: 'VIP' }],
      abilities: { canEdit: true, canDelete: true, canExport: true },
    });
    const profile = await owner.get(api(studio, `client/${id}/profile`));
    expect(profile.body.validPasses).toMatchObject([
      { name: { en: { value: '10 entries' } }, expiresAt: '2026-12-31T00:00:00.000Z' },
    ]);
    const instructor = await staffWithRole(studio, 'instructor');
    const asInstructor = await instructor.get(api(studio, `client/${id}/profile`));
    expect(asInstructor.body.abilities).toMatchObject({ canView: true, canEdit: false });

    expect((await owner.get(api(studio, `client/${manager.id}`))).status).toBe(404);
    expect((await owner.get(api(studio, `client/${uuidv7()}`))).status).toBe(404);
    expect((await owner.get(api(studio, 'client/not-a-uuid'))).status).toBe(404);
  });

  it('edits the record; a person only this studio manages follows, an account elsewhere does not', async () => {
    const { studio, owner } = await ownerStudio();
    const created = await owner.post(api(studio, 'client'), { firstName: 'Ola', lastName: 'Nowa' });
    const managed = created.body.client.id;
    const res = await owner.patch(api(studio, `client/${managed}`), {
      lastName: 'Nowak',
      emailAddress: `ola-${unique()}@example.com`,
      phone: '601 000 000',
      birthDate: '2000-02-29',
      sex: 1,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      lastName: 'Nowak',
      phone: '601 000 000',
      birthDate: '2000-02-29',
      sex: 1,
    });
    expect(await findUser(app.knex, managed)).toMatchObject({
      lastName: 'Nowak',
      email: res.body.emailAddress,
      phone: '601 000 000',
    });

    const withAccount = await createUser(app.knex, { firstName: 'Has', lastName: 'Password' });
    await addMembership(app.knex, studio, withAccount, { isClient: true });
    const edit = await owner.patch(api(studio, `client/${withAccount.id}`), {
      firstName: 'Renamed',
      emailAddress: `changed-${unique()}@example.com`,
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.firstName).toBe('Renamed');
    expect(await findUser(app.knex, withAccount.id)).toMatchObject({
      firstName: 'Has',
      email: withAccount.email,
    });

    const clash = await owner.patch(api(studio, `client/${managed}`), {
      emailAddress: edit.body.emailAddress,
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error.fields).toHaveProperty('emailAddress');
    const bad = await owner.patch(api(studio, `client/${managed}`), {
      firstName: '',
      sex: 'x',
      archived: true,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['archived', 'firstName', 'sex']);
  });

  it('archives (204, idempotent) and restores with archived: false; ?erase=true is refused', async () => {
    const { studio, owner } = await ownerStudio();
    const id = await seedClient(studio, { firstName: 'Arch', lastName: 'Ived' });
    const erase = await owner.delete(api(studio, `client/${id}?erase=true`));
    expect(erase.status).toBe(400);
    expect(erase.body.error.fields).toEqual({ 'query.erase': ['erasing a client is not available yet'] });
    expect((await owner.delete(api(studio, `client/${id}`))).status).toBe(204);
    expect((await owner.delete(api(studio, `client/${id}`))).status).toBe(204);
    const detail = await owner.get(api(studio, `client/${id}`));
    expect(detail.body).toMatchObject({ status: 'archived', archivedAt: NOW.toISOString() });
    // The person keeps their sign-in standing.
    expect(await app.knex('memberships').where({ studioId: studio.id, userId: id }).first()).toMatchObject({
      archivedAt: null,
    });
    const active = await owner.get(api(studio, 'client/collection'));
    expect(active.body.items.map((i: { id: string }) => i.id)).not.toContain(id);
    const restored = await owner.patch(api(studio, `client/${id}`), { archived: false });
    expect(restored.body).toMatchObject({ status: 'active', archivedAt: null });
  });
});
// ----------------------------------------------------------------------------------------- notes

describe('client notes', () => {
  it('creates (PUT), edits, lists newest first on the profile, and deletes', async () => {
    const { studio, owner, manager } = await ownerStudio();
    const client = await seedClient(studio, { firstName: 'Noted' });
    const first = await owner.request('PUT', api(studio, 'client-note'), {
      userId: client,
      type: 'private',
      content: ' Knee injury ',
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      userId: client,
      type: 'private',
      content: 'Knee injury',
      author: { id: manager.id, firstName: 'Maria', lastName: 'Manager' },
    });
    const frontDesk = await staffWithRole(studio, 'front_desk');
    const second = await frontDesk.request('PUT', api(studio, 'client-note'), {
      userId: client,
      type: 'public',
      content: 'Welcome back!',
    });
    expect(second.status).toBe(201);
    const edited = await frontDesk.patch(api(studio, `client-note/${first.body.id}`), {
      type: 'public',
      content: 'Healed',
    });
    expect(edited.body).toMatchObject({ id: first.body.id, type: 'public', content: 'Healed' });
    const profile = await owner.get(api(studio, `client/${client}/profile`));
    expect(profile.body.notes.map((n: { content: string }) => n.content)).toEqual([
      'Welcome back!',
      'Healed',
    ]);

    const bad = await owner.request('PUT', api(studio, 'client-note'), {
      userId: 'x',
      type: 'secret',
      content: '',
    });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['content', 'type', 'userId']);
    const staffOnly = await owner.request('PUT', api(studio, 'client-note'), {
      userId: manager.id,
      type: 'private',
      content: 'Not a client',
    });
    expect(staffOnly.status).toBe(404);
    expect((await owner.delete(api(studio, `client-note/${first.body.id}`))).status).toBe(204);
    expect((await owner.patch(api(studio, `client-note/${first.body.id}`), { content: 'x' })).status).toBe(
      404,
    );
    expect((await owner.get(api(studio, `client/${client}/profile`))).body.notes).toHaveLength(1);
  });
});
// -------------------------------------------------------------------------------- records & triggers

describe('the studio’s client records', () => {
  it('follow a person’s own changes where the studio kept the old value', async () => {
    const { studio, owner } = await ownerStudio();
    const person = await createUser(app.knex, { firstName: 'Self', lastName: 'Managed', phone: '600000001' });
    await addMembership(app.knex, studio, person, { isClient: true });
    await owner.patch(api(studio, `client/${person.id}`), { lastName: 'Studio-Typed' });
    await app
      .knex('users')
      .update({ firstName: 'Selma', lastName: 'Changed', phone: '600000002' })
      .where({ id: person.id });
    const detail = await owner.get(api(studio, `client/${person.id}`));
    expect(detail.body).toMatchObject({ firstName: 'Selma', lastName: 'Studio-Typed', phone: '600000002' });
  });

  it('follow the membership: archived with it, brought back with it unless the studio archived them', async () => {
    const { studio } = await ownerStudio();
    const a = await seedClient(studio, { firstName: 'Member', lastName: 'Archived' });
    const b = await seedClient(studio, { firstName: 'Studio', lastName: 'Archived', archived: true });
    const record = (userId: string) =>
      app.knex('clients').where({ studioId: studio.id, userId }).first('archived_at');
    const memberships = () =>
      app.knex('memberships').where({ studioId: studio.id }).whereIn('user_id', [a, b]);
    const gone = new Date('2026-10-01T00:00:00Z');
    await memberships().update({ archivedAt: gone });
    expect((await record(a)).archivedAt).toEqual(gone);
    expect((await record(b)).archivedAt).toEqual(NOW);
    await memberships().update({ archivedAt: null });
    expect((await record(a)).archivedAt).toBeNull();
    expect((await record(b)).archivedAt).toEqual(NOW);
  });

  it('an account erasure empties the studio’s record, its notes and tags', async () => {
    const { studio, owner, client } = await ownerStudio();
    const tag = await createTag(owner, studio, 'Gone');
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [tag], userIds: [client.id] });
    await owner.request('PUT', api(studio, 'client-note'), {
      userId: client.id,
      type: 'private',
      content: 'Private',
    });
    await owner.patch(api(studio, `client/${client.id}`), { birthDate: '1980-05-05', phone: '600 600 600' });
    const asClient = await app.signedIn(client.email, client.password, studio.id);
    const erased = await asClient.delete(api(studio, 'account'), { password: client.password });
    expect(erased.status, erased.text).toBe(204);
    const record = await app.knex('clients').where({ studioId: studio.id, userId: client.id }).first();
    expect(record).toMatchObject({ firstName: '', lastName: '', email: null, phone: null, birthDate: null });
    expect(record!.archivedAt).not.toBeNull();
    expect(await app.knex('client_notes').where({ clientId: client.id })).toEqual([]);
    expect(await app.knex('user_tags').where({ userId: client.id })).toEqual([]);
  });
});
