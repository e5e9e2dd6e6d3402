/**
 * Loaded by the integration tests' test app (test-app.ts), once per worker. Not a vitest setupFile:
 * that re-runs before each file, and ksef.int.test then failed in two full runs of two.
 *
 * pg warns once per process when a query is sent to a client (a transaction's connection) that is
 * still running another: queued today, an error in pg 9. That happens when a service reads in
 * parallel (`Promise.all`) on a transaction instead of `readAll` (cloud/src/db/read-all.ts). Here
 * the warning fails the run, with where it was sent from.
 */
const FLAG = Symbol.for('studio.int-setup.pg-warning');
const registry = globalThis as unknown as Record<symbol, boolean>;
if (!registry[FLAG]) {
  registry[FLAG] = true;
  process.on('warning', (warning) => {
    if (!/client is already executing a query/.test(warning.message)) return;
    throw new Error(`parallel queries on one pg client (use readAll on a transaction)\n${warning.stack}`);
  });
}
