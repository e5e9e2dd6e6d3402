import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../../cloud/src/app';
import { systemClock } from '../../../cloud/src/clock';
import { loadConfig } from '../../../cloud/src/config';
import type { Knex } from '../../../cloud/src/db/knex';
import type { Deps } from '../../../cloud/src/http/context';
import { RateLimits } from '../../../cloud/src/http/rate-limit';
import { createLogger } from '../../../cloud/src/logger';
import type { HttpClient } from '../../support/http-client';
import { signedInClient } from './session-client';

/** The cloud's HTTP app on a free port over a bench's database, as production configures it. */
export interface BenchApp {
  url: string;
  /** An HTTP client holding a fresh session of this user (no password round trip). */
  signedIn(userId: string): Promise<HttpClient>;
  close(): Promise<void>;
}

/** `dataDir`: the app's DATA_DIR (a folder under the system's temp dir unless told). */
export async function startBenchApp(knex: Knex, options: { dataDir?: string } = {}): Promise<BenchApp> {
  const config = loadConfig({
    NODE_ENV: 'production',
    // Production requires both (config.ts); a bench's studio is thrown away.
    PUBLIC_URL: 'http://127.0.0.1',
    FIELD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PORT: '0',
    DATA_DIR: options.dataDir ?? path.join(os.tmpdir(), 'studio-bench'),
    LOG_LEVEL: 'silent',
  });
  const deps: Deps = {
    config,
    knex,
    log: createLogger('silent', false),
    mailer: { send: async () => {}, recent: [] },
    clock: systemClock,
    rateLimits: new RateLimits(),
    web: { html: async () => '<!doctype html><html><head></head><body></body></html>' },
  };
  const server = await new Promise<Server>((resolve) => {
    const s = createApp(deps).listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    signedIn: (userId) => signedInClient(knex, url, userId),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
