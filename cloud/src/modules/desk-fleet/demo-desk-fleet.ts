import { createHash, randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Knex } from 'knex';

/**
 * The demo studio's fleet (issue 29): two front desks and a kiosk as Back office → Stations shows
 * them — one desk synced a minute ago with everything ready, one with its fiscal printer out of
 * paper, a receipt to settle and two changes waiting, and a kiosk that has not synced for six hours
 * and whose slip printer stopped answering.
 * Their device tokens are random and unknown: a real desk registers itself at its first sign-in.
 */
export async function seedDemoDeskFleet(trx: Knex.Transaction, studioId: string, ownerId: string, now: Date) {
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
  const stations = [
    {
      name: 'Recepcja 1',
      mode: 'desk',
      version: '0.2.0',
      outbox: 0,
      lastSync: ago(1),
      printers: {
        fiscal: { state: 'ok', message: null, unsettled: 0 },
        ticket: { state: 'ok', message: null, unsettled: 0 },
      },
      errors: [],
    },
    {
      name: 'Recepcja 2',
      mode: 'desk',
      version: '0.2.0',
      outbox: 2,
      lastSync: ago(12),
      printers: {
        fiscal: { state: 'paperOut', message: 'Brak papieru', unsettled: 1 },
        ticket: { state: 'ok', message: null, unsettled: 0 },
      },
      errors: [
        { at: ago(9).toISOString(), source: 'fiscal', message: 'printer: paper out (receipt kept pending)' },
      ],
    },
    {
      name: 'Kiosk wejście',
      mode: 'kiosk',
      version: '0.1.0',
      outbox: 0,
      lastSync: ago(6 * 60),
      // Its slip printer stopped answering (a ticket printer's failure, as the desk reports it).
      printers: {
        fiscal: null,
        ticket: { state: 'offline', message: 'connect ECONNREFUSED 192.168.1.50:9100', unsettled: 0 },
      },
      errors: [
        {
          at: ago(6 * 60 + 5).toISOString(),
          source: 'ticket',
          message: 'connect ECONNREFUSED 192.168.1.50:9100',
        },
      ],
    },
  ];
  for (const s of stations) {
    const id = uuidv7();
    await trx('sync_devices').insert({
      id,
      studioId,
      name: s.name,
      tokenHash: createHash('sha256').update(randomBytes(32)).digest('hex'),
      registeredBy: ownerId,
      scope: JSON.stringify({ tables: [], commands: [], visitsWindowDays: 90 }),
      lastSeenAt: s.lastSync,
      createdAt: ago(30 * 24 * 60),
      updatedAt: s.lastSync,
    });
    await trx('sync_clients').insert({ deviceId: id, studioId, lastSeq: 0 });
    await trx('desk_station_reports').insert({
      deviceId: id,
      studioId,
      appVersion: s.version,
      platform: 'win32',
      mode: s.mode,
      outboxDepth: s.outbox,
      lastSyncAt: s.lastSync,
      lastContactAt: s.lastSync,
      printers: JSON.stringify(s.printers),
      recentErrors: JSON.stringify(s.errors),
    });
  }
}
