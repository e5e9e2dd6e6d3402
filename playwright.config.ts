import { defineConfig, devices, type TraceMode } from '@playwright/test';

/**
 * Browser tests of the web apps against the real cloud server (tests/e2e/support/server.ts starts
 * it with a fresh embedded database and the demo studio). Artifacts go under test-results/:
 * screenshots/ (our own, kept), demo.json (written by the server script), artifacts/ (Playwright's
 * own output, which Playwright empties at each run — hence not test-results/ itself).
 */
const port = Number(process.env.E2E_PORT ?? 3100);
// Stripe's SDK in the server is pointed at a local fake, which the Stripe tests (payment-providers,
// sales-cards) start on this port while they run: set here so the server and the tests agree.
process.env.STRIPE_API_URL ??= `http://127.0.0.1:${port + 7}`;
// The machine translator (DeepL's API) likewise: a loopback fake the translations test starts here.
process.env.DEEPL_API_URL ??= `http://127.0.0.1:${port + 8}`;
process.env.DEEPL_API_KEY ??= 'fake-deepl-key:fx';
const baseURL = process.env.E2E_BASE_URL ?? `http://localhost:${port}`;
const ci = Boolean(process.env.CI);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: `${process.env.E2E_RESULTS_DIR ?? 'test-results'}/artifacts`,
  // One server and one database for the run: tests that sign in and out must not interleave.
  fullyParallel: false,
  workers: ci ? 1 : undefined,
  forbidOnly: ci,
  retries: ci ? 1 : 0,
  timeout: 120_000,
  // On CI's 2-core machine the two Playwright runs, their servers and the desktop specs' own clouds
  // share the cores: a station's first dashboard after a reload took over 10 s twice in a row
  // (desktop-station.e2e, session 15), though it shows in 2-3 s on a quiet machine.
  expect: { timeout: ci ? 20_000 : 10_000 },
  reporter: ci ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]] : [['list']],
  use: {
    baseURL,
    locale: 'en-US',
    timezoneId: 'UTC',
    // Recording a trace costs: with every test traced (retain-on-failure), three web specs took 98-106 s
    // of CPU and 60-64 s, without screenshots 75 s and 50 s, untraced 59 s and 40 s (session 16). So CI
    // traces only the retry of a failed test (its trace, screenshot and error context land in
    // E2E_RESULTS_DIR/artifacts); a local run keeps every failure's trace. E2E_TRACE overrides.
    trace: (process.env.E2E_TRACE as TraceMode | undefined) ?? (ci ? 'on-first-retry' : 'retain-on-failure'),
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'npx tsx tests/e2e/support/server.ts',
        // Answers as soon as the HTTP server is up, built web or not.
        url: `${baseURL}/app/auth/check`,
        env: {
          PORT: String(port),
          STRIPE_API_URL: process.env.STRIPE_API_URL,
          DEEPL_API_URL: process.env.DEEPL_API_URL,
          DEEPL_API_KEY: process.env.DEEPL_API_KEY,
        },
        reuseExistingServer: !ci,
        timeout: 180_000,
        stdout: 'pipe',
        stderr: 'pipe',
      },
});
