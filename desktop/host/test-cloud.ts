/**
 * A cloud for desktop tests that can be stopped and started again on the same data (the station's
 * "the internet is gone" case):
 *
 *   npx tsx desktop/host/test-cloud.ts <port> <dataDir>
 *
 * Starts the cloud with the embedded database under dataDir and the demo studio, then prints one
 * line `READY {json}` with the URL and the demo logins. SIGTERM stops it; the data stays for the
 * next start.
 */
import { startServer } from '../../cloud/src/server';

async function main(): Promise<void> {
  const [portText, dataDir] = process.argv.slice(2);
  if (!portText || !dataDir) throw new Error('usage: test-cloud.ts <port> <dataDir>');
  const running = await startServer({
    port: Number(portText),
    dataDir,
    seedDemo: true,
    log: process.env.E2E_LOG === '1',
    env: { NODE_ENV: 'test', DATABASE_URL: '' },
  });
  console.log(`READY ${JSON.stringify({ url: running.url, ...running.demo })}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void running.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error('[test-cloud] failed', error);
  process.exit(1);
});
