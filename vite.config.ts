// The window's bundle. `lanes daemon` serves dist/renderer/ at `/` and the desktop app loads the
// same files from disk, so every URL in the output is relative (`base: './'`).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('./renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/renderer', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    // The shell's CSP allows scripts from 'self' only: keep everything in files, never inline.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: true,
    target: 'es2022',
  },
  server: { port: 5173, strictPort: false },
});
