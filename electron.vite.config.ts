import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';

// The desktop app: main (SQLite, sync, printers), preload (the typed IPC contract) and the renderer
// (the web features over IPC). Output goes to out/, which electron-builder packages.
export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(__dirname, 'desktop/main/index.ts') } },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'desktop/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'desktop/renderer'),
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve(__dirname, 'desktop/renderer/index.html') } },
    },
  },
});
