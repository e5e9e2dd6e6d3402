import { formatVatPercent } from '../posnet/text';
import type { PrintedDocument } from './device';

/** How the emulator's paper roll looks as text (the CLI prints every document like this). */

const PAYMENT_NAMES: Record<number, string> = {
  0: 'Gotówka',
  2: 'Karta',
  3: 'Czek',
  4: 'Bon',
  5: 'Kredyt',
  6: 'Inna',
  7: 'Voucher',
  8: 'Przelew',
};

const pln = (grosze: number) => {
  const sign = grosze < 0 ? '-' : '';
  const abs = Math.abs(grosze);
  return `${sign}${Math.trunc(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
};

export function renderDocument(document: PrintedDocument, width = 40): string[] {
  const line = '-'.repeat(width);
  const center = (text: string) => text.padStart(Math.floor((width + text.length) / 2)).padEnd(width);
  const pair = (left: string, right: string) => {
    const space = Math.max(1, width - left.length - right.length);
    return left.length + right.length + 1 > width
      ? `${left}\n${right.padStart(width)}`
      : left + ' '.repeat(space) + right;
  };
  const when = document.printedAt.replace('T', ' ').slice(0, 16);
  switch (document.kind) {
    case 'receipt': {
      const out = [
        ...document.header.map(center),
        pair(when, `nr ${document.number}`),
        line,
        center('PARAGON FISKALNY'),
        line,
      ];
      for (const l of document.lines) {
        out.push(l.name);
        out.push(
          pair('', `${l.quantity.replace('.', ',')} x ${pln(l.unitPrice)}   ${pln(l.gross)} ${l.slot}`),
        );
        if (l.discount > 0) out.push(pair('  rabat', `-${pln(l.discount)} ${l.slot}`));
      }
      if (document.discount > 0) out.push(pair('Rabat od paragonu', `-${pln(document.discount)}`));
      out.push(line);
      for (const s of document.slots) out.push(pair(`Sprzedaż opodatkowana ${s.slot}`, pln(s.total)));
      for (const s of document.slots) {
        const rate = typeof s.rate === 'number' ? `${formatVatPercent(s.rate)}%` : 'zw.';
        out.push(pair(`PTU ${s.slot} ${rate}`, pln(s.vat)));
      }
      out.push(pair('SUMA PTU', pln(document.vat)), line, pair('SUMA PLN', pln(document.total)));
      for (const p of document.payments)
        out.push(pair(PAYMENT_NAMES[p.type] ?? `Forma ${p.type}`, pln(p.amount)));
      if (document.change > 0) out.push(pair('Reszta', pln(document.change)));
      out.push(line);
      if (document.buyerNip) out.push(pair('NIP NABYWCY:', document.buyerNip), line);
      return out;
    }
    case 'cancelledReceipt':
      return [
        pair(when, ''),
        center(document.cause === 'powerLoss' ? 'PARAGON ANULOWANY (zanik zasilania)' : 'PARAGON ANULOWANY'),
        ...document.lines.map((l) => pair(l.name, `${pln(l.total)} ${l.slot}`)),
        pair('Anulowano', pln(document.total)),
        line,
      ];
    case 'dailyReport':
      return [
        center(`RAPORT DOBOWY nr ${document.number}`),
        pair(when, ''),
        ...document.slots.map((s) => pair(`Sprzedaż ${s.slot}`, `${pln(s.total)}  PTU ${pln(s.vat)}`)),
        pair('Paragony', String(document.receipts)),
        pair('Paragony anulowane', String(document.cancelled)),
        line,
      ];
    case 'cashIn':
    case 'cashOut':
      return [
        center(document.kind === 'cashIn' ? 'WPŁATA DO KASY' : 'WYPŁATA Z KASY'),
        pair(when, ''),
        pair('Kwota', pln(document.amount)),
        pair('Stan kasy', pln(document.drawer)),
        line,
      ];
  }
}
