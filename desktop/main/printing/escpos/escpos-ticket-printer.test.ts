import net from 'node:net';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { mockSerialBinding } from '../emulator/endpoints';
import { PosnetEmulator } from '../emulator/emulator';
import { printingTranslator } from '../i18n';
import type { CheckInSlip, ShiftSummary } from '../ticket-printer';
import { EscPosTicketPrinter } from './escpos-ticket-printer';
import { CaptureInterface, SerialTicketInterface } from './interfaces';

const ESC_T_PC852 = Buffer.from([0x1b, 0x74, 0x12]); // ESC t 18
const ESC_T_WPC1250 = Buffer.from([0x1b, 0x74, 0x2d]); // ESC t 45
const CUT_THEN_RESET = Buffer.from([0x1d, 0x56, 0x00, 0x1b, 0x40]); // GS V 0, ESC @
/** "Zażółć gęślą jaźń" in CP852, byte by byte. */
const POLISH_CP852 = Buffer.from([
  0x5a, 0x61, 0xbe, 0xa2, 0x88, 0x86, 0x20, 0x67, 0xa9, 0x98, 0x6c, 0xa5, 0x20, 0x6a, 0x61, 0xab, 0xe4,
]);

const slip: CheckInSlip = {
  kind: 'checkIn',
  studioName: 'Studio Ruchu Harmonia',
  clientName: 'Zażółć gęślą jaźń',
  checkedInAt: '2031-03-01 17:55',
  className: 'Joga dla początkujących',
  startsAt: '18:00',
  room: 'Sala Słoneczna',
  passName: 'Karnet 8 wejść',
  entriesLeft: 5,
};

const hex = (b: Buffer) => b.toString('hex');
const indexesOf = (haystack: Buffer, needle: Buffer) => {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) found.push(i);
  return found;
};

function capturePrinter(characterSet?: 'PC852_LATIN2' | 'WPC1250_LATIN2') {
  const capture = new CaptureInterface();
  const printer = new EscPosTicketPrinter({
    interface: capture,
    locale: 'pl',
    translate: printingTranslator('pl'),
    ...(characterSet && { characterSet }),
  });
  return { capture, printer };
}

describe('EscPosTicketPrinter (bytes)', () => {
  it('starts with ESC t 18 (PC852) and prints Polish letters in CP852', async () => {
    const { capture, printer } = capturePrinter();
    await printer.print(slip);
    const [job] = capture.jobs;
    expect(hex(job!.subarray(0, 3))).toBe(hex(ESC_T_PC852));
    expect(job!.includes(POLISH_CP852)).toBe(true);
    expect(iconv.encode('Zażółć gęślą jaźń', 'cp852')).toEqual(POLISH_CP852);
    expect(job!.includes(iconv.encode('Sala Słoneczna', 'cp852'))).toBe(true);
    expect(job!.includes(iconv.encode('Pozostało wejść:', 'cp852'))).toBe(true);
    expect(job!.includes(Buffer.from('Zażółć', 'utf8'))).toBe(false);
  });

  it('sets the character set again after every cut (cut ends with ESC @)', async () => {
    const { capture, printer } = capturePrinter();
    await printer.print([slip, { ...slip, clientName: 'Łucja Żak' }]);
    const [job] = capture.jobs;
    const cuts = indexesOf(job!, CUT_THEN_RESET);
    expect(cuts).toHaveLength(2);
    for (const at of cuts) {
      expect(hex(job!.subarray(at + CUT_THEN_RESET.length, at + CUT_THEN_RESET.length + 3))).toBe(
        hex(ESC_T_PC852),
      );
    }
    // The second ticket, after the first cut, still prints Polish letters in CP852.
    expect(job!.indexOf(iconv.encode('Łucja Żak', 'cp852'))).toBeGreaterThan(cuts[0]!);
  });

  it('can use Windows-1250 instead (ESC t 45)', async () => {
    const { capture, printer } = capturePrinter('WPC1250_LATIN2');
    await printer.print(slip);
    const [job] = capture.jobs;
    expect(hex(job!.subarray(0, 3))).toBe(hex(ESC_T_WPC1250));
    expect(job!.includes(iconv.encode('Zażółć gęślą jaźń', 'win1250'))).toBe(true);
  });

  it('makes one printer object per job: a job never repeats the previous one', async () => {
    const { capture, printer } = capturePrinter();
    const second = { ...slip, clientName: 'Jan Nowak' };
    await printer.print(slip);
    await printer.print(second);
    expect(capture.jobs).toHaveLength(2);
    expect(capture.jobs[1]!.includes(POLISH_CP852)).toBe(false);
    expect(capture.jobs[1]!.equals(printer.render(second))).toBe(true);
    expect(indexesOf(capture.jobs[1]!, CUT_THEN_RESET)).toHaveLength(1);
  });

  it('prints a class ticket with a barcode and a shift summary with Polish amounts', async () => {
    const { capture, printer } = capturePrinter();
    const summary: ShiftSummary = {
      kind: 'shiftSummary',
      studioName: 'Studio Ruchu Harmonia',
      stationName: 'Recepcja 1',
      cashierName: 'Anna Wiśniewska',
      openedAt: '2031-03-01 07:00',
      closedAt: '2031-03-01 15:00',
      receipts: 42,
      cancelledReceipts: 1,
      currency: 'PLN',
      byPayment: [
        { label: 'Gotówka', amount: 123456 },
        { label: 'Karta', amount: 250000 },
      ],
      total: 373456,
    };
    await printer.print([
      {
        kind: 'classTicket',
        studioName: 'Studio Ruchu Harmonia',
        ticketNumber: 'T-000123',
        className: 'Pilates',
        startsAt: '2031-03-02 09:00',
        clientName: 'Jan Nowak',
      },
      summary,
    ]);
    const job = capture.jobs[0]!;
    expect(job.includes(Buffer.from([0x1d, 0x6b, 0x49]))).toBe(true); // GS k 73: CODE128
    expect(job.includes(Buffer.from('T-000123'))).toBe(true);
    expect(job.includes(iconv.encode('3 734,56 zł', 'cp852'))).toBe(true);
    expect(job.includes(iconv.encode('To nie jest paragon fiskalny.', 'cp852'))).toBe(true);
  });

  it('renders English labels with the English translator', () => {
    const capture = new CaptureInterface();
    const printer = new EscPosTicketPrinter({
      interface: capture,
      locale: 'en',
      translate: printingTranslator('en'),
    });
    expect(printer.render(slip).includes(Buffer.from('Entries left:'))).toBe(true);
  });
});

describe('EscPosTicketPrinter interfaces', () => {
  it('sends a job to tcp://host:9100 (a socket that receives the same bytes)', async () => {
    const received: Buffer[] = [];
    const server = net.createServer((socket) => socket.on('data', (d) => received.push(d)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const printer = new EscPosTicketPrinter({
      interface: `tcp://127.0.0.1:${port}`,
      locale: 'pl',
      translate: printingTranslator('pl'),
    });
    expect(await printer.isConnected()).toBe(true);
    await printer.print(slip);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(Buffer.concat(received).equals(printer.render(slip))).toBe(true);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends a job over a serial port (serialport with the mock binding)', async () => {
    const path = '/dev/ttyMOCK-escpos';
    const written: Buffer[] = [];
    const binding = mockSerialBinding(new PosnetEmulator(), path);
    const spying = {
      ...binding,
      open: async (options: never) => {
        const port = await binding.open(options);
        const write = port.write.bind(port);
        port.write = async (b: Buffer) => (written.push(Buffer.from(b)), write(b));
        return port;
      },
    };
    const settings = {
      path,
      baudRate: 19200,
      parity: 'none',
      dataBits: 8,
      stopBits: 1,
      flowControl: 'none',
    } as const;
    const printer = new EscPosTicketPrinter({
      interface: new SerialTicketInterface(settings, { binding: spying as never }),
      locale: 'pl',
      translate: printingTranslator('pl'),
    });
    expect(await printer.isConnected()).toBe(true);
    await printer.print(slip);
    expect(Buffer.concat(written).equals(printer.render(slip))).toBe(true);
    const missing = new SerialTicketInterface(
      { ...settings, path: '/dev/ttyMOCK-absent' },
      { binding: spying as never },
    );
    expect(await missing.isPrinterConnected()).toBe(false);
  });
});
