/**
 * No import cycle between the cloud's modules (cloud/src/modules/<name>), checked on the graph of the
 * modules alone (what goes through app, http, jobs, sync or db is not a module's import). Run by
 * `npm run lint`; the other boundaries are in .dependency-cruiser.cjs.
 */
const base = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-module-cycles',
      severity: 'error',
      scope: 'folder',
      comment:
        'No import cycle between cloud modules: the lower module offers a hook the higher one ' +
        'registers (schedule/booking-hooks.ts, sales/visit-hooks.ts), or the shared piece moves down ' +
        '(a lower module, cloud/src/<infrastructure>, shared/domain).',
      from: { path: '^cloud/src/modules/[^/]+$' },
      to: { path: '^cloud/src/modules/[^/]+$', circular: true },
    },
  ],
  options: {
    ...base.options,
    includeOnly: '^cloud/src/modules/[^/]+/',
    cache: { folder: 'node_modules/.cache/dependency-cruiser/modules', strategy: 'content' },
  },
};
