import type { Outcome } from '../../../shared/contracts/sync';
import type { SyncNotice } from '../../../shared/contracts/ipc/sync-notices';
import type { LocalStore, Row } from './local-store';
import type { LocalDatabase } from '../db/database';

/**
 * Outcomes that came back different from what the desk assumed offline — a booking waitlisted or
 * refused, a check-in, new client or sale flagged for review, a command quarantined — listed for
 * staff until someone at the desk acknowledges them (local migration 6: `outbox.noticed_at`). The
 * cloud's review screen (`#/sync`, cloud/src/sync/README.md) is where flags are resolved; this list is
 * the desk's "you should know" and links there.
 */
export class SyncNotices {
  constructor(
    private readonly db: LocalDatabase,
    private readonly store: LocalStore,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Unacknowledged outcomes other than `applied`, newest first (at most 100). */
  list(): SyncNotice[] {
    const rows = this.db
      .prepare(
        `select seq, name, args, outcome, occurred_at from outbox
          where outcome is not null and noticed_at is null and json_extract(outcome, '$.status') <> 'applied'
          order by seq desc limit 100`,
      )
      .all() as Array<{ seq: number; name: string; args: string; outcome: string; occurred_at: string }>;
    return rows.map((r) => {
      const outcome = JSON.parse(r.outcome) as Outcome;
      const args = JSON.parse(r.args) as Record<string, unknown>;
      const { client, event } = this.subjectOf(r.name, args, outcome);
      return {
        seq: r.seq,
        command: r.name,
        status: outcome.status,
        flags: outcome.flags ?? [],
        key: outcome.key ?? null,
        code: outcome.code ?? null,
        message: outcome.message ?? null,
        fields: outcome.fields ?? {},
        occurredAt: r.occurred_at,
        client,
        event,
      };
    });
  }

  /** Marks these as seen by `actorId`; unknown or already acknowledged seqs are ignored. */
  acknowledge(seqs: readonly number[], actorId: string | null): SyncNotice[] {
    const mark = this.db.prepare(
      `update outbox set noticed_at = ?, noticed_by = ? where seq = ? and outcome is not null and noticed_at is null`,
    );
    const at = new Date(this.clock()).toISOString();
    this.db.transaction(() => {
      for (const seq of seqs) mark.run(at, actorId, seq);
    })();
    return this.list();
  }

  private subjectOf(
    command: string,
    args: Record<string, unknown>,
    outcome: Outcome,
  ): Pick<SyncNotice, 'client' | 'event'> {
    let userId =
      typeof args.userId === 'string'
        ? args.userId
        : typeof args.clientId === 'string' && command === 'recordSale'
          ? args.clientId
          : null;
    let eventId = typeof args.scheduleEventId === 'string' ? args.scheduleEventId : null;
    const visitId =
      typeof args.visitId === 'string'
        ? args.visitId
        : typeof outcome.data?.visitId === 'string'
          ? outcome.data.visitId
          : null;
    if (visitId && (!userId || !eventId)) {
      const visit = this.store.get('client_visits', visitId);
      if (visit) {
        userId ??= String(visit.client_id);
        eventId ??= String(visit.schedule_event_id);
      }
    }
    const record: Row | null = userId ? this.store.clientByUser(userId) : null;
    const client = userId
      ? {
          id: userId,
          firstName: String(record?.first_name ?? args.firstName ?? ''),
          lastName: String(record?.last_name ?? args.lastName ?? ''),
        }
      : null;
    const row = eventId ? this.store.get('schedule_events', eventId) : null;
    const service = row ? this.store.get('class_services', String(row.class_service_id)) : null;
    const event =
      row && eventId
        ? {
            id: eventId,
            startsAt: new Date(String(row.starts_at)).toISOString(),
            name: (service?.name as Record<string, { value: string }>) ?? {},
          }
        : null;
    return { client, event };
  }
}
