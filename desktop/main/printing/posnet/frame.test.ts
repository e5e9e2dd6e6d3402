import { describe, expect, it } from 'vitest';
import { crc16xmodem, crcText } from './crc';
import { classifyReply, encodeFrame, field, FrameReader, parseBody, type PosnetFrame } from './frame';
import {
  cleanItemName,
  encodeText,
  escapeFormattedText,
  formatAmount,
  formatVatPercent,
  parseAmount,
  parseVatPercent,
  stripFormatting,
} from './text';

const ascii = (text: string) => Buffer.from(text, 'latin1');
/** Frame bytes as readable text: STX → «, ETX → », TAB → →. */
const show = (bytes: Uint8Array) =>
  Buffer.from(bytes)
    .toString('latin1')
    .replaceAll('\u0002', '«')
    .replaceAll('\u0003', '»')
    .replaceAll('\t', '→');

function frameOf(body: string, crc = crcText(encodeText(body))): Buffer {
  return Buffer.concat([Buffer.from([2]), encodeText(body), ascii(`#${crc}`), Buffer.from([3])]);
}

describe('CRC-16/XMODEM', () => {
  it('has the check value 31C3 for "123456789"', () => {
    expect(crc16xmodem(ascii('123456789'))).toBe(0x31c3);
    expect(crcText(ascii('123456789'))).toBe('31C3');
  });

  it('gives 4825 for the worked example "trinit TAB bm0 TAB"', () => {
    expect(crcText(ascii('trinit\tbm0\t'))).toBe('4825');
  });

  it('is written as four upper-case hex digits, zero-padded', () => {
    expect(crcText(ascii(''))).toBe('0000');
    expect(crcText(ascii('A'))).toBe('58E5');
  });
});

describe('encodeFrame (golden frames)', () => {
  it('the worked example: «trinit→bm0→#4825»', () => {
    const bytes = encodeFrame({ command: 'trinit', fields: [field('bm', 0)] });
    expect(show(bytes)).toBe('«trinit→bm0→#4825»');
    expect([...bytes.subarray(0, 1)]).toEqual([0x02]);
    expect([...bytes.subarray(-1)]).toEqual([0x03]);
  });

  it('puts the token after the fields and covers it with the CRC', () => {
    const bytes = encodeFrame({ command: 'trinit', fields: [field('bm', 0)], token: '0042' });
    const body = 'trinit\tbm0\t@0042\t';
    expect(show(bytes)).toBe(`«${body.replace(/\t/g, '→')}#${crcText(ascii(body))}»`);
  });

  it('writes names in Windows-1250 and amounts without a decimal separator', () => {
    const bytes = encodeFrame({
      command: 'trline',
      fields: [field('na', 'Zażółć gęślą jaźń'), field('vt', 0), field('pr', formatAmount(1999))],
    });
    const body = Buffer.concat([
      ascii('trline\tna'),
      Buffer.from([
        0x5a, 0x61, 0xbf, 0xf3, 0xb3, 0xe6, 0x20, 0x67, 0xea, 0x9c, 0x6c, 0xb9, 0x20, 0x6a, 0x61, 0x9f, 0xf1,
      ]),
      ascii('\tvt0\tpr1999\t'),
    ]);
    expect(bytes).toEqual(
      Buffer.concat([Buffer.from([2]), body, ascii(`#${crcText(body)}`), Buffer.from([3])]),
    );
  });

  it('writes a command error the way the printer does: cmd TAB ?nnnn#CRC', () => {
    const bytes = encodeFrame({ command: 'trline', fields: [], errorCode: 2802, token: '7' });
    expect(show(bytes)).toMatch(/^«trline→@7→\?2802#[0-9A-F]{4}»$/);
  });

  it('writes a frame error with the command and field it concerns', () => {
    const bytes = encodeFrame({
      command: 'ERR',
      errorCode: 3,
      token: '12',
      fields: [field('cm', 'trline'), field('fd', 'pr')],
    });
    expect(show(bytes)).toMatch(/^«ERR→@12→\?3→cmtrline→fdpr→#[0-9A-F]{4}»$/);
  });
});

describe('FrameReader', () => {
  it('cuts frames out of a stream split anywhere, dropping noise between frames', () => {
    const stream = Buffer.concat([
      ascii('noise'),
      frameOf('scnt\tbn5\t'),
      ascii('\r\n'),
      frameOf('sprn\tpr0\t'),
    ]);
    const reader = new FrameReader();
    const frames = [...stream].flatMap((byte) => reader.push(Uint8Array.of(byte)));
    expect(frames.map((f) => [f.body.toString('latin1'), f.crcOk])).toEqual([
      ['scnt\tbn5\t', true],
      ['sprn\tpr0\t', true],
    ]);
  });

  it('starts over at an STX inside a frame (the earlier one was cut short)', () => {
    const cut = frameOf('trend\t@0001\t').subarray(0, 6);
    const frames = new FrameReader().push(Buffer.concat([cut, frameOf('trend\t@0002\t')]));
    expect(frames).toHaveLength(1);
    expect(parseBody(frames[0]!.body).token).toBe('0002');
  });

  it('flags a damaged frame, and reads lower-case hex', () => {
    const damaged = frameOf('scnt\tbn5\t');
    damaged[7] = 0x36; // bn5 → bn6
    const lower = frameOf('scnt\tbn5\t', crcText(ascii('scnt\tbn5\t')).toLowerCase());
    const frames = new FrameReader().push(Buffer.concat([damaged, lower, frameOf('x\t', 'ZZZZ')]));
    expect(frames.map((f) => f.crcOk)).toEqual([false, true, false]);
  });

  it('uses the last # so a # inside a name does not end the frame', () => {
    const [frame] = new FrameReader().push(frameOf('trline\tnaMata #2\t'));
    expect(frame!.crcOk).toBe(true);
    expect(parseBody(frame!.body).fields).toEqual([{ name: 'na', value: 'Mata #2' }]);
  });
});

describe('replies', () => {
  const reply = (body: string) => {
    const [raw] = new FrameReader().push(frameOf(body));
    return classifyReply(parseBody(raw!.body));
  };

  it('reads a success with fields and token', () => {
    expect(reply('scnt\tbn12\tbc3\t@0042\t')).toEqual({
      kind: 'ok',
      command: 'scnt',
      token: '0042',
      fields: [
        { name: 'bn', value: '12' },
        { name: 'bc', value: '3' },
      ],
    });
  });

  it.each([
    ['trline\t?2802', 2802],
    ['trline\t?2802\t', 2802],
    ['trend\t@0005\t?2805', 2805],
  ])('reads a command error %j', (body, code) => {
    expect(reply(body)).toMatchObject({ kind: 'commandError', code });
  });

  it.each([
    ['ERR\t?05\t', { code: 5 }],
    ['ERR\t@0009\t?3\tcmtrline\tfdpr\t', { code: 3, token: '0009', command: 'trline', field: 'pr' }],
    ['ERR\ter05\t', { code: 5 }],
    ['er05\t', { code: 5 }],
  ])('reads a frame error %j', (body, expected) => {
    expect(reply(body)).toMatchObject({ kind: 'frameError', ...expected });
  });

  it('round-trips a frame through encode and parse', () => {
    const frame: PosnetFrame = {
      command: 'trline',
      fields: [field('na', 'Ręcznik & mata'), field('vt', 1), field('pr', 4599), field('il', '1.5')],
      token: '0101',
    };
    const [raw] = new FrameReader().push(encodeFrame(frame));
    expect(raw!.crcOk).toBe(true);
    expect(parseBody(raw!.body)).toEqual(frame);
  });
});

describe('text and number fields', () => {
  it('cleans item names: TAB/CR/LF and control characters out, composed, 80 characters at most', () => {
    // A TAB or line break is a space on the receipt, never glued words ('Karnetmiesięczny').
    expect(cleanItemName('Karnet\tmiesięczny\r\n OPEN ')).toBe('Karnet miesięczny OPEN');
    expect(cleanItemName('Woda\tmineralna')).toBe('Woda mineralna');
    expect(cleanItemName('Zaz\u0307o\u0301łc\u0301')).toBe('Zażółć');
    expect(cleanItemName('x'.repeat(100))).toHaveLength(80);
    expect(cleanItemName('Joga & pilates')).toBe('Joga & pilates');
    expect(cleanItemName(' \t ')).toBe('');
  });

  it('escapes & in header texts and strips formatting for the printed form', () => {
    expect(escapeFormattedText('Kowalski & Syn')).toBe('Kowalski && Syn');
    expect(stripFormatting('&c&bStudio&b && Co')).toBe('Studio & Co');
  });

  it('writes money fields from integer grosze, never with a separator', () => {
    expect(19.99 * 100).toBe(1998.9999999999998); // why amounts never go through floats
    expect(formatAmount(1999)).toBe('1999');
    expect(formatAmount(5)).toBe('5');
    expect(formatAmount(0)).toBe('0');
    for (const bad of [19.99, -1, 10_000_000_000, Number.NaN])
      expect(() => formatAmount(bad)).toThrow(RangeError);
    expect(parseAmount('1999')).toBe(1999);
    expect(parseAmount('19.99')).toBeNull();
    expect(parseAmount('19,99')).toBeNull();
  });

  it('reads and writes VAT percentages as vatget sends them', () => {
    expect(['23,00', '8,00', '5', '0,00', '100,00', '101,00', '7.5'].map(parseVatPercent)).toEqual([
      2300,
      800,
      500,
      0,
      'exempt',
      'inactive',
      750,
    ]);
    expect(parseVatPercent('102,00')).toBeNull();
    expect(parseVatPercent('23,001')).toBeNull();
    expect([2300, 'exempt', 'inactive', 550].map((v) => formatVatPercent(v as never))).toEqual([
      '23,00',
      '100,00',
      '101,00',
      '5,50',
    ]);
  });
});
