import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, for locales/ and dist/web when running from source. */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const LOCALES_DIR = path.join(ROOT_DIR, 'locales');
/** The built web apps; WEB_DIST_DIR moves them (parallel builds in development and tests). */
export const WEB_DIST_DIR = process.env.WEB_DIST_DIR
  ? path.resolve(process.env.WEB_DIST_DIR)
  : path.join(ROOT_DIR, 'dist', 'web');
