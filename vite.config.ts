// The window's bundle. `lanes daemon` serves dist/renderer/ at `/` and the desktop app loads the
// same files from disk, so every URL in the output is relative (`base: './'`).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('./renderer', import.meta.url));

// `LANES_API=http://127.0.0.1:PORT npx vite` serves the window with hot reload and passes /api
// to a running `lanes daemon` (open http://localhost:5173/#token=… with the daemon's token).
// The API refuses foreign Origins, so the proxy drops the dev server's; Host is rewritten to the
// daemon's own by changeOrigin.
const api = process.env.LANES_API;
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
  server: {
    port: 5173,
    proxy: api
      ? {
          '/api': {
            target: api,
            changeOrigin: true,
            configure: (proxy) => proxy.on('proxyReq', (req) => req.removeHeader('origin')),
          },
        }
      : undefined,
  },
});
