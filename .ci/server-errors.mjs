// Fails CI when the servers of the test run answered a 500 no test announced. The test app's and the
// e2e server's error middleware append each 500 with its request to SERVER_ERROR_LOG
// (cloud/src/http/server-error-log.ts); a test that provokes one on purpose sends
// `x-expect-server-error: <why>` and its entry is listed as expected.
import fs from 'node:fs';

/** Prints the log's entries; returns how many 500s no test announced. */
export function checkServerErrors(file) {
  const lines = file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  const entries = lines.map((line) => {
    try {
      return JSON.parse(line);
    } catch {
      return { url: '?', error: line };
    }
  });
  const expected = entries.filter((e) => e.expected);
  const unexpected = entries.filter((e) => !e.expected);
  for (const e of expected) console.log(`expected 500: ${e.method} ${e.url} (${e.expected})`);
  for (const e of unexpected)
    console.log(
      `\nUNEXPECTED 500: ${e.method} ${e.url}\n  request id ${e.requestId}\n  body ${e.body}\n  ${e.error}`,
    );
  console.log(`server 500 answers: ${unexpected.length} unexpected, ${expected.length} expected`);
  return unexpected.length;
}

if (import.meta.url === `file://${process.argv[1]}`)
  process.exit(checkServerErrors(process.argv[2]) > 0 ? 1 : 0);
