import { v7 as uuidv7 } from 'uuid';
import {
  ClientCheckExistenceQuerySchema,
  ClientCreateInputSchema,
  ClientUpdateInputSchema,
  type ClientCheckExistenceResult,
  type ClientCreateResult,
  type ClientDetail,
  type ClientEditInit,
  type ClientProfile,
  type ClientSearchResult,
  type ClientList,
} from '../../../shared/contracts/api/clients';
import { phoneMatchKey } from '../../../shared/domain/clients';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { AppError } from '../../../shared/errors';
import type { SyncEngine } from '../sync/engine';
import type { Row } from '../sync/local-store';
import { CLIENT_ABILITIES, CLIENT_EDIT_OPTIONS, type OfflineApiCache } from './offline-cache';
import { clientSearchCondition, sameContact } from './offline-desk';
import { Answer, parse, type ParsedRequest } from './offline-router';

type Json = Record<string, unknown>;

/** A stored time as ISO text (null stays null). */
export const iso = (v: unknown): string | null =>
  v === null || v === undefined ? null : new Date(String(v)).toISOString();

/**
 * The desk's clients offline (split from offline-api.ts, which routes to it): search and list, the
 * profile's basics with valid passes and tags, what the person may do with clients, and clients
 * added or edited at the desk (`createClient@1` / `updateClient@1`, durable in the outbox before the
 * answer). Reads come from the station's mirror with pending local effects on top.
 */
export class OfflineClients {
  constructor(
    private readonly engine: SyncEngine,
    private readonly cache: OfflineApiCache,
    private readonly now: () => Date,
    private readonly deps: {
      /** The last answer the cloud gave this person for a settings-like read (offline-api.ts). */
      cached: <T>(userId: string, key: string) => T | null;
      /** The studio's time zone as this person last saw it. */
      timeZone: (userId: string) => string;
    },
  ) {}

  private get store() {
    return this.engine.store;
  }

  /** Every word of the search in the folded name/email/phone (offline-desk.ts), as the cloud matches. */
  private clientRows(q: string, limit: number, archived: boolean): Row[] {
    const search = clientSearchCondition(q);
    return (
      this.store.db
        .prepare(
          `select data from rows where tbl = 'clients' and ${search.sql}
             and (json_extract(data, '$.archived_at') is null) = ?
           order by json_extract(data, '$.last_key'), json_extract(data, '$.first_key'), id limit ?`,
        )
        .all(...search.bindings, archived ? 0 : 1, limit) as Array<{ data: string }>
    ).map((r) => JSON.parse(r.data) as Row);
  }

  clientSearch(r: ParsedRequest): ClientSearchResult {
    const limit = Math.min(50, Math.max(1, Number(r.query.get('limit') ?? 10) || 10));
    return {
      items: this.clientRows(r.query.get('q') ?? '', limit, false).map((c) => ({
        id: String(c.user_id),
        firstName: String(c.first_name ?? ''),
        lastName: String(c.last_name ?? ''),
        emailAddress: (c.email as string | null) ?? null,
        phone: (c.phone as string | null) ?? null,
        status: c.archived_at ? 'archived' : 'active',
      })),
      next: null,
    };
  }

  private validPasses(userId: string): Row[] {
    const now = this.now().getTime();
    return (
      this.store.db
        .prepare(
          `select data from rows where tbl = 'client_pricing_options' and json_extract(data, '$.client_id') = ?`,
        )
        .all(userId) as Array<{ data: string }>
    )
      .map((r) => JSON.parse(r.data) as Row)
      .filter((p) => Number(p.status) === 1 && (!p.expires_at || Date.parse(String(p.expires_at)) > now))
      .sort((a, b) => String(a.expires_at ?? '9999').localeCompare(String(b.expires_at ?? '9999')));
  }

  private tagsOf(userId: string): Array<{ id: string; name: string }> {
    return (
      this.store.db
        .prepare(
          `select t.data as data from rows ut join rows t on t.tbl = 'tags' and t.id = json_extract(ut.data, '$.tag_id')
            where ut.tbl = 'user_tags' and json_extract(ut.data, '$.user_id') = ?`,
        )
        .all(userId) as Array<{ data: string }>
    ).map((r) => {
      const tag = JSON.parse(r.data) as Row;
      return { id: tag.id, name: String(tag.name ?? '') };
    });
  }

  private listItem(c: Row) {
    const userId = String(c.user_id);
    return {
      id: userId,
      firstName: String(c.first_name ?? ''),
      lastName: String(c.last_name ?? ''),
      emailAddress: (c.email as string | null) ?? null,
      phone: (c.phone as string | null) ?? null,
      birthDate: (c.birth_date as string | null) ?? null,
      sex: c.sex === null || c.sex === undefined ? null : Number(c.sex),
      status: c.archived_at ? ('archived' as const) : ('active' as const),
      tags: this.tagsOf(userId),
      hasValidPass: this.validPasses(userId).length > 0,
      createdAt: iso(c.created_at) ?? new Date(0).toISOString(),
      ...(this.isProvisional('clients', c.id) ? { provisional: true } : {}),
    };
  }

  /** A row a pending local command made or changed: what the desk sees until a sync confirms it. */
  isProvisional(tbl: string, id: string): boolean {
    return Boolean(this.store.db.prepare('select 1 from shadow where tbl = ? and id = ?').get(tbl, id));
  }

  /** The client list's first page for a search (filters other than the text and status are not applied offline). */
  clientList(r: ParsedRequest): ClientList {
    const limit = Math.min(100, Math.max(1, Number(r.query.get('limit') ?? 50) || 50));
    const archived = r.query.get('status') === 'archived';
    return {
      items: this.clientRows(r.query.get('q') ?? '', limit, archived).map((c) => this.listItem(c)),
      next: null,
    };
  }

  clientProfile(userId: string, r: ParsedRequest): ClientProfile {
    const c = this.store.clientByUser(userId);
    if (!c) throw AppError.notFound('client');
    const names = new Map<string, Json>();
    const nameOf = (optionId: string) => {
      if (!names.has(optionId))
        names.set(optionId, (this.store.get('pricing_options', optionId)?.name as Json | undefined) ?? {});
      return names.get(optionId) as Record<string, { value: string }>;
    };
    return {
      client: {
        ...this.listItem(c),
        isMember: false,
        hasAccount: false,
        archivedAt: iso(c.archived_at),
        updatedAt: iso(c.updated_at) ?? new Date(0).toISOString(),
      },
      notes: [],
      validPasses: this.validPasses(userId).map((p) => ({
        id: p.id,
        pricingOptionId: String(p.pricing_option_id),
        name: nameOf(String(p.pricing_option_id)),
        entries: p.entries === null || p.entries === undefined ? null : Number(p.entries),
        expiresAt: iso(p.expires_at),
      })),
      // Offline the record's fields can be edited (updateClient); deleting, exporting and messaging
      // need the cloud.
      abilities: {
        ...this.clientAbilities(r.userId),
        canDelete: false,
        canExport: false,
        canMessage: false,
      },
    };
  }

  /** The person's client abilities as the cloud last said (none seen: view and edit nothing). */
  clientAbilities(userId: string): ClientProfile['abilities'] {
    return {
      ...(this.deps.cached<ClientProfile['abilities']>(userId, CLIENT_ABILITIES) ?? {
        canView: true,
        canEdit: false,
        canDelete: false,
        canExport: false,
        canMessage: false,
        canDecryptFields: false,
      }),
      canDelete: false,
      canExport: false,
      canMessage: false,
    };
  }

  private detailOf(c: Row): ClientDetail {
    return {
      ...this.listItem(c),
      isMember: false,
      hasAccount: false,
      archivedAt: iso(c.archived_at),
      updatedAt: iso(c.updated_at) ?? new Date(0).toISOString(),
    };
  }

  private searchItem(c: Row) {
    return {
      id: String(c.user_id),
      firstName: String(c.first_name ?? ''),
      lastName: String(c.last_name ?? ''),
      emailAddress: (c.email as string | null) ?? null,
      phone: (c.phone as string | null) ?? null,
      status: c.archived_at ? ('archived' as const) : ('active' as const),
    };
  }

  /**
   * `POST client` → `createClient@1` (fact-like): the desk assigns both ids, so the client can be
   * booked and checked in at once. The cloud never refuses it for a known email (it flags a
   * possible duplicate); the same email or phone in the mirror is reported here as the cloud does.
   */
  createClient(r: ParsedRequest): Answer {
    const input = parse(ClientCreateInputSchema, r.body);
    if (input.birthDate && input.birthDate > localDateOf(this.now(), this.deps.timeZone(r.userId)))
      throw AppError.invalid({ birthDate: ['cannot be in the future'] });
    const userId = uuidv7();
    const duplicates = sameContact(this.store, input.emailAddress ?? null, input.phone ?? null);
    this.engine.mutate('createClient', 1, { ...input, userId, clientId: uuidv7() }, { actorId: r.userId });
    const result: ClientCreateResult = {
      client: this.detailOf(this.store.clientByUser(userId)!),
      possibleDuplicates: duplicates.map((c) => this.searchItem(c)),
      linkedExistingAccount: false,
      restored: false,
    };
    return new Answer(201, result);
  }

  checkExistence(r: ParsedRequest): ClientCheckExistenceResult {
    const q = parse(ClientCheckExistenceQuerySchema, Object.fromEntries(r.query));
    const mail = q.emailAddress?.toLowerCase() ?? null;
    const key = phoneMatchKey(q.phone ?? null);
    const matches = sameContact(this.store, q.emailAddress ?? null, q.phone ?? null).map((c) => ({
      ...this.searchItem(c),
      matchedBy: [
        ...(mail && String(c.email ?? '').toLowerCase() === mail ? (['emailAddress'] as const) : []),
        ...(key && c.phone_key === key ? (['phone'] as const) : []),
      ],
    }));
    return { exists: matches.length > 0, matches };
  }

  clientDetail(userId: string): ClientDetail {
    const c = this.store.clientByUser(userId);
    if (!c) throw AppError.notFound('client');
    return this.detailOf(c);
  }

  /** The edit form: the mirror's record, the options the cloud last gave (sex options are fixed). */
  clientEditInit(userId: string, r: ParsedRequest): ClientEditInit {
    const detail = this.clientDetail(userId);
    const options = this.deps.cached<Pick<ClientEditInit, 'sexOptions' | 'tags'>>(
      r.userId,
      CLIENT_EDIT_OPTIONS,
    );
    const addInit = this.deps.cached<{ sexOptions: ClientEditInit['sexOptions'] }>(
      r.userId,
      'client/add/init',
    );
    return {
      client: detail,
      sexOptions: options?.sexOptions ?? addInit?.sexOptions ?? [],
      tags: options?.tags ?? [],
      abilities: this.clientAbilities(r.userId),
    };
  }

  /**
   * `PATCH client/{user}` → `updateClient@1` (intent): the fields sent, each applied last-writer-wins
   * in the cloud's receipt order. Only with the right to edit (as the cloud last said).
   */
  updateClient(userId: string, r: ParsedRequest): ClientDetail {
    const fields = parse(ClientUpdateInputSchema, r.body);
    if (!this.store.clientByUser(userId)) throw AppError.notFound('client');
    if (!this.clientAbilities(r.userId).canEdit)
      throw new AppError('auth.forbidden', { message: 'you have no permission to perform this action' });
    if (fields.birthDate && fields.birthDate > localDateOf(this.now(), this.deps.timeZone(r.userId)))
      throw AppError.invalid({ birthDate: ['cannot be in the future'] });
    if (Object.keys(fields).length > 0)
      this.engine.mutate('updateClient', 1, { userId, fields }, { actorId: r.userId });
    return this.clientDetail(userId);
  }
}
