import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { UserConfig } from 'vite';

const rendererRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Where the renderer is built: out/renderer (packaged by electron-builder) unless DESKTOP_RENDERER_DIR says. */
export const RENDERER_OUT_DIR = process.env.DESKTOP_RENDERER_DIR
  ? path.resolve(process.env.DESKTOP_RENDERER_DIR)
  : path.join(repoRoot, 'out', 'renderer');

/**
 * The renderer's Vite config, shared by electron.vite.config.ts (the app) and desktop/host (which
 * builds the same bundle for Chromium). `base: './'` because Electron loads it from file://.
 */
export const rendererConfig = {
  root: rendererRoot,
  base: './',
  plugins: [react()],
  publicDir: false as const,
  server: { fs: { allow: [repoRoot] } },
  build: {
    outDir: RENDERER_OUT_DIR,
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: 'hidden' as const,
    chunkSizeWarningLimit: 2000,
    rollupOptions: { input: { index: path.join(rendererRoot, 'index.html') } },
  },
} satisfies UserConfig;

export default rendererConfig;
