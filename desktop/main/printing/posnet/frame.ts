import { crc16xmodem, crcText } from './crc';
import { decodeText, encodeText } from './text';

/**
 * POSNET framing: STX, command, TAB, fields ("xx<value>" TAB each, any order), optional token
 * "@NNNN" TAB, '#', CRC (4 upper-case hex digits of CRC-16/XMODEM over everything between STX and
 * '#'), ETX. Replies have the same shape; an error reply carries "?nnnn" instead of fields, and a
 * frame error comes back as "ERR TAB [@token TAB] ?nn TAB [cm<command> TAB [fd<field> TAB]]" (one
 * document writes "ernn" for it; both are read).
 */

export const STX = 0x02;
export const ETX = 0x03;
export const TAB = 0x09;
const HASH = 0x23;

export interface PosnetField {
  /** Two-letter mnemonic: "na", "pr", "vt"… */
  name: string;
  value: string;
}

export interface PosnetFrame {
  command: string;
  fields: PosnetField[];
  /** Decimal digits, without the '@'. */
  token?: string;
  /** "?nnnn": set on error replies. */
  errorCode?: number;
}

export function field(name: string, value: string | number): PosnetField {
  return { name, value: String(value) };
}

/**
 * The body a CRC is taken over. Commands and replies: "command TAB fields… [@token TAB]". Errors:
 * "command TAB [@token TAB] ?nnnn" — a command error ends right there (the printer writes
 * "cmd TAB ?nnnn#CRC"), a frame error goes on with "cm…" and "fd…" fields.
 */
export function frameBody(frame: PosnetFrame): string {
  const token = frame.token !== undefined ? `@${frame.token}\t` : '';
  const fields = frame.fields.map((f) => `${f.name}${f.value}\t`).join('');
  if (frame.errorCode === undefined) return `${frame.command}\t${fields}${token}`;
  const error = `?${frame.errorCode}`;
  return `${frame.command}\t${token}${error}${fields === '' ? '' : `\t${fields}`}`;
}

export function encodeFrame(frame: PosnetFrame): Buffer {
  const body = encodeText(frameBody(frame));
  return Buffer.concat([
    Buffer.from([STX]),
    body,
    Buffer.from(`#${crcText(body)}`, 'latin1'),
    Buffer.from([ETX]),
  ]);
}

/** One STX…ETX unit off the wire, its CRC checked but not yet parsed. */
export interface RawFrame {
  /** Bytes between STX and the last '#'. */
  body: Buffer;
  crcOk: boolean;
}

/**
 * Cuts a byte stream into frames. Bytes outside STX…ETX are noise and dropped; an STX inside a
 * frame starts over (the earlier bytes were a frame cut short, e.g. by a lost connection).
 */
export class FrameReader {
  private buffer: Buffer | null = null;
  private readonly maxFrameBytes: number;

  constructor(options: { maxFrameBytes?: number } = {}) {
    this.maxFrameBytes = options.maxFrameBytes ?? 64 * 1024;
  }

  push(chunk: Uint8Array): RawFrame[] {
    const frames: RawFrame[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === STX) {
        this.buffer = Buffer.alloc(0);
        start = i + 1;
      } else if (byte === ETX && this.buffer !== null) {
        const bytes = Buffer.concat([this.buffer, chunk.subarray(start, i)]);
        this.buffer = null;
        frames.push(checkFrame(bytes));
      }
    }
    if (this.buffer !== null) {
      this.buffer = Buffer.concat([this.buffer, chunk.subarray(start)]);
      if (this.buffer.length > this.maxFrameBytes) this.buffer = null;
    }
    return frames;
  }

  /** Drops a partial frame (the line went down). */
  reset(): void {
    this.buffer = null;
  }
}

function checkFrame(bytes: Buffer): RawFrame {
  const hash = bytes.lastIndexOf(HASH);
  if (hash < 0) return { body: bytes, crcOk: false };
  const body = bytes.subarray(0, hash);
  const crc = bytes.subarray(hash + 1).toString('latin1');
  const crcOk = /^[0-9A-Fa-f]{4}$/.test(crc) && parseInt(crc, 16) === crc16xmodem(body);
  return { body, crcOk };
}

/**
 * Splits a frame body into command, token, error code and fields. Empty parts (the TAB before '#'
 * or a missing one) are skipped, so "cmd TAB ?nnnn#CRC" and "cmd TAB ?nnnn TAB #CRC" read the same.
 */
export function parseBody(body: Uint8Array): PosnetFrame {
  const [command = '', ...parts] = decodeText(body).split('\t');
  const frame: PosnetFrame = { command, fields: [] };
  for (const part of parts) {
    if (part === '') continue;
    if (part.startsWith('@')) frame.token = part.slice(1);
    else if (/^\?\d+$/.test(part)) frame.errorCode = Number(part.slice(1));
    else frame.fields.push({ name: part.slice(0, 2), value: part.slice(2) });
  }
  return frame;
}

export function fieldValue(frame: Pick<PosnetFrame, 'fields'>, name: string): string | undefined {
  return frame.fields.find((f) => f.name === name)?.value;
}

/** A reply as the driver reads it. */
export type PosnetReply =
  | { kind: 'ok'; command: string; token?: string; fields: PosnetField[] }
  | { kind: 'commandError'; command: string; token?: string; code: number }
  | { kind: 'frameError'; token?: string; code: number; command?: string; field?: string };

export function classifyReply(frame: PosnetFrame): PosnetReply {
  const token = frame.token;
  const ernn = /^er(\d+)$/i.exec(frame.command);
  if (frame.command === 'ERR' || ernn) {
    const erField = frame.fields.find((f) => f.name === 'er' && /^\d+$/.test(f.value));
    const code = frame.errorCode ?? (ernn ? Number(ernn[1]) : erField ? Number(erField.value) : 0);
    return {
      kind: 'frameError',
      code,
      ...(token !== undefined && { token }),
      ...(fieldValue(frame, 'cm') !== undefined && { command: fieldValue(frame, 'cm') }),
      ...(fieldValue(frame, 'fd') !== undefined && { field: fieldValue(frame, 'fd') }),
    };
  }
  if (frame.errorCode !== undefined) {
    return {
      kind: 'commandError',
      command: frame.command,
      code: frame.errorCode,
      ...(token !== undefined && { token }),
    };
  }
  return { kind: 'ok', command: frame.command, fields: frame.fields, ...(token !== undefined && { token }) };
}
