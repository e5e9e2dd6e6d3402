import type {
  SyncIssue,
  SyncIssueAction,
  SyncIssueList,
  SyncIssueType,
} from '../../../shared/contracts/api/sync-review';
import { AppError } from '../../../shared/errors';
import type { Db } from '../db/knex';

/**
 * What stations left for a person: `sync_flags` (a command applied with something to look at) and
 * `sync_quarantine` (a command whose handler kept failing; its payload is kept). One list, newest
 * first, keyset-paged by (created_at, id); every query scoped by the studio.
 */

interface IssueRow {
  type: SyncIssueType;
  id: string;
  device_id: string | null;
  device_name: string | null;
  kind: string;
  subject_table: string | null;
  subject_id: string | null;
  details: Record<string, unknown> | null;
  version: number | null;
  seq: string | null;
  error: string | null;
  created_at: Date;
  resolved_at: Date | null;
  resolution: 'resolved' | 'dismissed' | null;
  resolved_by: string | null;
  resolver_first: string | null;
  resolver_last: string | null;
  client_user_id: string | null;
  client_first: string | null;
  client_last: string | null;
  starts_at: Date | null;
}

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

function present(row: IssueRow): SyncIssue {
  return {
    id: row.id,
    type: row.type,
    station: row.device_id ? { id: row.device_id, name: row.device_name ?? '' } : null,
    kind: row.kind,
    subject:
      row.subject_table && row.subject_id
        ? {
            table: row.subject_table,
            id: row.subject_id,
            client: row.client_user_id
              ? { userId: row.client_user_id, name: fullName(row.client_first, row.client_last) }
              : null,
            startsAt: row.starts_at ? row.starts_at.toISOString() : null,
          }
        : null,
    details: row.details ?? {},
    command:
      row.type === 'quarantine'
        ? { name: row.kind, version: row.version ?? 1, seq: Number(row.seq ?? 0), error: row.error ?? '' }
        : null,
    createdAt: row.created_at.toISOString(),
    resolvedAt: row.resolved_at ? row.resolved_at.toISOString() : null,
    resolution: row.resolution,
    resolvedBy: row.resolved_by
      ? { id: row.resolved_by, name: fullName(row.resolver_first, row.resolver_last) }
      : null,
  };
}

// Both kinds as one relation: the client a flag is about (a client record, or a visit's client).
const ISSUES_SQL = `
  select 'flag' as type, f.id, f.device_id, f.kind, f.subject_table, f.subject_id, f.details,
         null::int as version, null::bigint as seq, null::text as error,
         f.created_at, f.resolved_at, f.resolution, f.resolved_by, f.studio_id
    from sync_flags f
  union all
  select 'quarantine', q.mutation_id, q.device_id, q.name, null, null, null,
         q.version, q.seq, q.error, q.created_at, q.resolved_at, q.resolution, q.resolved_by, q.studio_id
    from sync_quarantine q`;

export async function listSyncIssues(
  db: Db,
  studioId: string,
  query: { state: 'open' | 'closed'; station?: string; cursor?: string; limit: number },
): Promise<SyncIssueList> {
  const bindings: unknown[] = [studioId];
  let where = `i.studio_id = ? and i.resolved_at is ${query.state === 'open' ? 'null' : 'not null'}`;
  if (query.station) {
    where += ' and i.device_id = ?';
    bindings.push(query.station);
  }
  if (query.cursor) {
    const at = query.cursor.indexOf('_');
    where += ' and (i.created_at, i.id) < (?::timestamptz, ?::uuid)';
    bindings.push(query.cursor.slice(0, at), query.cursor.slice(at + 1));
  }
  const rows = await issueRows(db, where, bindings, query.limit + 1);
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page[page.length - 1];
  const stations: { rows: Array<{ id: string; name: string; open: number }> } = await db.raw(
    `select d.id, d.name,
            (select count(*) from sync_flags f where f.device_id = d.id and f.studio_id = d.studio_id and f.resolved_at is null)::int
          + (select count(*) from sync_quarantine q where q.device_id = d.id and q.studio_id = d.studio_id and q.resolved_at is null)::int
            as open
       from sync_devices d
      where d.studio_id = ?
      order by d.name, d.id`,
    [studioId],
  );
  return {
    items: page.map(present),
    next: more && last ? `${last.created_at.toISOString()}_${last.id}` : null,
    stations: stations.rows,
  };
}

/**
 * Closes one item: `resolve` (dealt with) or `dismiss` (nothing to do). The row is locked first, so two
 * people closing the same item get one success and one 409; another studio's item is not found.
 */
export async function closeSyncIssue(
  trx: Db,
  studioId: string,
  type: SyncIssueType,
  id: string,
  action: SyncIssueAction['action'],
  userId: string,
  now: Date,
): Promise<SyncIssue> {
  const table = type === 'flag' ? 'sync_flags' : 'sync_quarantine';
  const key = type === 'flag' ? 'id' : 'mutation_id';
  const locked: { rows: Array<{ resolved_at: Date | null }> } = await trx.raw(
    `select resolved_at from ${table} where ${key} = ? and studio_id = ? for update`,
    [id, studioId],
  );
  const row = locked.rows[0];
  if (!row) throw AppError.notFound(type === 'flag' ? 'flag' : 'quarantined command');
  if (row.resolved_at)
    throw new AppError('sync.issueClosed', { message: 'someone has already closed this item' });
  await trx.raw(
    `update ${table} set resolved_at = ?, resolved_by = ?, resolution = ? where ${key} = ? and studio_id = ?`,
    [now, userId, action === 'resolve' ? 'resolved' : 'dismissed', id, studioId],
  );
  const [closed] = await issueRows(
    trx,
    'i.studio_id = ? and i.type = ? and i.id = ?',
    [studioId, type, id],
    1,
  );
  return present(closed!);
}

/** Issues with their station, who closed them and the client concerned, newest first. */
async function issueRows(db: Db, where: string, bindings: unknown[], limit: number): Promise<IssueRow[]> {
  const res: { rows: IssueRow[] } = await db.raw(
    `select i.*, d.name as device_name, r.first_name as resolver_first, r.last_name as resolver_last,
            coalesce(c.user_id, v.client_id) as client_user_id,
            coalesce(c.first_name, vc.first_name) as client_first,
            coalesce(c.last_name, vc.last_name) as client_last, v.starts_at
       from (${ISSUES_SQL}) i
       left join sync_devices d on d.id = i.device_id and d.studio_id = i.studio_id
       left join users r on r.id = i.resolved_by
       left join clients c on i.subject_table = 'clients' and c.id = i.subject_id and c.studio_id = i.studio_id
       left join client_visits v
              on i.subject_table = 'client_visits' and v.id = i.subject_id and v.studio_id = i.studio_id
       left join clients vc on vc.user_id = v.client_id and vc.studio_id = i.studio_id
      where ${where}
      order by i.created_at desc, i.id desc
      limit ?`,
    [...bindings, limit] as never,
  );
  return res.rows;
}
