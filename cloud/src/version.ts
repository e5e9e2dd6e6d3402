import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pkg = require('../../package.json') as { version: string };

/** major.minor.patch.build — the build number comes from CI (BUILD_NUMBER) and is 0 locally. */
export const VERSION = `${pkg.version}.${process.env.BUILD_NUMBER ?? '0'}`;
