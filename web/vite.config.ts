import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
/** Packages (name patterns) that never go into the shared vendor chunk: see `codeSplitting`. */
const LAZY_LIBRARIES = [
  'jsqr',
  'qrcode',
  'dijkstrajs',
  '@mantine',
  'hls\\.js',
  'tus-js-client',
  'js-base64',
  'url-parse',
  'querystringify',
  'requires-port',
  'combine-errors',
  'custom-error-instance',
  'proper-lockfile',
  'recharts',
  'victory-vendor',
  'd3-[a-z-]+',
  'internmap',
  'decimal\\.js-light',
  'es-toolkit',
  'eventemitter3',
  '@reduxjs',
  'redux',
  'redux-thunk',
  'react-redux',
  'reselect',
  'immer',
  'react-big-calendar',
  'lodash',
  'lodash-es',
  'lodash\\.[a-z_]+',
  'dom-helpers',
  'react-overlays',
  '@popperjs',
  '@restart',
  'uncontrollable',
  'date-arithmetic',
  'memoize-one',
  'moment',
  'moment-timezone',
  'luxon',
  'globalize',
  'cldrjs',
  'dayjs',
];
/**
 * Spec §8 "outdated browser not supported": every app's index.html holds `<!--outdated-browser-->`
 * inside `#root`; this puts the notice there from one file (web/ui/outdated-browser.html). It shows
 * only when the app never replaces #root's content (8 s after the page loads).
 */
export function outdatedBrowserNotice(): Plugin {
  const notice = readFileSync(fileURLToPath(new URL('./ui/outdated-browser.html', import.meta.url)), 'utf8')
    // The file's own comment stays in the source.
    .replace(/^<!--[\s\S]*?-->\n/, '')
    .trim();
  return {
    name: 'outdated-browser-notice',
    transformIndexHtml: (html) => html.replace('<!--outdated-browser-->', notice),
  };
}

const page = (app: string) => fileURLToPath(new URL(`./${app}/index.html`, import.meta.url));

/**
 * One multi-page build for every web app. Output: dist/web/<app>/index.html (the server serves
 * these, replacing `<!--page-context-->`) and shared hashed assets in dist/web/assets/.
 * Web code imports ../../shared and ../../locales directly; fs.allow lets the dev server read them.
 */
export default defineConfig({
  root: webRoot,
  base: '/',
  plugins: [react(), outdatedBrowserNotice()],
  publicDir: false,
  server: {
    fs: { allow: [repoRoot] },
  },
  build: {
    outDir: process.env.WEB_DIST_DIR
      ? path.resolve(process.env.WEB_DIST_DIR)
      : fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Maps are written for error reporting but not referenced from the bundles (no source served).
    sourcemap: 'hidden',
    // .vite/manifest.json: which chunks a screen or a language needs; the cloud adds them to the
    // served HTML as modulepreload links (cloud/src/http/web-preloads.ts).
    manifest: true,
    target: 'es2022',
    // Mantine + React + the router are one vendor chunk of ~120 kB gzip; warn only beyond that.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      input: {
        entry: page('entry'),
        frontoffice: page('frontoffice'),
        backoffice: page('backoffice'),
        kiosk: page('kiosk'),
        donation: page('donation'),
        widget: page('widget'),
      },
      output: {
        // Libraries change less often than app code and are shared by the apps: long-cached vendor
        // chunks by family, so an app loads only the families it uses (kiosk needs no router).
        // Mantine's core (provider, styles system, hooks) is one family; its components are left
        // to the bundler, so each goes with the screens using it and lazy screens take theirs along.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 4 },
            {
              name: 'mantine',
              test: /[\\/]node_modules[\\/](@mantine[\\/](hooks|core[\\/]esm[\\/](core|index))|@floating-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|get-nonce|tslib|clsx|detect-node-es|react-number-format|react-textarea-autosize|type-fest)[\\/]/,
              priority: 3,
            },
            {
              name: 'router',
              test: /[\\/]node_modules[\\/](react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/,
              priority: 3,
            },
            // Libraries used by a few lazy screens only go with those screens instead of into every
            // app's first load: QR decoding/drawing (kiosk camera, identity QR), the HLS player and
            // the resumable upload (videos), the charts (dashboard, reports) and the calendar
            // (appointments), with the packages only they pull in.
            {
              name: 'vendor',
              test: new RegExp(`[\\\\/]node_modules[\\\\/](?!(${LAZY_LIBRARIES.join('|')})([\\\\/]|$))`),
              priority: 2,
            },
            // One chunk per language (web/lib/locale-bundles): a page loads only its own language.
            {
              debugName: 'locales',
              name: (id: string) => {
                const lang = /[\\/]locales[\\/]([^\\/]+)[\\/][^\\/]+\.json$/.exec(id)?.[1];
                return lang ? `locales-${lang}` : null;
              },
              test: /[\\/]locales[\\/][^\\/]+[\\/][^\\/]+\.json$/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
