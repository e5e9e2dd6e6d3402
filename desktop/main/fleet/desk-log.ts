import type { SyncEngine } from '../sync/engine';
import type { StationReporter } from './station-reporter';

/**
 * The state a station writes into its log file when staff ask for its logs (Back office → Stations →
 * Upload logs; desktop/main/fleet/desk-logger.ts sends the files' tail): what support
 * needs to see why a desk misbehaves, without clients' data — the version, the engine's status, the
 * outbox as names, versions, states and outcome keys (never the commands' arguments), and the recent
 * errors.
 */
export function deskLogText(
  engine: SyncEngine,
  reporter: StationReporter,
  app: { version: string; platform?: string; runtime: string },
): string {
  const lines = [
    `studio desk ${app.version} (${app.runtime}, ${app.platform ?? process.platform}) at ${new Date().toISOString()}`,
    `device ${engine.deviceId ?? '-'} studio ${engine.studioId ?? '-'}`,
    `status ${JSON.stringify(engine.status())}`,
    `cloud answer ${JSON.stringify(reporter.answer())}`,
    '--- outbox (newest 500)',
    ...engine
      .outbox()
      .slice(-500)
      .map(
        (r) =>
          `${r.seq} ${r.name}@${r.version} ${r.status} ${r.occurredAt} ${
            r.outcome ? JSON.stringify({ kind: (r.outcome as { kind?: string }).kind ?? null }) : '-'
          }`,
      ),
    '--- recent errors',
    ...reporter.body().recentErrors.map((e) => `${e.at} [${e.source}] ${e.message}`),
  ];
  return lines.join('\n');
}
