import { describe, expect, it } from 'vitest';
import {
  checkBuyerTaxId,
  checkIban,
  checkNip,
  computeCorrection,
  computeInvoiceTotals,
  DEFAULT_EXEMPTION_BASIS,
  exemptionBasisOf,
  formatIban,
  formatInvoiceNumber,
  formatNip,
  invoiceNotes,
  invoiceSeriesYear,
  InvoiceInputError,
  normalizeNip,
  parseExchangeRate,
  parseInvoiceNumber,
  paymentDueDate,
  paymentState,
  totalDue,
  vatInPln,
  type InvoiceLineInput,
} from '.';

const line = (
  unitPrice: number,
  vatRate: InvoiceLineInput['vatRate'],
  quantity = '1',
  description = 'Karnet',
): InvoiceLineInput => ({ description, quantity, unit: 'szt.', unitPrice, vatRate });

describe('NIP', () => {
  it.each([
    ['5260250274', '5260250274'],
    ['526-025-02-74', '5260250274'],
    ['526 02 50 274', '5260250274'],
    ['PL5260250274', '5260250274'],
    ['pl 774-000-14-54', '7740001454'],
    ['PL 123-456-32-18', '1234563218'],
  ])('%j is valid as %s', (input, nip) => {
    expect(checkNip(input)).toEqual({ valid: true, nip });
  });

  it.each([
    ['5260250275', 'checksum'], // last digit off by one
    ['1234563219', 'checksum'],
    ['1000000160', 'checksum'], // weighted sum leaves 10: never issued
    ['0000000000', 'format'],
    ['526025027', 'format'], // nine digits
    ['52602502744', 'format'],
    ['DE5260250274', 'format'], // another country's prefix
    ['52602502A4', 'format'],
    ['', 'format'],
  ])('%j is refused (%s)', (input, reason) => {
    expect(checkNip(input)).toEqual({ valid: false, reason });
  });

  it('normalises and prints the usual way', () => {
    expect(normalizeNip(' PL-526.025.02.74 ')).toBe('5260250274');
    expect(normalizeNip('abc')).toBeNull();
    expect(formatNip('5260250274')).toBe('526-025-02-74');
  });

  it.each([
    ['526-025-02-74', 'PL', { valid: true, taxId: '5260250274' }],
    ['5260250275', 'PL', { valid: false, reason: 'checksum' }],
    ['de 123 456 789', 'DE', { valid: true, taxId: 'DE123456789' }],
    ['x', 'DE', { valid: false, reason: 'format' }],
  ])('buyer tax id %j in %s', (input, country, result) => {
    expect(checkBuyerTaxId(input, country)).toEqual(result);
  });
});

describe('IBAN', () => {
  it.each([
    ['PL61 1090 1014 0000 0712 1981 2874', 'PL61109010140000071219812874'],
    ['61109010140000071219812874', 'PL61109010140000071219812874'], // Polish NRB without "PL"
    ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
  ])('%j is valid', (input, iban) => {
    expect(checkIban(input)).toEqual({ valid: true, iban });
  });

  it.each([
    ['PL61109010140000071219812875', 'checksum'],
    ['PL6110901014000007121981287', 'format'],
    ['12345', 'format'],
    ['DE89 3704 0044 0532 0130 0', 'format'], // one digit short for Germany
    ['XX89370400440532013000', 'format'], // no such country
  ])('%j is refused (%s)', (input, reason) => {
    expect(checkIban(input)).toEqual({ valid: false, reason });
  });

  it('prints in groups of four', () => {
    expect(formatIban('PL61109010140000071219812874')).toBe('PL61 1090 1014 0000 0712 1981 2874');
  });
});

describe('invoice numbers', () => {
  it.each([
    [{ kind: 'invoice', year: 2026, sequence: 123 }, 'FV/2026/000123'],
    [{ kind: 'corrective', year: 2027, sequence: 1 }, 'FK/2027/000001'],
    [{ kind: 'invoice', year: 2026, sequence: 1234567 }, 'FV/2026/1234567'],
  ] as const)('%j → %s and back', (parts, number) => {
    expect(formatInvoiceNumber(parts)).toBe(number);
    expect(parseInvoiceNumber(number)).toEqual(parts);
  });

  it('refuses what is not one of ours', () => {
    expect(parseInvoiceNumber('FV/26/1')).toBeNull();
    expect(parseInvoiceNumber('FV/2026/000000')).toBeNull();
    expect(() => formatInvoiceNumber({ kind: 'invoice', year: 2026, sequence: 0 })).toThrow(RangeError);
  });

  it('takes the series year from the date of issue', () => {
    expect(invoiceSeriesYear('2026-12-31')).toBe(2026);
    expect(invoiceSeriesYear('2027-01-01')).toBe(2027);
  });
});

describe('computeInvoiceTotals', () => {
  it.each([
    {
      name: 'net basis, three rates and an exempt line',
      basis: 'net' as const,
      lines: [line(10000, 2300), line(2500, 800, '2'), line(2000, 500), line(1500, 'exempt')],
      rates: [
        { vatRate: 2300, net: 10000, vat: 2300, gross: 12300 },
        { vatRate: 800, net: 5000, vat: 400, gross: 5400 },
        { vatRate: 500, net: 2000, vat: 100, gross: 2100 },
        { vatRate: 'exempt', net: 1500, vat: 0, gross: 1500 },
      ],
      total: { net: 18500, vat: 2800, gross: 21300 },
    },
    {
      name: 'net basis: VAT per rate on the sum, not the sum of line VATs',
      basis: 'net' as const,
      // Each line's VAT is 230.46 → 230 (690 together); the rate's VAT is 691.38 → 691.
      lines: [line(1002, 2300), line(1002, 2300), line(1002, 2300)],
      rates: [{ vatRate: 2300, net: 3006, vat: 691, gross: 3697 }],
      total: { net: 3006, vat: 691, gross: 3697 },
    },
    {
      name: 'net basis: half a grosz rounds up, below half is dropped',
      basis: 'net' as const,
      lines: [line(150, 500), line(2, 2300)],
      rates: [
        { vatRate: 2300, net: 2, vat: 0, gross: 2 },
        { vatRate: 500, net: 150, vat: 8, gross: 158 },
      ],
      total: { net: 152, vat: 8, gross: 160 },
    },
    {
      name: 'gross basis, the way receipts count',
      basis: 'gross' as const,
      lines: [line(12300, 2300), line(5400, 800, '2'), line(999, 2300)],
      rates: [
        // 13299 × 23/123 = 2486.77 → 2487
        { vatRate: 2300, net: 10812, vat: 2487, gross: 13299 },
        { vatRate: 800, net: 10000, vat: 800, gross: 10800 },
      ],
      total: { net: 20812, vat: 3287, gross: 24099 },
    },
    {
      name: 'fractional quantity: 1.5 × 19.99 = 29.985 → 29.99',
      basis: 'gross' as const,
      lines: [line(1999, 0, '1,5')],
      rates: [{ vatRate: 0, net: 2999, vat: 0, gross: 2999 }],
      total: { net: 2999, vat: 0, gross: 2999 },
    },
  ])('$name', ({ basis, lines, rates, total }) => {
    const totals = computeInvoiceTotals({ basis, lines });
    expect(totals.rates).toEqual(rates);
    expect({ net: totals.net, vat: totals.vat, gross: totals.gross }).toEqual(total);
  });

  it('gives every line its own rounded net, VAT and gross', () => {
    const totals = computeInvoiceTotals({ basis: 'gross', lines: [line(999, 2300, '1', 'Woda')] });
    expect(totals.lines).toEqual([
      {
        description: 'Woda',
        unit: 'szt.',
        quantityThousandths: 1000,
        unitPrice: 999,
        vatRate: 2300,
        net: 812,
        vat: 187,
        gross: 999,
      },
    ]);
  });

  it.each([
    ['reverseCharge', 'reverseCharge'],
    ['exempt', 'exempt'],
  ] as const)('treatment %s puts every line at %s with no VAT', (treatment, rate) => {
    const totals = computeInvoiceTotals({
      basis: 'net',
      treatment,
      lines: [line(10000, 2300), line(500, 800)],
    });
    expect(totals.rates).toEqual([{ vatRate: rate, net: 10500, vat: 0, gross: 10500 }]);
    expect(totals.vat).toBe(0);
  });

  it('lists every problem of the lines', () => {
    const bad = [
      { description: ' ', quantity: '0', unit: 'szt.', unitPrice: -1, vatRate: 2300 },
      { description: 'x', quantity: '1.2345', unit: 'h', unitPrice: 1.5, vatRate: 12000 },
      { description: 'y', quantity: '1', unit: 'h', unitPrice: 100, vatRate: 'reverseCharge' },
    ] as InvoiceLineInput[];
    try {
      computeInvoiceTotals({ basis: 'net', lines: bad });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvoiceInputError);
      expect((error as InvoiceInputError).problems).toEqual([
        { path: 'lines.0.description', code: 'descriptionRequired' },
        { path: 'lines.0.unitPrice', code: 'unitPriceInvalid' },
        { path: 'lines.0.quantity', code: 'quantityNotPositive' },
        { path: 'lines.1.unitPrice', code: 'unitPriceInvalid' },
        { path: 'lines.1.quantity', code: 'quantityInvalid' },
        { path: 'lines.1.vatRate', code: 'vatRateInvalid' },
        { path: 'lines.2.vatRate', code: 'reverseChargeNotAllowed' },
      ]);
    }
  });
});

describe('computeCorrection', () => {
  const before = [line(10000, 2300, '2', 'Karnet'), line(5000, 800, '1', 'Masaż')];

  it('one pass taken back, one line unchanged, one added: per line and per rate before/after/difference', () => {
    const result = computeCorrection({
      basis: 'net',
      treatment: 'standard',
      before,
      after: [
        line(10000, 2300, '1', 'Karnet'),
        line(5000, 800, '1', 'Masaż'),
        line(2000, 500, '1', 'Ręcznik'),
      ],
    });
    expect(result.lines.map((l) => [l.position, l.changed, l.difference])).toEqual([
      [1, true, { net: -10000, vat: -2300, gross: -12300, quantityThousandths: -1000 }],
      [2, false, { net: 0, vat: 0, gross: 0, quantityThousandths: 0 }],
      [3, true, { net: 2000, vat: 100, gross: 2100, quantityThousandths: 1000 }],
    ]);
    expect(result.rates).toEqual([
      {
        vatRate: 2300,
        before: { net: 20000, vat: 4600, gross: 24600 },
        after: { net: 10000, vat: 2300, gross: 12300 },
        difference: { net: -10000, vat: -2300, gross: -12300 },
      },
      {
        vatRate: 800,
        before: { net: 5000, vat: 400, gross: 5400 },
        after: { net: 5000, vat: 400, gross: 5400 },
        difference: { net: 0, vat: 0, gross: 0 },
      },
      {
        vatRate: 500,
        before: { net: 0, vat: 0, gross: 0 },
        after: { net: 2000, vat: 100, gross: 2100 },
        difference: { net: 2000, vat: 100, gross: 2100 },
      },
    ]);
    expect(result.difference).toEqual({ net: -8000, vat: -2200, gross: -10200 });
    expect(result.changed).toBe(true);
  });

  it('a wrong rate corrected: the amount moves between rates', () => {
    const result = computeCorrection({
      basis: 'gross',
      treatment: 'standard',
      before: [line(10800, 2300)],
      after: [line(10800, 800)],
    });
    expect(result.rates.map((r) => [r.vatRate, r.difference])).toEqual([
      [2300, { net: -8780, vat: -2020, gross: -10800 }],
      [800, { net: 10000, vat: 800, gross: 10800 }],
    ]);
    expect(result.difference).toEqual({ net: 1220, vat: -1220, gross: 0 });
  });

  it('quantity 0 takes the whole invoice back', () => {
    const result = computeCorrection({
      basis: 'net',
      treatment: 'standard',
      before,
      after: before.map((l) => ({ ...l, quantity: '0' })),
    });
    expect(result.difference).toEqual({ net: -25000, vat: -5000, gross: -30000 });
  });

  it('nothing changed is reported as such; a missing line is refused', () => {
    expect(computeCorrection({ basis: 'net', treatment: 'standard', before, after: before }).changed).toBe(
      false,
    );
    expect(() =>
      computeCorrection({ basis: 'net', treatment: 'standard', before, after: [before[0]!] }),
    ).toThrow(RangeError);
  });
});

describe('payment', () => {
  it.each([
    ['2026-11-23', 14, '2026-12-07'],
    ['2026-12-20', 14, '2027-01-03'],
    ['2028-02-15', 14, '2028-02-29'],
    ['2026-11-23', 0, '2026-11-23'],
  ])('issued %s, %i days → due %s', (issue, days, due) => {
    expect(paymentDueDate(issue, days)).toBe(due);
  });

  it('refuses a term outside 0–365 days', () => {
    expect(() => paymentDueDate('2026-11-23', 366)).toThrow(RangeError);
    expect(() => paymentDueDate('2026-11-23', -1)).toThrow(RangeError);
  });

  it.each([
    [{ gross: 12300, paid: 0, dueDate: '2026-12-07', today: '2026-12-07' }, 'due'],
    [{ gross: 12300, paid: 0, dueDate: '2026-12-07', today: '2026-12-08' }, 'overdue'],
    [{ gross: 12300, paid: 12300, dueDate: '2026-12-07', today: '2026-12-08' }, 'paid'],
    [{ gross: 0, paid: 0, dueDate: '2026-12-07', today: '2026-12-08' }, 'none'],
    [{ gross: -500, paid: 0, dueDate: '2026-12-07', today: '2026-12-08' }, 'refundDue'],
  ] as const)('%j → %s', (input, state) => {
    expect(paymentState(input)).toBe(state);
  });

  it('due is what is left, never below zero', () => {
    expect(totalDue(12300, 2300)).toBe(10000);
    expect(totalDue(12300, 20000)).toBe(0);
  });
});

describe('notes', () => {
  it.each([
    {
      name: 'reverse charge',
      input: { treatment: 'reverseCharge' as const, rates: [{ vatRate: 'reverseCharge' as const }] },
      notes: [{ kind: 'reverseCharge' }],
    },
    {
      name: 'exempt seller with its own basis',
      input: {
        treatment: 'exempt' as const,
        rates: [{ vatRate: 'exempt' as const }],
        exemptionBasis: ' art. 113 ust. 9 ',
      },
      notes: [{ kind: 'vatExempt', basis: 'art. 113 ust. 9' }],
    },
    {
      // No "art. 113" by default on a VAT payer's invoice (issue 19): the basis is the studio's setting.
      name: 'an exempt line on a standard invoice, the basis as saved',
      input: {
        treatment: 'standard' as const,
        rates: [{ vatRate: 2300 }, { vatRate: 'exempt' as const }],
        exemptionBasis: 'art. 43 ust. 1 pkt 32 ustawy o VAT',
      },
      notes: [{ kind: 'vatExempt', basis: 'art. 43 ust. 1 pkt 32 ustawy o VAT' }],
    },
    {
      name: 'standard invoice in złoty: no notes',
      input: { treatment: 'standard' as const, rates: [{ vatRate: 2300 }] },
      notes: [],
    },
  ])('$name', ({ input, notes }) => {
    expect(invoiceNotes({ currency: 'PLN', vat: 0, ...input })).toEqual(notes);
  });

  it('an invoice in euro shows its VAT in złoty at the NBP rate', () => {
    expect(
      invoiceNotes({
        treatment: 'standard',
        rates: [{ vatRate: 2300 }],
        currency: 'EUR',
        vat: 2300,
        exchangeRate: {
          currency: 'EUR',
          rateTenThousandths: 42512,
          table: '226/A/NBP/2026',
          date: '2026-11-20',
        },
      }),
    ).toEqual([
      {
        kind: 'exchangeRate',
        currency: 'EUR',
        rate: '4.2512',
        table: '226/A/NBP/2026',
        date: '2026-11-20',
        vatPln: 9778,
      },
    ]);
  });

  it.each([
    ['4.2512', 42512],
    ['4,25', 42500],
    ['0', null],
    ['4.25125', null],
    ['abc', null],
  ])('exchange rate %j → %j', (text, value) => {
    expect(parseExchangeRate(text)).toBe(value);
  });

  it('converts VAT half up, keeping the sign', () => {
    expect(vatInPln(2300, 42512)).toBe(9778); // 97.7776 zł
    expect(vatInPln(-2300, 42512)).toBe(-9778);
  });
});

describe('exemptionBasisOf', () => {
  it('takes the given basis, else the settings; art. 113 ust. 1 only for a seller exempt under art. 113', () => {
    expect(exemptionBasisOf({ given: ' pkt 33 ', settingsBasis: 'pkt 32', sellerExempt: false })).toBe(
      'pkt 33',
    );
    expect(exemptionBasisOf({ given: null, settingsBasis: 'pkt 32', sellerExempt: false })).toBe('pkt 32');
    expect(exemptionBasisOf({ given: '', settingsBasis: ' ', sellerExempt: false })).toBeNull();
    expect(exemptionBasisOf({ settingsBasis: '', sellerExempt: true })).toBe(DEFAULT_EXEMPTION_BASIS);
  });
});
