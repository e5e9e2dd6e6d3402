import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(
  level: string,
  pretty = process.stdout.isTTY && process.env.NODE_ENV !== 'production',
): Logger {
  return pino({
    level,
    redact: [
      'req.headers.cookie',
      'req.headers["x-auth-token"]',
      'req.headers["x-csrf-token"]',
      '*.password',
    ],
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  });
}
