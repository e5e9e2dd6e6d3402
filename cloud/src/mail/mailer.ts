import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The HTML alternative of `text` (campaigns, automations: MJML rendered). */
  html?: string;
  /** The sender's display name (the studio's name); the address stays MAIL_FROM's. */
  fromName?: string;
  /** Where replies go (the studio's own address). */
  replyTo?: string;
  /** The message's language (Content-Language). */
  language?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /** The Message-ID header (a job's idempotency key: a resent copy carries the same one). */
  messageId?: string;
  /** Files sent with the message (the platform's invoice PDF). Rendered by the job, never queued. */
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** The most recent messages sent by this process (newest last), for tests and the dev log. */
  readonly recent: MailMessage[];
}

/** A job's idempotency key as a Message-ID: a resent copy carries the same one, so a receiver can tell. */
export function messageIdFor(key: string): string {
  return `<${key.replace(/[^\w.:-]/g, '_')}@jobs.studio.local>`;
}

const RECENT_LIMIT = 200;

type GetSocket = (
  options: { host?: string; port?: number; secure?: boolean },
  callback: (err: Error | null, socket?: { connection: net.Socket } | false) => void,
) => void;

/**
 * Plain SMTP connections with TCP_NODELAY. nodemailer leaves Nagle's algorithm on, and an SMTP
 * exchange (a command written in pieces, then a wait for the reply) meets the receiver's delayed
 * ACK: ~40 ms lost per message, the whole cost of a campaign on a fast server (measured: 45 ms →
 * 1–2 ms a message to a loopback server). Implicit TLS (port 465) keeps nodemailer's own socket.
 */
const noDelaySocket: GetSocket = (options, callback) => {
  if (options.secure || !options.host) return callback(null, false);
  const socket = net.connect({ host: options.host, port: options.port ?? 25 });
  socket.setNoDelay(true);
  const failed = (err: Error) => callback(err);
  socket.once('error', failed);
  socket.once('connect', () => {
    socket.off('error', failed);
    callback(null, { connection: socket });
  });
};

/**
 * Sends through SMTP_URL when set. Without it every message is written as an .eml file to
 * <DATA_DIR>/mail/ so a newcomer can open the recovery and welcome links.
 */
export function createMailer(options: {
  smtpUrl?: string | undefined;
  from: string;
  dataDir: string;
  log: Logger;
}): Mailer {
  const fileMode = !options.smtpUrl;
  const transport: Transporter = fileMode
    ? nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
    : nodemailer.createTransport(options.smtpUrl);
  if (!fileMode) (transport as unknown as { getSocket: GetSocket }).getSocket = noDelaySocket;
  const mailDir = path.join(options.dataDir, 'mail');
  const recent: MailMessage[] = [];
  // MAIL_FROM's address: a message with its own display name (the studio's) keeps it.
  const fromAddress = /<([^>]+)>/.exec(options.from)?.[1] ?? options.from;

  return {
    recent,
    async send(message) {
      const info = await transport.sendMail({
        from: message.fromName ? { name: message.fromName, address: fromAddress } : options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        ...(message.language || message.headers
          ? {
              headers: {
                ...(message.language ? { 'Content-Language': message.language } : {}),
                ...message.headers,
              },
            }
          : {}),
        ...(message.messageId ? { messageId: message.messageId } : {}),
        ...(message.attachments ? { attachments: message.attachments } : {}),
        // HTML mails (campaigns, automations): base64 rather than nodemailer's scan and
        // quoted-printable of every message (a third of the CPU a campaign mail costs).
        ...(message.html ? { textEncoding: 'base64' as const } : {}),
      });
      recent.push(message);
      if (recent.length > RECENT_LIMIT) recent.shift();
      if (fileMode) {
        await fs.mkdir(mailDir, { recursive: true });
        const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, '_');
        const file = path.join(mailDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`);
        // Written beside it and renamed, so whoever watches the folder (a mail viewer, the e2e tests)
        // never reads a half-written .eml: an e2e test once read it empty.
        const partial = `${file}.partial`;
        await fs.writeFile(partial, (info as { message: Buffer }).message);
        await fs.rename(partial, file);
        options.log.info({ to: message.to, file }, `mail written: ${message.subject}`);
      } else {
        options.log.info({ to: message.to }, `mail sent: ${message.subject}`);
      }
    },
  };
}
