import { createRequire } from 'node:module';
import path from 'node:path';
import type { InvoiceLineView, InvoiceView } from '../../../../shared/contracts/api/invoices';
import { amountInPolishWords, formatIban, formatNip } from '../../../../shared/domain/invoices';
import type { InvoiceVatRate } from '../../../../shared/domain/invoices';
import { tFor } from '../../i18n';
import { loadPdfKit } from '../../libraries';
import type { InvoiceBranding } from './invoice-branding';
import type { KsefPdfBlock } from './ksef/ksef-pdf';
import { formatDate } from '../../../../shared/i18n/dates';

/**
 * The printed invoice: A4, DejaVu Sans (Polish letters), laid out the way Polish invoices usually
 * are — title and number, places and dates, seller and buyer side by side, the lines, the summary per
 * VAT rate, payment with "Do zapłaty" and the amount in words, the notes the law asks for, signature
 * fields. Labels are Polish; a bilingual invoice ('pl-en', a foreign buyer) adds the English under each.
 */
const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REGULAR = path.join(FONT_DIR, 'DejaVuSans.ttf');
const BOLD = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');
const CONDENSED = path.join(FONT_DIR, 'DejaVuSansCondensed.ttf');
const CONDENSED_BOLD = path.join(FONT_DIR, 'DejaVuSansCondensed-Bold.ttf');

const PAGE = { width: 595.28, height: 841.89, margin: 40 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - 60;
const INK = '#1a1a1a';
const MUTED = '#5f6368';
const RULE = '#c4c7cc';
const FILL = '#eef1f5';

type Doc = PDFKit.PDFDocument;

/** "1 234,56": Polish grouping, always two decimals, a real minus. */
export function pdfAmount(minor: number): string {
  const abs = Math.abs(minor);
  const whole = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `${minor < 0 ? '−' : ''}${whole},${String(abs % 100).padStart(2, '0')}`;
}

export function pdfRate(rate: InvoiceVatRate): string {
  if (rate === 'exempt') return 'zw';
  // Reverse charge here is only services to a business abroad (art. 28b): not taxable in Poland, "np".
  if (rate === 'reverseCharge') return 'np';
  const whole = Math.trunc(rate / 100);
  const fraction = rate % 100;
  return fraction === 0 ? `${whole}%` : `${whole},${String(fraction).padStart(2, '0').replace(/0$/, '')}%`;
}

const quantityText = (q: string) => q.replace('.', ',');

interface Labels {
  /** Polish label, with the English under it on a bilingual invoice. */
  (key: string, options?: Record<string, unknown>): string;
  /** Polish only, one line. */
  one(key: string, options?: Record<string, unknown>): string;
}

function labelsFor(language: InvoiceView['language']): Labels {
  const pl = tFor('pl');
  const en = tFor('en');
  const one = (key: string, options?: Record<string, unknown>) => pl(`invoices:pdf.${key}`, options ?? {});
  const label = ((key: string, options?: Record<string, unknown>) =>
    language === 'pl-en'
      ? `${one(key, options)} / ${en(`invoices:pdf.${key}`, options ?? {})}`
      : one(key, options)) as Labels;
  label.one = one;
  return label;
}

function rule(doc: Doc, y: number, x = PAGE.margin, width = CONTENT_WIDTH) {
  doc
    .moveTo(x, y)
    .lineTo(x + width, y)
    .lineWidth(0.6)
    .strokeColor(RULE)
    .stroke();
}

function ensureSpace(doc: Doc, y: number, needed: number): number {
  if (y + needed <= BOTTOM) return y;
  doc.addPage();
  return PAGE.margin;
}

interface Column {
  key: string;
  header: string;
  width: number;
  align: 'left' | 'right' | 'center';
}

/** A table with a shaded header row; returns the y below it. */
function table(
  doc: Doc,
  y: number,
  columns: Column[],
  rows: { cells: string[]; bold?: boolean }[],
  options: { x?: number; fontSize?: number } = {},
): number {
  const x0 = options.x ?? PAGE.margin;
  const size = options.fontSize ?? 7.5;
  const width = columns.reduce((a, c) => a + c.width, 0);
  const pad = 3;
  const drawHeader = (top: number) => {
    doc.font(CONDENSED_BOLD).fontSize(size);
    const height =
      Math.max(...columns.map((c) => doc.heightOfString(c.header, { width: c.width - 2 * pad }))) + 2 * pad;
    doc.rect(x0, top, width, height).fillColor(FILL).fill();
    let x = x0;
    for (const c of columns) {
      doc.fillColor(INK).text(c.header, x + pad, top + pad, { width: c.width - 2 * pad, align: c.align });
      x += c.width;
    }
    rule(doc, top + height, x0, width);
    return top + height;
  };
  y = drawHeader(y);
  for (const row of rows) {
    doc.font(row.bold ? CONDENSED_BOLD : CONDENSED).fontSize(size);
    const height =
      Math.max(
        ...row.cells.map((cell, i) =>
          doc.heightOfString(cell || ' ', { width: columns[i]!.width - 2 * pad }),
        ),
      ) +
      2 * pad;
    if (y + height > BOTTOM) {
      doc.addPage();
      y = drawHeader(PAGE.margin);
      doc.font(row.bold ? CONDENSED_BOLD : CONDENSED).fontSize(size);
    }
    let x = x0;
    row.cells.forEach((cell, i) => {
      const c = columns[i]!;
      doc.fillColor(INK).text(cell, x + pad, y + pad, { width: c.width - 2 * pad, align: c.align });
      x += c.width;
    });
    y += height;
    rule(doc, y, x0, width);
  }
  return y;
}

/** The line table's columns: a seller exempt under art. 113 prints no net, rate or VAT columns. */
export function lineColumnKeys(invoice: Pick<InvoiceView, 'sellerVatExempt'>): string[] {
  const all = ['lp', 'description', 'quantity', 'unit', 'price', 'net', 'rate', 'vat', 'gross'];
  return invoice.sellerVatExempt ? all.filter((k) => !['net', 'rate', 'vat'].includes(k)) : all;
}

function lineTable(doc: Doc, y: number, lines: InvoiceLineView[], invoice: InvoiceView, l: Labels): number {
  const gross = invoice.priceBasis === 'gross';
  const noVat = invoice.sellerVatExempt;
  const all: Column[] = [
    { key: 'lp', header: l('lp'), width: 22, align: 'center' },
    { key: 'description', header: l('description'), width: 0, align: 'left' },
    { key: 'quantity', header: l('quantity'), width: 36, align: 'right' },
    { key: 'unit', header: l('unit'), width: 30, align: 'center' },
    {
      key: 'price',
      header: l(noVat ? 'unitPrice' : gross ? 'unitPriceGross' : 'unitPriceNet'),
      width: 58,
      align: 'right',
    },
    { key: 'net', header: l('net'), width: 58, align: 'right' },
    { key: 'rate', header: l('rate'), width: 36, align: 'center' },
    { key: 'vat', header: l('vat'), width: 52, align: 'right' },
    { key: 'gross', header: l(noVat ? 'value' : 'gross'), width: 60, align: 'right' },
  ];
  const keys = lineColumnKeys(invoice);
  const columns = all.filter((c) => keys.includes(c.key));
  columns[1]!.width = CONTENT_WIDTH - columns.reduce((a, c) => a + c.width, 0);
  const cellsOf = (line: InvoiceLineView): Record<string, string> => ({
    lp: String(line.position),
    description: line.description,
    quantity: quantityText(line.quantity),
    unit: line.unit,
    price: pdfAmount(line.unitPrice),
    net: pdfAmount(line.net),
    rate: pdfRate(line.vatRate),
    vat: pdfAmount(line.vat),
    gross: pdfAmount(line.gross),
  });
  return table(
    doc,
    y,
    columns,
    lines.map((line) => {
      const cells = cellsOf(line);
      return { cells: columns.map((c) => cells[c.key]!) };
    }),
  );
}

function partyBlock(
  doc: Doc,
  x: number,
  y: number,
  width: number,
  title: string,
  party: {
    name: string;
    addressLine: string;
    postalCode: string;
    city: string;
    country: string;
    taxId?: string | null;
  },
  extra: string[],
  l: Labels,
): number {
  doc
    .font(BOLD)
    .fontSize(8)
    .fillColor(MUTED)
    .text(title.toUpperCase(), x, y, { width, characterSpacing: 0.4 });
  y = doc.y + 2;
  rule(doc, y, x, width);
  y += 4;
  doc.font(BOLD).fontSize(10).fillColor(INK).text(party.name, x, y, { width });
  doc.font(REGULAR).fontSize(9).text(party.addressLine, { width });
  doc.text(`${party.postalCode} ${party.city}${party.country !== 'PL' ? `, ${party.country}` : ''}`, {
    width,
  });
  if (party.taxId) {
    const pl = party.country === 'PL' && /^\d{10}$/.test(party.taxId);
    doc.text(`${l.one(pl ? 'taxId' : 'foreignTaxId')}: ${pl ? formatNip(party.taxId) : party.taxId}`, {
      width,
    });
  }
  for (const line of extra) doc.text(line, { width });
  return doc.y;
}

function summaryTable(doc: Doc, y: number, invoice: InvoiceView, l: Labels): number {
  const width = 300;
  const x = PAGE.margin + CONTENT_WIDTH - width;
  const columns: Column[] = [
    { key: 'rate', header: l('rate'), width: 60, align: 'center' },
    { key: 'net', header: l('net'), width: 80, align: 'right' },
    { key: 'vat', header: l('vat'), width: 75, align: 'right' },
    { key: 'gross', header: l('gross'), width: 85, align: 'right' },
  ];
  doc.font(BOLD).fontSize(8).fillColor(MUTED).text(l('summary').toUpperCase(), x, y, { width });
  y = doc.y + 3;
  const rows = invoice.rates.map((r) => ({
    cells: [pdfRate(r.vatRate), pdfAmount(r.net), pdfAmount(r.vat), pdfAmount(r.gross)],
  }));
  rows.push({
    cells: [
      l('total'),
      pdfAmount(invoice.totals.net),
      pdfAmount(invoice.totals.vat),
      pdfAmount(invoice.totals.gross),
    ],
    bold: true,
  } as { cells: string[]; bold: boolean });
  return table(doc, y, columns, rows, { x, fontSize: 8 });
}

function correctionSummary(doc: Doc, y: number, invoice: InvoiceView, l: Labels): number {
  const correction = invoice.correction!;
  const columns: Column[] = [
    { key: 'rate', header: l('rate'), width: 55, align: 'center' },
    { key: 'bn', header: `${l.one('before')}\n${l.one('net')}`, width: 57, align: 'right' },
    { key: 'bv', header: `${l.one('before')}\n${l.one('vat')}`, width: 50, align: 'right' },
    { key: 'bg', header: `${l.one('before')}\n${l.one('gross')}`, width: 60, align: 'right' },
    { key: 'an', header: `${l.one('after')}\n${l.one('net')}`, width: 57, align: 'right' },
    { key: 'av', header: `${l.one('after')}\n${l.one('vat')}`, width: 50, align: 'right' },
    { key: 'ag', header: `${l.one('after')}\n${l.one('gross')}`, width: 60, align: 'right' },
    { key: 'dn', header: `${l.one('difference')}\n${l.one('net')}`, width: 0, align: 'right' },
    { key: 'dv', header: `${l.one('difference')}\n${l.one('vat')}`, width: 0, align: 'right' },
    { key: 'dg', header: `${l.one('difference')}\n${l.one('gross')}`, width: 0, align: 'right' },
  ];
  const rest = CONTENT_WIDTH - columns.reduce((a, c) => a + c.width, 0);
  columns[7]!.width = Math.floor(rest / 3);
  columns[8]!.width = Math.floor(rest / 3);
  columns[9]!.width = rest - 2 * Math.floor(rest / 3);
  doc.font(BOLD).fontSize(8).fillColor(MUTED).text(l('summary').toUpperCase(), PAGE.margin, y);
  y = doc.y + 3;
  const sum = (pick: (r: (typeof correction.rates)[number]) => number) =>
    correction.rates.reduce((a, r) => a + pick(r), 0);
  const rows = correction.rates.map((r) => ({
    cells: [
      pdfRate(r.vatRate),
      pdfAmount(r.before.net),
      pdfAmount(r.before.vat),
      pdfAmount(r.before.gross),
      pdfAmount(r.after.net),
      pdfAmount(r.after.vat),
      pdfAmount(r.after.gross),
      pdfAmount(r.difference.net),
      pdfAmount(r.difference.vat),
      pdfAmount(r.difference.gross),
    ],
  })) as { cells: string[]; bold?: boolean }[];
  rows.push({
    cells: [
      l('total'),
      pdfAmount(sum((r) => r.before.net)),
      pdfAmount(sum((r) => r.before.vat)),
      pdfAmount(sum((r) => r.before.gross)),
      pdfAmount(sum((r) => r.after.net)),
      pdfAmount(sum((r) => r.after.vat)),
      pdfAmount(sum((r) => r.after.gross)),
      pdfAmount(invoice.totals.net),
      pdfAmount(invoice.totals.vat),
      pdfAmount(invoice.totals.gross),
    ],
    bold: true,
  });
  return table(doc, y, columns, rows, { fontSize: 7 });
}

/**
 * The payment lines printed above the amount due (Polish labels; both languages on a bilingual
 * invoice when the PDF's labels are given). A paid invoice prints the method
 * and the amount paid, no deadline and no account as if it were still to pay.
 */
export function paymentRows(invoice: InvoiceView, labels?: Labels): [string, string][] {
  const pl = tFor('pl');
  const one =
    labels ?? ((key: string, options?: Record<string, unknown>) => pl(`invoices:pdf.${key}`, options ?? {}));
  // A split payment names each method with its amount ("gotówka 50,00 PLN, karta płatnicza 30,00 PLN").
  const split = invoice.payment.split;
  const rows: [string, string][] = [
    split && split.length > 1
      ? [
          one('paymentMethods'),
          split
            .map((p) => `${pl(`enums:paymentMethod.${p.method}`)} ${pdfAmount(p.amount)} ${invoice.currency}`)
            .join(', '),
        ]
      : [one('paymentMethod'), pl(`enums:paymentMethod.${invoice.payment.method}`)],
  ];
  const open = invoice.payment.state === 'due' || invoice.payment.state === 'overdue';
  if (open) {
    rows.push([
      one('paymentDue'),
      `${formatDate(invoice.payment.dueDate, 'pl')} (${one('days', { count: invoice.payment.termDays })})`,
    ]);
    if (invoice.seller.iban)
      rows.push([
        one('account'),
        `${formatIban(invoice.seller.iban)}${invoice.seller.bankName ? `, ${invoice.seller.bankName}` : ''}`,
      ]);
  }
  if (invoice.totals.paid > 0)
    rows.push([one('paid'), `${pdfAmount(invoice.totals.paid)} ${invoice.currency}`]);
  return rows;
}

/**
 * The boxed amount and its words: to refund (a correction that lowers the total), the total of an
 * invoice paid in full (not "to pay: 0,00 — zero złotych"), else what is still to pay.
 */
export function amountBox(invoice: InvoiceView): { label: 'toRefund' | 'total' | 'toPay'; amount: number } {
  if (invoice.totals.gross < 0) return { label: 'toRefund', amount: -invoice.totals.gross };
  if (invoice.totals.due === 0 && invoice.totals.gross > 0)
    return { label: 'total', amount: invoice.totals.gross };
  return { label: 'toPay', amount: invoice.totals.due };
}

function paymentBlock(doc: Doc, y: number, invoice: InvoiceView, l: Labels): number {
  const x = PAGE.margin;
  const width = CONTENT_WIDTH;
  const row = (label: string, value: string) => {
    doc.font(REGULAR).fontSize(9).fillColor(MUTED).text(`${label}: `, x, doc.y, { continued: true });
    doc.fillColor(INK).text(value);
  };
  doc.y = y;
  for (const [label, value] of paymentRows(invoice, l)) row(label, value);
  y = doc.y + 6;
  const { label, amount } = amountBox(invoice);
  const boxHeight = 40;
  y = ensureSpace(doc, y, boxHeight + 10);
  doc.rect(x, y, width, boxHeight).fillColor(FILL).fill();
  doc
    .font(BOLD)
    .fontSize(13)
    .fillColor(INK)
    .text(`${l(label)}: ${pdfAmount(amount)} ${invoice.currency}`, x + 8, y + 6, {
      width: width - 16,
    });
  doc
    .font(REGULAR)
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(`${l('inWords')}: ${amountInPolishWords(amount, invoice.currency)}`, x + 8, y + 24, {
      width: width - 16,
    });
  return y + boxHeight + 8;
}

function notesBlock(doc: Doc, y: number, invoice: InvoiceView, l: Labels): number {
  const texts = invoice.notes.map((note) => {
    if (note.kind === 'reverseCharge') return l('notes.reverseCharge');
    if (note.kind === 'vatExempt') return l.one('notes.vatExempt', { basis: note.basis });
    if (note.kind === 'receipt')
      return l(note.printer ? 'notes.receipt' : 'notes.receiptNoPrinter', {
        number: note.number,
        date: formatDate(note.date, 'pl'),
        printer: note.printer,
      });
    return l.one('notes.exchangeRate', {
      currency: note.currency,
      rate: note.rate.replace('.', ','),
      table: note.table,
      date: formatDate(note.date, 'pl'),
      vatPln: `${pdfAmount(note.vatPln)} PLN`,
    });
  });
  if (texts.length === 0 && !invoice.remarks) return y;
  y = ensureSpace(doc, y, 20 + (texts.length + 1) * 12);
  doc.y = y;
  for (const text of texts) {
    doc.font(BOLD).fontSize(9).fillColor(INK).text(text, PAGE.margin, doc.y, { width: CONTENT_WIDTH });
    doc.moveDown(0.2);
  }
  if (invoice.remarks) {
    doc
      .font(REGULAR)
      .fontSize(9)
      .fillColor(MUTED)
      .text(`${l.one('remarks')}: `, PAGE.margin, doc.y, {
        continued: true,
        width: CONTENT_WIDTH,
      });
    doc.fillColor(INK).text(invoice.remarks);
  }
  return doc.y + 6;
}

function signatures(doc: Doc, y: number, invoice: InvoiceView, l: Labels): number {
  y = ensureSpace(doc, y + 24, 40);
  const width = 200;
  const right = PAGE.margin + CONTENT_WIDTH - width;
  if (invoice.issuedBy)
    doc
      .font(REGULAR)
      .fontSize(9)
      .fillColor(INK)
      .text(invoice.issuedBy.name, PAGE.margin, y - 12, {
        width,
        align: 'center',
      });
  rule(doc, y, PAGE.margin, width);
  rule(doc, y, right, width);
  doc.font(REGULAR).fontSize(7).fillColor(MUTED);
  doc.text(l('signatureIssuer'), PAGE.margin, y + 3, { width, align: 'center' });
  doc.text(l('signatureReceiver'), right, y + 3, { width, align: 'center' });
  return doc.y;
}

/** KSeF: the number, and the QR codes side by side, each captioned (KOD I, KOD II when offline). */
function ksefBlock(doc: Doc, y: number, ksef: KsefPdfBlock, l: Labels): void {
  doc.font(BOLD).fontSize(9).fillColor(INK).text('KSeF', PAGE.margin, y);
  doc
    .font(REGULAR)
    .fontSize(8.5)
    .text(
      ksef.ksefNumber
        ? `${l('ksefNumber')}: ${ksef.ksefNumber}`
        : l(ksef.offline ? 'ksefOffline' : 'ksefPending'),
      { width: CONTENT_WIDTH },
    );
  const top = doc.y + 6;
  const size = 96;
  ksef.codes.forEach((code, i) => {
    const x = PAGE.margin + i * (size + 150);
    doc.image(code.png, x, top, { width: size, height: size });
    // Centred under the code, within the page: a KSeF number (35 characters) gets a smaller size.
    const captionWidth = size + 50;
    let captionSize = 7.5;
    doc.font(BOLD);
    while (captionSize > 5 && doc.fontSize(captionSize).widthOfString(code.caption) > captionWidth)
      captionSize -= 0.5;
    doc
      .fillColor(INK)
      .text(code.caption, x - 25, top + size + 2, { width: captionWidth, align: 'center', lineBreak: false });
    doc
      .font(REGULAR)
      .fontSize(7)
      .fillColor(MUTED)
      .text(l(code.kind === 'invoice' ? 'ksefCodeInvoice' : 'ksefCodeCertificate'), x + size + 8, top + 8, {
        width: 130,
      });
  });
}

/**
 * "Faktura VAT", or "Faktura" for a seller exempt under art. 113 (no VAT on it), or the corrective
 * invoice's title.
 */
export function pdfTitleKey(invoice: InvoiceView): 'invoice' | 'invoiceNoVat' | 'corrective' {
  if (invoice.kind === 'corrective') return 'corrective';
  return invoice.sellerVatExempt ? 'invoiceNoVat' : 'invoice';
}

/** The invoice as a PDF (A4), in memory: invoices are one or two pages. */
export async function renderInvoicePdf(
  invoice: InvoiceView,
  ksef: KsefPdfBlock | null = null,
  branding: InvoiceBranding | null = null,
): Promise<Buffer> {
  const PDFKitDocument = await loadPdfKit();
  const l = labelsFor(invoice.language);
  const title = l(pdfTitleKey(invoice));
  const doc = new PDFKitDocument({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: true,
    info: {
      Title: `${l.one(pdfTitleKey(invoice))} ${invoice.number}`,
      Author: invoice.seller.name,
      Subject: invoice.number,
      Creator: 'Studio Platform',
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  // The studio's look: a band of its colour along the top edge, its logo above the title.
  if (branding?.primaryColor) doc.rect(0, 0, PAGE.width, 6).fillColor(branding.primaryColor).fill();
  let top = PAGE.margin;
  if (branding?.logoPng) {
    doc.image(branding.logoPng, PAGE.margin, PAGE.margin - 14, { fit: [150, 40] });
    top += 34;
  }
  // Title block: title and number on the left, places and dates on the right.
  doc
    .font(BOLD)
    .fontSize(invoice.language === 'pl-en' ? 16 : 20)
    .fillColor(INK)
    .text(title, PAGE.margin, top, {
      width: 300,
    });
  doc
    .font(BOLD)
    .fontSize(12)
    .text(l.one('number', { number: invoice.number }), { width: 300 });
  if (invoice.kind === 'invoice')
    doc.font(REGULAR).fontSize(8).fillColor(MUTED).text('ORYGINAŁ', { width: 300 });
  const leftBottom = doc.y;
  const metaX = PAGE.margin + CONTENT_WIDTH - 210;
  const meta: [string, string][] = [
    [l('issueDate'), formatDate(invoice.issueDate, 'pl')],
    [l('saleDate'), formatDate(invoice.saleDate, 'pl')],
  ];
  if (invoice.placeOfIssue) meta.unshift([l('placeOfIssue'), invoice.placeOfIssue]);
  let my = top + 2;
  for (const [label, value] of meta) {
    doc.font(REGULAR).fontSize(8).fillColor(MUTED).text(label, metaX, my, { width: 120 });
    const h = doc.y - my;
    doc
      .font(BOLD)
      .fontSize(9)
      .fillColor(INK)
      .text(value, metaX + 120, my, { width: 90, align: 'right' });
    my += Math.max(h, 11) + 3;
  }
  let y = Math.max(leftBottom, my) + 14;

  if (invoice.status === 'cancelled') {
    doc.save();
    doc.rotate(-30, { origin: [PAGE.width / 2, PAGE.height / 2] });
    doc.font(BOLD).fontSize(72).fillColor('#d93025').opacity(0.15);
    doc.text(l.one('cancelled'), 0, PAGE.height / 2 - 40, {
      width: PAGE.width,
      align: 'center',
      lineBreak: false,
    });
    doc.restore();
    doc.opacity(1);
  }

  // Seller and buyer side by side.
  const colWidth = (CONTENT_WIDTH - 24) / 2;
  // The account number is printed once, with the payment.
  const sellerBottom = partyBlock(doc, PAGE.margin, y, colWidth, l('seller'), invoice.seller, [], l);
  const buyerExtra = invoice.buyer.email ? [invoice.buyer.email] : [];
  const buyerBottom = partyBlock(
    doc,
    PAGE.margin + colWidth + 24,
    y,
    colWidth,
    l('buyer'),
    invoice.buyer,
    buyerExtra,
    l,
  );
  y = Math.max(sellerBottom, buyerBottom) + 12;
  if (invoice.recipient) {
    y =
      partyBlock(doc, PAGE.margin + colWidth + 24, y, colWidth, l('recipient'), invoice.recipient, [], l) +
      12;
  }

  if (invoice.correction) {
    const c = invoice.correction;
    doc.rect(PAGE.margin, y, CONTENT_WIDTH, 4).fillColor(FILL).fill();
    doc.y = y + 8;
    doc
      .font(BOLD)
      .fontSize(9.5)
      .fillColor(INK)
      .text(
        l.one('correctedInvoice', {
          number: c.correctedInvoice.number,
          date: formatDate(c.correctedInvoice.issueDate, 'pl'),
        }),
        PAGE.margin,
        doc.y,
        {
          width: CONTENT_WIDTH,
        },
      );
    doc
      .font(REGULAR)
      .fontSize(9)
      .text(`${l.one('correctionReason')}: ${c.reason}`, { width: CONTENT_WIDTH });
    if (c.buyerBefore) {
      const b = c.buyerBefore;
      doc
        .fillColor(MUTED)
        .text(
          `${l.one('buyerBefore')}: ${b.name}, ${b.addressLine}, ${b.postalCode} ${b.city}${b.taxId ? `, ${l.one('taxId')} ${b.taxId}` : ''}`,
          { width: CONTENT_WIDTH },
        );
    }
    y = doc.y + 10;
    doc.font(BOLD).fontSize(9).fillColor(INK).text(l('before'), PAGE.margin, y);
    y = lineTable(doc, doc.y + 3, c.before, invoice, l) + 10;
    y = ensureSpace(doc, y, 60);
    doc.font(BOLD).fontSize(9).fillColor(INK).text(l('after'), PAGE.margin, y);
    y = lineTable(doc, doc.y + 3, c.after, invoice, l) + 12;
    y = ensureSpace(doc, y, 80);
    y = correctionSummary(doc, y, invoice, l) + 14;
  } else {
    y = lineTable(doc, y, invoice.lines, invoice, l) + 12;
    if (!invoice.sellerVatExempt) {
      y = ensureSpace(doc, y, 30 + 18 * (invoice.rates.length + 1));
      y = summaryTable(doc, y, invoice, l) + 14;
    }
  }

  y = ensureSpace(doc, y, 110);
  y = paymentBlock(doc, y, invoice, l);
  y = notesBlock(doc, y, invoice, l);
  y = signatures(doc, y, invoice, l);
  if (ksef) ksefBlock(doc, ensureSpace(doc, y + 18, 150), ksef, l);

  // Footers: number and page on every page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin: without this pdfkit would start a new page for the footer.
    doc.page.margins.bottom = 0;
    const footerY = PAGE.height - 36;
    rule(doc, footerY - 4);
    doc.font(REGULAR).fontSize(7).fillColor(MUTED);
    doc.text(`${title} ${invoice.number}`, PAGE.margin, footerY, {
      width: CONTENT_WIDTH / 2,
      lineBreak: false,
    });
    doc.text(
      l('page', { page: i - range.start + 1, pages: range.count }),
      PAGE.margin + CONTENT_WIDTH / 2,
      footerY,
      { width: CONTENT_WIDTH / 2, align: 'right', lineBreak: false },
    );
  }
  doc.end();
  return done;
}
