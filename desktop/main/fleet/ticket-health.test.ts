import { describe, expect, it } from 'vitest';
import type { StationReportInput } from '../../../shared/contracts/api/desk-fleet';
import { CaptureInterface, type TicketPrinterInterface } from '../printing/escpos/interfaces';
import { KioskTicketPrinter } from '../kiosk/kiosk-tickets';
import { StationReporter } from './station-reporter';
import { TicketPrinterHealth } from './ticket-health';

/**
 * Issue 29: a ticket printer's failure reaches Back office → Stations with the station's next
 * report (state, message, a recent error), as the fiscal printer's does; the next good job clears it.
 */
class FlakyPrinter implements TicketPrinterInterface {
  fail: string | null = null;
  readonly jobs = new CaptureInterface();
  async execute(buffer: Buffer): Promise<void> {
    if (this.fail) throw new Error(this.fail);
    await this.jobs.execute(buffer);
  }
  async isPrinterConnected(): Promise<boolean> {
    return this.fail === null;
  }
}

const slip = {
  kind: 'checkIn' as const,
  studioName: 'Harmonia',
  clientName: 'Ewa Zielińska',
  checkedInAt: '2026-11-26T17:05:00.000Z',
};

describe('the ticket printer in the station report', () => {
  it('a failed slip is reported (offline, paper out), kept as a recent error, and cleared by the next good job', async () => {
    const sent: StationReportInput[] = [];
    let reporter: StationReporter | null = null;
    const health = new TicketPrinterHealth((message) => reporter?.noteError('ticket', message));
    reporter = new StationReporter({
      cloudUrl: 'http://cloud.test',
      version: '0.2.0',
      platform: 'linux',
      mode: 'kiosk',
      deviceToken: () => 'token',
      sync: () => ({ pending: 0, lastSyncAt: null }),
      pos: () => null,
      ticket: () => health.report(true),
      logs: () => '',
      fetch: (async (_url: string, init?: RequestInit) => {
        sent.push(JSON.parse(String(init?.body)) as StationReportInput);
        return new Response(
          JSON.stringify({
            channel: 'stable',
            feedPath: '/desktop/updates/stable',
            oldestAccepted: '0.1.0',
            accepted: true,
            uploadLogs: false,
            serverTime: new Date().toISOString(),
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        );
      }) as typeof fetch,
    });
    const device = new FlakyPrinter();
    const printer = new KioskTicketPrinter(health.watch(device)!).printer('pl');

    await printer.print(slip);
    await reporter.report();
    expect(sent.at(-1)!.printers.ticket).toEqual({ state: 'ok', message: null, unsettled: 0 });

    device.fail = 'connect ECONNREFUSED 192.168.1.50:9100';
    await expect(printer.print(slip)).rejects.toThrow('ECONNREFUSED');
    await reporter.report();
    expect(sent.at(-1)!.printers.ticket).toEqual({
      state: 'offline',
      message: 'connect ECONNREFUSED 192.168.1.50:9100',
      unsettled: 0,
    });
    expect(sent.at(-1)!.recentErrors[0]).toMatchObject({
      source: 'ticket',
      message: 'connect ECONNREFUSED 192.168.1.50:9100',
    });

    device.fail = 'printer reports: paper end';
    await expect(printer.print(slip)).rejects.toThrow();
    await reporter.report();
    expect(sent.at(-1)!.printers.ticket).toMatchObject({ state: 'paperOut' });

    device.fail = null;
    await printer.print(slip);
    await reporter.report();
    expect(sent.at(-1)!.printers.ticket).toEqual({ state: 'ok', message: null, unsettled: 0 });
    expect(sent.at(-1)!.recentErrors.map((e) => e.source)).toEqual(['ticket', 'ticket']);
    expect(device.jobs.jobs).toHaveLength(2);
  });

  it('no ticket printer set up: none reported', () => {
    expect(new TicketPrinterHealth().report(false)).toBeNull();
    expect(new TicketPrinterHealth().watch(null)).toBeNull();
  });
});
