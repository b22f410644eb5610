/**
 * electron-vite: builds the main process (`out/main/index.js`, engine bundled, production deps
 * external), the sandboxed preload (`out/preload/index.js`, fully bundled CJS — a sandboxed
 * preload cannot require packages) and the renderer (`renderer/` is the vite root →
 * `out/renderer`). The loopback host serves the same `out/renderer`.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        input: {
          index: resolve(__dirname, 'electron/main/main.ts'),
          // The store scan reads headers on a second core from this worker (found next to the bundle).
          'scan-worker': resolve(__dirname, 'electron/engine/store/scan-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(__dirname, 'electron/main/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].js' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      emptyOutDir: true,
      rolldownOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
