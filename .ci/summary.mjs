// Adds up the JSON reports of vitest and Playwright and prints the closing line CI reads.
import fs from 'node:fs';
import { checkServerErrors } from './server-errors.mjs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    console.log(`${file}: missing (the run did not finish)`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  if ('numPassedTests' in report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
    // CI shows only the tail of its output: name each failure here, with the first lines of its message.
    for (const suite of report.testResults ?? []) {
      for (const t of suite.assertionResults ?? []) {
        if (t.status !== 'failed') continue;
        const where = String(suite.name ?? '').replace(process.cwd() + '/', '');
        const why = String(t.failureMessages?.[0] ?? '')
          .split('\n')
          .slice(0, 4)
          .join(' | ')
          .slice(0, 600);
        console.log(`  FAILED ${where} › ${t.fullName}\n    ${why}`);
      }
      if (suite.status === 'failed' && !(suite.assertionResults ?? []).some((t) => t.status === 'failed')) {
        console.log(
          `  FAILED ${String(suite.name ?? '').replace(process.cwd() + '/', '')}: ${String(suite.message ?? '').slice(0, 600)}`,
        );
      }
    }
  } else if (report.stats) {
    const s = report.stats;
    // A flaky test passed on a retry: counted as passed, and named in its own line above.
    passed += s.expected + (s.flaky ?? 0);
    failed += s.unexpected;
    skipped += s.skipped;
    console.log(`${file}: ${s.expected} passed, ${s.unexpected} failed, ${s.flaky ?? 0} flaky`);
    const walk = (suite, path) => {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          if (test.status !== 'unexpected') continue;
          const err = test.results?.at(-1)?.error?.message ?? '';
          console.log(
            `  FAILED ${spec.file}:${spec.line} › ${spec.title}\n    ${err.split('\n').slice(0, 4).join(' | ').slice(0, 600)}`,
          );
        }
      }
      for (const child of suite.suites ?? []) walk(child, path);
    };
    for (const suite of report.suites ?? []) walk(suite, '');
  }
}
// Zero 500 answers in the whole run: each one no test announced counts as a failure.
if (process.env.SERVER_ERROR_LOG) failed += checkServerErrors(process.env.SERVER_ERROR_LOG);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
