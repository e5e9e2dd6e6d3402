import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where one e2e run keeps its files. E2E_RESULTS_DIR moves them (demo.json, Playwright's artifacts)
 * so that two runs on different E2E_PORTs do not overwrite each other; screenshots go to its
 * screenshots/ folder, named per test (support/screenshots.ts).
 */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const RESULTS_DIR = path.resolve(ROOT, process.env.E2E_RESULTS_DIR ?? 'test-results');
export const DEMO_FILE = path.join(RESULTS_DIR, 'demo.json');
