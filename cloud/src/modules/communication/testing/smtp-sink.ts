import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback (smtp-server) for tests and the benchmark: it receives what the
 * app's nodemailer transport sends, and keeps each message parsed (mailparser) — or only counts
 * them (`keep: false`, the benchmark). `rejectRecipient` answers 550 at RCPT TO (a hard bounce);
 * `failAfter` answers 421 to the DATA of every message after that many (a server going away).
 */
export interface SmtpSink {
  url: string;
  messages: ParsedMail[];
  count: number;
  rejectRecipient: (address: string) => boolean;
  failAfter: number | null;
  close(): Promise<void>;
}

export async function startSmtpSink(options: { keep?: boolean; port?: number } = {}): Promise<SmtpSink> {
  const keep = options.keep ?? true;
  const sink: SmtpSink = {
    url: '',
    messages: [],
    count: 0,
    rejectRecipient: () => false,
    failAfter: null,
    close: async () => undefined,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    disableReverseLookup: true,
    size: 10 * 1024 * 1024,
    // Pooled client connections stay open: closing does not wait for them.
    closeTimeout: 100,
    onRcptTo(address, _session, callback) {
      if (sink.rejectRecipient(address.address)) {
        const err = Object.assign(new Error('5.1.1 mailbox unavailable'), { responseCode: 550 });
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      if (sink.failAfter !== null && sink.count >= sink.failAfter) {
        stream.resume();
        stream.on('end', () =>
          callback(Object.assign(new Error('4.3.2 try again later'), { responseCode: 421 })),
        );
        return;
      }
      if (!keep) {
        stream.resume();
        stream.on('end', () => {
          sink.count += 1;
          callback();
        });
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          sink.messages.push(mail);
          sink.count += 1;
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  sink.url = `smtp://127.0.0.1:${port}/?pool=true&maxConnections=4&ignoreTLS=true`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
