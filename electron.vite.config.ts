import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { rendererConfig } from './desktop/renderer/vite.config';

// The desktop app: main (station, sync, printers), preload (the typed IPC contract) and the renderer
// (the web back office over IPC). Output goes to out/, which electron-builder packages.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Node modules (better-sqlite3, serialport, zod…) stay in node_modules: native ones must be
      // rebuilt for Electron's ABI, which electron-builder does when it packages them.
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve(__dirname, 'desktop/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require only `electron`: bundle everything else into one CommonJS file.
      externalizeDeps: false,
      isolatedEntries: true,
      rollupOptions: {
        input: { index: resolve(__dirname, 'desktop/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererConfig,
});
