/**
 * The cloud as a separate process for the kill -9 test of the API during a push:
 * `tsx cloud-child.ts <database url> <port>`; with `CRASH_AFTER_COMMITS=n` it SIGKILLs itself right
 * after the n-th pushed mutation committed (the rest of the batch never runs, no answer is sent).
 * Prints `listening <url>` when ready.
 */
import { startServer } from '../../server';
import { pushTestHooks } from '../push.service';

const [databaseUrl, port] = process.argv.slice(2);
const crashAfter = Number(process.env.CRASH_AFTER_COMMITS ?? 0);
let commits = 0;
if (crashAfter > 0)
  pushTestHooks.afterCommit = () => {
    if (++commits >= crashAfter) process.kill(process.pid, 'SIGKILL');
  };
const server = await startServer({
  databaseUrl: databaseUrl!,
  port: Number(port),
  env: { HOST: '127.0.0.1', LOG_LEVEL: 'silent', NODE_ENV: 'test' },
  seedDemo: false,
  log: false,
  jobs: false,
});
process.stdout.write(`listening ${server.url}\n`);
