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
  } else if (report.stats) {
    const s = report.stats;
    // A flaky test passed on a retry: counted as passed, and named in its own line above.
    passed += s.expected + (s.flaky ?? 0);
    failed += s.unexpected;
    skipped += s.skipped;
    console.log(`${file}: ${s.expected} passed, ${s.unexpected} failed, ${s.flaky ?? 0} flaky`);
  }
}
// Zero 500 answers in the whole run: each one no test announced counts as a failure.
if (process.env.SERVER_ERROR_LOG) failed += checkServerErrors(process.env.SERVER_ERROR_LOG);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
