import { foldSearchText, phoneDigits, phoneMatchKey } from '../../../shared/domain/clients';
import type { PatchOp } from '../../../shared/contracts/sync';
import type { LocalDatabase } from '../db/database';

/**
 * A local effect as data, so it can be re-applied after every pull (docs/offline-sync.md: "re-apply
 * the effects of still-pending mutations"). Each op is idempotent: insert by id, set fields, delete.
 */
export type EffectOp =
  | { op: 'put'; tbl: string; id: string; data: Record<string, unknown> }
  | { op: 'merge'; tbl: string; id: string; data: Record<string, unknown> }
  | { op: 'del'; tbl: string; id: string };

export type Row = Record<string, unknown> & { id: string };

/** Columns the server generates (search keys), recomputed locally after a local change. */
function derive(tbl: string, row: Record<string, unknown>): Record<string, unknown> {
  if (tbl !== 'clients') return row;
  const first = String(row.first_name ?? '');
  const last = String(row.last_name ?? '');
  const phone = (row.phone as string | null) ?? null;
  const digits = phoneDigits(phone) ?? '';
  return {
    ...row,
    first_key: foldSearchText(first),
    last_key: foldSearchText(last),
    phone_digits: digits || null,
    phone_key: phoneMatchKey(phone),
    search_text: foldSearchText(`${first} ${last} ${(row.email as string | null) ?? ''} ${digits}`),
  };
}

/** The station's rows: reads for the desk, writes only through effects and pulls. Synchronous. */
export class LocalStore {
  private readonly stmts;

  constructor(readonly db: LocalDatabase) {
    this.stmts = {
      get: db.prepare('select data from rows where tbl = ? and id = ?'),
      put: db.prepare(
        'insert into rows (tbl, id, data) values (?, ?, ?) on conflict (tbl, id) do update set data = excluded.data',
      ),
      del: db.prepare('delete from rows where tbl = ? and id = ?'),
      shadowHas: db.prepare('select 1 from shadow where tbl = ? and id = ?'),
      shadowPut: db.prepare('insert into shadow (tbl, id, data) values (?, ?, ?)'),
      shadowAll: db.prepare('select tbl, id, data from shadow'),
      shadowClear: db.prepare('delete from shadow'),
      metaGet: db.prepare('select value from meta where key = ?'),
      metaSet: db.prepare(
        'insert into meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value',
      ),
      metaDel: db.prepare('delete from meta where key = ?'),
    };
  }

  getMeta(key: string): string | null {
    const row = this.stmts.metaGet.get(key) as { value: string } | undefined;
    return row ? row.value : null;
  }

  setMeta(key: string, value: string | number | null): void {
    if (value === null) this.stmts.metaDel.run(key);
    else this.stmts.metaSet.run(key, String(value));
  }

  get<T extends Row = Row>(tbl: string, id: string): T | null {
    const row = this.stmts.get.get(tbl, id) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as T) : null;
  }

  list<T extends Row = Row>(tbl: string): T[] {
    return (
      this.db.prepare('select data from rows where tbl = ? order by id').all(tbl) as Array<{ data: string }>
    ).map((r) => JSON.parse(r.data) as T);
  }

  count(tbl: string): number {
    return (this.db.prepare('select count(*) as n from rows where tbl = ?').get(tbl) as { n: number }).n;
  }

  /** The studio's record of a client by the person's id (the API's `{user}`). */
  clientByUser(userId: string): Row | null {
    const row = this.db
      .prepare(`select data from rows where tbl = 'clients' and json_extract(data, '$.user_id') = ?`)
      .get(userId) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as Row) : null;
  }

  /** Clients whose last or first name starts with the folded query (the desk's search box, offline). */
  searchClients(query: string, limit = 20): Row[] {
    const q = `${foldSearchText(query.trim())}%`;
    return (
      this.db
        .prepare(
          `select data from rows where tbl = 'clients'
             and (json_extract(data, '$.last_key') like ? or json_extract(data, '$.first_key') like ?)
           order by json_extract(data, '$.last_key'), json_extract(data, '$.first_key') limit ?`,
        )
        .all(q, q, limit) as Array<{ data: string }>
    ).map((r) => JSON.parse(r.data) as Row);
  }

  /** Applies local effects, keeping the server's version of each key first touched. Call inside a transaction. */
  applyEffects(ops: readonly EffectOp[]): void {
    for (const op of ops) {
      const current = this.stmts.get.get(op.tbl, op.id) as { data: string } | undefined;
      if (!this.stmts.shadowHas.get(op.tbl, op.id))
        this.stmts.shadowPut.run(op.tbl, op.id, current?.data ?? null);
      if (op.op === 'del') this.stmts.del.run(op.tbl, op.id);
      else if (op.op === 'put')
        this.stmts.put.run(op.tbl, op.id, JSON.stringify(derive(op.tbl, { ...op.data, id: op.id })));
      else if (current) {
        const merged = derive(op.tbl, { ...(JSON.parse(current.data) as object), ...op.data });
        this.stmts.put.run(op.tbl, op.id, JSON.stringify(merged));
      }
    }
  }

  /** Puts back the server's version of every key local effects touched. Call inside a transaction. */
  restoreShadow(): void {
    for (const s of this.stmts.shadowAll.all() as Array<{ tbl: string; id: string; data: string | null }>) {
      if (s.data === null) this.stmts.del.run(s.tbl, s.id);
      else this.stmts.put.run(s.tbl, s.id, s.data);
    }
    this.stmts.shadowClear.run();
  }

  /** Applies a server patch (rows as the server holds them). Call inside a transaction, after restoreShadow. */
  applyPatch(patch: readonly PatchOp[]): void {
    for (const p of patch) {
      if (p.op === 'put') this.stmts.put.run(p.table, p.id, JSON.stringify(p.row));
      else this.stmts.del.run(p.table, p.id);
    }
  }
}
