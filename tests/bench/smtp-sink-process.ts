/**
 * The benchmark's SMTP server in a process of its own (the app's memory and CPU are what
 * bench:campaign measures, not the receiving server's): prints its URL, then reports the count of
 * messages received whenever the parent asks (IPC).
 */
import { startSmtpSink } from '../../cloud/src/modules/communication/testing/smtp-sink';

const sink = await startSmtpSink({ keep: false });
process.send?.({ url: sink.url });
process.on('message', (m: { ask?: 'count' | 'close' }) => {
  if (m.ask === 'count') process.send?.({ count: sink.count });
  if (m.ask === 'close') void sink.close().then(() => process.exit(0));
});
