/**
 * SMS: the length and encoding of a text (what a gateway bills: segments) and a provider interface
 * with a driver for SMSAPI.pl's HTTP API (https://www.smsapi.pl/docs, `POST /sms.do`).
 */

// GSM 03.38 basic character set; the extension table's characters take two septets (ESC + char).
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';
const BASIC = new Set(GSM_BASIC);
const EXTENDED = new Set(GSM_EXTENDED);

export interface SmsLength {
  /** Characters as the gateway counts them: GSM-7 septets (an extended one counts 2), or UTF-16 units. */
  characters: number;
  encoding: 'GSM-7' | 'UCS-2';
  segments: number;
}

/**
 * GSM-7 when every character is in the GSM 03.38 alphabet (160 per message, 153 per part of a long
 * one); otherwise UCS-2 — one Polish letter (ą, ę, ł, ś …) is enough — at 70, or 67 per part.
 */
export function smsLength(text: string): SmsLength {
  let septets = 0;
  let gsm = true;
  for (const ch of text) {
    if (BASIC.has(ch)) septets += 1;
    else if (EXTENDED.has(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) {
    return {
      characters: septets,
      encoding: 'GSM-7',
      segments: septets === 0 ? 0 : septets <= 160 ? 1 : Math.ceil(septets / 153),
    };
  }
  const units = text.length;
  return { characters: units, encoding: 'UCS-2', segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}

export interface SmsMessage {
  to: string;
  text: string;
  /** The sender name registered with the gateway (up to 11 characters). */
  from?: string;
  /** Idempotency: the gateway refuses a second message with the same id (SMSAPI `idx` + `check_idx`). */
  id: string;
}

export interface SmsResult {
  providerId: string;
  parts: number;
}

/** A refusal that will not change on retry (bad number, no credit): the recipient is marked failed. */
export class SmsRejected extends Error {}

export interface SmsProvider {
  send(message: SmsMessage): Promise<SmsResult>;
}

/** SMSAPI.pl error codes that concern the message, not the connection (their docs' "Error codes"). */
const PERMANENT = new Set([11, 12, 13, 14]);
/** SMSAPI: a message whose `idx` was used already (check_idx=1): sent before, not again. */
const DUPLICATE_IDX = 105;

interface SmsapiAnswer {
  error?: number;
  message?: string;
  list?: Array<{ id: string; parts?: number; status?: string }>;
}

/** SMSAPI.pl: `POST {base}/sms.do` with a Bearer token, form-encoded, `format=json`. */
export function smsapiProvider(options: { token: string; baseUrl?: string; from?: string }): SmsProvider {
  const base = (options.baseUrl ?? 'https://api.smsapi.pl').replace(/\/$/, '');
  return {
    async send(message) {
      const form = new URLSearchParams({
        to: message.to.replace(/[^\d]/g, ''),
        message: message.text,
        format: 'json',
        encoding: 'utf-8',
        idx: message.id.slice(0, 255),
        check_idx: '1',
      });
      const from = message.from ?? options.from;
      if (from) form.set('from', from);
      const res = await fetch(`${base}/sms.do`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${options.token}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: form,
        signal: AbortSignal.timeout(15_000),
      });
      if (res.status >= 500) throw new Error(`SMSAPI answered ${res.status}`);
      const answer = (await res.json()) as SmsapiAnswer;
      if (answer.error !== undefined) {
        if (answer.error === DUPLICATE_IDX) return { providerId: `idx:${message.id}`, parts: 0 };
        if (PERMANENT.has(answer.error))
          throw new SmsRejected(`SMSAPI ${answer.error}: ${answer.message ?? ''}`);
        throw new Error(`SMSAPI ${answer.error}: ${answer.message ?? ''}`);
      }
      const first = answer.list?.[0];
      if (!first) throw new Error('SMSAPI answered no message');
      return { providerId: first.id, parts: first.parts ?? 1 };
    },
  };
}

/** Without SMSAPI_TOKEN (development): messages are only logged, as mail is written to files. */
export function loggingSmsProvider(log: (text: string) => void): SmsProvider {
  let n = 0;
  return {
    async send(message) {
      n += 1;
      log(`sms to ${message.to}: ${message.text}`);
      return { providerId: `log-${n}`, parts: smsLength(message.text).segments };
    },
  };
}

/** The provider the environment configures: SMSAPI_TOKEN (and SMSAPI_URL, SMS_SENDER), else logging. */
export function smsProviderFromEnv(log: (text: string) => void): SmsProvider {
  const token = process.env.SMSAPI_TOKEN;
  if (!token) return loggingSmsProvider(log);
  return smsapiProvider({
    token,
    ...(process.env.SMSAPI_URL ? { baseUrl: process.env.SMSAPI_URL } : {}),
    ...(process.env.SMS_SENDER ? { from: process.env.SMS_SENDER } : {}),
  });
}

/** Price of one SMS segment through the gateway, grosze (SMSAPI.pl's ECO/PRO list price ≈ 0.16 zł). */
export const SMS_SEGMENT_PRICE = 16;
