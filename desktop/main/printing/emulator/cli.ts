/**
 * `npm run printer:emulator`: a POSNET fiscal printer on a real pseudo-terminal. It makes a pty pair
 * with socat, prints the path to configure as the station's fiscal printer port, prints every
 * document as the printer would, and takes a few commands on stdin to play the cashier's side
 * (paper, cover, busy…). Ctrl-C stops it and removes the ptys.
 *
 *   npm run printer:emulator -- --vat 23,8,5,0,zw,-,- --slow 200
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { SERIAL_SETTINGS_PREFILL, SerialTransport } from '../posnet/serial-transport';
import { VAT_SLOT_LETTERS, type VatSlotValue } from '../posnet/text';
import { DEFAULT_VAT_SLOTS } from './device';
import { PosnetEmulator } from './emulator';
import { createPtyPair } from './pty';
import { renderDocument } from './render';

function parseVat(text: string): VatSlotValue[] {
  const slots = text.split(',').map((part): VatSlotValue => {
    const value = part.trim().toLowerCase();
    if (value === 'zw' || value === 'exempt') return 'exempt';
    if (value === '-' || value === '') return 'inactive';
    const percent = /^(\d{1,2})(?:[.,](\d{1,2}))?$/.exec(value);
    if (!percent) throw new Error(`--vat: "${part}" is not a rate (23, 5.5, zw or -)`);
    return Number(percent[1]) * 100 + Number((percent[2] ?? '').padEnd(2, '0'));
  });
  while (slots.length < 7) slots.push('inactive');
  return slots.slice(0, 7);
}

const HELP = `commands: paper (out/in) · cover (open/close) · busy (on/off) · slow <ms> · report (require the daily report)
          drop (drop the next reply) · power (power loss, receipt cancelled) · status · help`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { vat: { type: 'string' }, slow: { type: 'string' }, dir: { type: 'string' } },
  });
  const vat = values.vat ? parseVat(values.vat) : DEFAULT_VAT_SLOTS;
  const emulator = new PosnetEmulator({ vat });
  if (values.slow) emulator.setSlow(Number(values.slow));

  const pty = await createPtyPair(values.dir ? { dir: values.dir } : {});
  const device = new SerialTransport({ ...SERIAL_SETTINGS_PREFILL, path: pty.devicePath });
  await device.open();
  emulator.attach(device);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping the emulator…');
    await device.close().catch(() => {});
    await pty.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  const table = vat
    .map(
      (v, i) => `${VAT_SLOT_LETTERS[i]} ${v === 'exempt' ? 'zw.' : v === 'inactive' ? '—' : `${v / 100}%`}`,
    )
    .join('  ');
  console.log('POSNET fiscal printer emulator is running.');
  console.log(`Configure the station's fiscal printer port as:\n\n    ${pty.appPath}\n`);
  console.log('(any baud rate, 8N1, no flow control — a pty ignores line settings)');
  console.log(`VAT table: ${table}`);
  console.log(`${HELP}\nCtrl-C to stop.\n`);

  emulator.onPrinted((document) => {
    console.log(renderDocument(document).join('\n'));
    console.log();
  });

  const input = createInterface({ input: process.stdin, terminal: false });
  input.on('line', (text) => {
    const [command = '', argument] = text.trim().split(/\s+/);
    const d = emulator.device;
    switch (command) {
      case 'paper':
        if (d.paper === 'ok') emulator.paperOut();
        else emulator.loadPaper();
        console.log(`paper: ${d.paper}`);
        break;
      case 'cover':
        if (d.cover === 'closed') emulator.openCover();
        else emulator.closeCover();
        console.log(`cover: ${d.cover}`);
        break;
      case 'busy':
        emulator.setOtherInterfaceBusy(!d.otherInterfaceBusy);
        console.log(`busy on another interface: ${d.otherInterfaceBusy}`);
        break;
      case 'slow':
        emulator.setSlow(Number(argument ?? 0));
        console.log(`each command takes ${emulator.slowMs} ms`);
        break;
      case 'report':
        emulator.requireDailyReport();
        console.log('the daily report is now required (trinit answers 383)');
        break;
      case 'drop':
        emulator.dropNextReply();
        console.log('the next reply will be dropped (kept for rpt)');
        break;
      case 'power':
        emulator.powerLoss({ forMs: 1000 });
        console.log('power lost for 1 s');
        break;
      case 'status':
        console.log(
          `receipts ${d.completed}, cancelled ${d.cancelled}, open receipt ${d.transactionOpen}, ` +
            `paper ${d.paper}, cover ${d.cover}, drawer ${d.drawer / 100}`,
        );
        break;
      case '':
        break;
      default:
        console.log(HELP);
    }
  });
  // stdin closing (e.g. run in the background) must not stop the emulator; only a signal does.
  await new Promise<never>(() => {});
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
