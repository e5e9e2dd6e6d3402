import cluster from 'node:cluster';
import os from 'node:os';
import type { Config } from './config';
import type { Logger } from './logger';

/**
 * How many cloud processes `npm start` runs. One Node process uses one core; on PostgreSQL
 * (DATABASE_URL) WEB_CONCURRENCY processes share the port (node:cluster), each with its own pool, and
 * behave as instances behind a load balancer (nothing lives in one process's memory that another
 * needs). The embedded PGlite lives inside one process: always one there.
 */
export function processCount(
  config: Pick<Config, 'DATABASE_URL' | 'WEB_CONCURRENCY'>,
  cores = os.availableParallelism(),
): number {
  if (!config.DATABASE_URL) return 1;
  return config.WEB_CONCURRENCY === 'auto' ? cores : config.WEB_CONCURRENCY;
}

/**
 * The primary of a cluster: forks `count` workers (each runs the server), replaces one that dies,
 * and on SIGINT/SIGTERM passes the signal on and exits when all have stopped.
 */
export function runPrimary(count: number, log: Logger): void {
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < count; i++) fork();
  log.info({ workers: count }, 'cloud cluster started');
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'cloud worker died; starting another');
    setTimeout(fork, 1000).unref();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  }
}
