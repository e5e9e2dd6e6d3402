import fs from 'node:fs';
import path from 'node:path';
import electronLog from 'electron-log/node';

export type DeskLogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface DeskLoggerOptions {
  /** The folder of the log files (`<userData>/station/logs` in the app, the host's data dir + /logs). */
  dir: string;
  /** Rotate when the current file passes this size (1 MB). */
  maxBytes?: number;
  /** Files kept: desk.log and desk.1.log … desk.(keep-1).log, the oldest dropped (5). */
  keep?: number;
  /** Also to the console (the app's and the host's stdout); off in tests. */
  console?: boolean;
}

export interface DeskLogger {
  error(scope: string, message: string): void;
  warn(scope: string, message: string): void;
  info(scope: string, message: string): void;
  /** The log files, oldest first (desk.4.log … desk.log). */
  files(): string[];
  /** The last `maxBytes` of the logs, across the rotated files (what "Upload logs" sends). */
  tail(maxBytes: number): string;
}

let instances = 0;

/**
 * The desk's log (issue 29): electron-log's file transport in plain Node (`electron-log/node`: the
 * same in Electron's main, on the host and in tests, no Electron binary needed), one line per event
 * with time and level, in the station's data folder. At `maxBytes` the file rotates: desk.log →
 * desk.1.log → … → desk.<keep-1>.log, the oldest deleted — a few MB at most on a station's disk.
 * Writes are synchronous: a line is on disk before a crash that follows it.
 */
export function createDeskLogger(options: DeskLoggerOptions): DeskLogger {
  const dir = options.dir;
  const keep = Math.max(2, options.keep ?? 5);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const current = path.join(dir, 'desk.log');
  const rotated = (n: number) => path.join(dir, `desk.${n}.log`);
  // A logger of its own (electron-log's default one is process-wide).
  const log = electronLog.create({ logId: `desk-${process.pid}-${++instances}` });
  log.transports.console.level = options.console ? 'info' : false;
  log.transports.file.level = 'info';
  log.transports.file.sync = true;
  log.transports.file.maxSize = options.maxBytes ?? 1024 * 1024;
  log.transports.file.resolvePathFn = () => current;
  log.transports.file.format = '{iso} [{level}] {text}';
  log.transports.file.archiveLogFn = (file) => {
    fs.rmSync(rotated(keep - 1), { force: true });
    for (let n = keep - 2; n >= 1; n -= 1)
      if (fs.existsSync(rotated(n))) fs.renameSync(rotated(n), rotated(n + 1));
    fs.renameSync(file.path, rotated(1));
  };
  const line = (scope: string, message: string) => `[${scope}] ${message.replace(/\r?\n/g, ' ⏎ ')}`;
  const files = () => [
    ...Array.from({ length: keep - 1 }, (_, i) => rotated(keep - 1 - i)).filter((f) => fs.existsSync(f)),
    ...(fs.existsSync(current) ? [current] : []),
  ];
  return {
    error: (scope, message) => log.error(line(scope, message)),
    warn: (scope, message) => log.warn(line(scope, message)),
    info: (scope, message) => log.info(line(scope, message)),
    files,
    tail(maxBytes) {
      const chunks: Buffer[] = [];
      let size = 0;
      for (const file of files().reverse()) {
        if (size >= maxBytes) break;
        const bytes = fs.readFileSync(file);
        const take = bytes.subarray(Math.max(0, bytes.length - (maxBytes - size)));
        chunks.unshift(take);
        size += take.length;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      // Cut to whole lines when the tail began mid-line.
      return size >= maxBytes ? text.slice(text.indexOf('\n') + 1) : text;
    },
  };
}
