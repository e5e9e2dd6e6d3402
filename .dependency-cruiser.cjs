/**
 * The boundaries `npm run lint` enforces between processes and between the cloud's modules
 * (dependency-cruiser; the ESLint config keeps the rules inside web/ and the Node/DOM bans of shared/).
 * Tests are not cruised: a test may reach inside a module, and the cloud's sync tests drive the
 * desktop's engine against a real cloud. Cycles between cloud modules: .dependency-cruiser-modules.cjs.
 */
const MODULE = '^cloud/src/modules/[^/]+/';
const MODULE_INDEX = '^cloud/src/modules/[^/]+/index\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'module-through-index',
      severity: 'error',
      comment:
        'A cloud module is imported only through its index.ts (its public surface). Run ' +
        '`node tools/module-imports.mjs`, which rewrites the import and adds the export to the index.',
      from: { path: '^cloud/src/modules/([^/]+)/' },
      to: { path: MODULE, pathNot: ['^cloud/src/modules/$1/', MODULE_INDEX] },
    },
    {
      name: 'cloud-through-module-index',
      severity: 'error',
      comment:
        'The rest of the cloud (app, http, jobs, sync, db) uses a module through its index.ts too. ' +
        'Run `node tools/module-imports.mjs`.',
      from: { path: '^cloud/src/', pathNot: '^cloud/src/modules/' },
      to: { path: MODULE, pathNot: MODULE_INDEX },
    },
    {
      name: 'shared-is-imported-never-imports',
      severity: 'error',
      comment: 'shared/ runs in every process: it imports nothing from cloud/, web/ or desktop/.',
      from: { path: '^shared/' },
      to: { path: '^(cloud|web|desktop)/' },
    },
    {
      name: 'cloud-is-its-own-process',
      severity: 'error',
      comment: 'The cloud never imports the web apps or the desktop.',
      from: { path: '^cloud/' },
      to: { path: '^(web|desktop)/' },
    },
    {
      name: 'web-never-imports-cloud-or-desktop',
      severity: 'error',
      comment: 'The web apps talk to the cloud over HTTP (shared/contracts), never by import.',
      from: { path: '^web/' },
      to: { path: '^(cloud|desktop)/' },
    },
    {
      name: 'desktop-never-imports-cloud',
      severity: 'error',
      comment:
        'The desktop talks to the cloud over HTTP. desktop/host/test-cloud.ts is the e2e rig that ' +
        'starts a cloud next to the host, the one exception.',
      from: { path: '^desktop/', pathNot: '^desktop/host/test-cloud\\.ts$' },
      to: { path: '^cloud/' },
    },
    {
      name: 'renderer-is-a-browser',
      severity: 'error',
      comment: 'The renderer reaches the main process over IPC (shared/contracts/ipc), never by import.',
      from: { path: '^desktop/renderer/' },
      // preload/api.ts is the IPC contract's plain builder, shared by the preload and the HTTP bridge.
      to: { path: ['^desktop/(main|host)/', '^desktop/preload/index\\.ts$'] },
    },
    {
      name: 'main-never-imports-renderer',
      severity: 'error',
      comment:
        'The main process and the preload never import the renderer or the web apps; the ' +
        "renderer's content security policy (a string main sends as a header) is the one exception.",
      from: { path: '^desktop/(main|preload)/' },
      to: { path: '^(desktop/renderer|web)/', pathNot: '^desktop/renderer/csp\\.ts$' },
    },
    {
      name: 'frontoffice-never-imports-backoffice',
      severity: 'error',
      comment:
        'Only the back office imports web/backoffice: what both show lives in web/features/<area> ' +
        '(also an ESLint rule).',
      from: { path: '^web/', pathNot: '^web/backoffice/' },
      to: { path: '^web/backoffice/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: [
        '\\.test\\.tsx?$',
        '\\.test-support\\.tsx?$',
        '/testing/',
        '^tests/',
        // test support that imports vitest, named like sources
        '^cloud/src/modules/sales/sales-support\\.ts$',
        '^cloud/src/modules/bookings/bookings-fixtures\\.ts$',
        '-fixtures\\.ts$',
      ],
    },
    includeOnly: '^(cloud|web|desktop|shared)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
    cache: { folder: 'node_modules/.cache/dependency-cruiser/boundaries', strategy: 'content' },
  },
};
