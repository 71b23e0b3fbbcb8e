import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress';

/** The browser application: `npm run build` writes dist/web, which the server serves at `/`. */
const here = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.POLYTERM_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: here,
  plugins: [react(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // No inline scripts anywhere (the server's Content-Security-Policy forbids them).
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
  // `npm run dev`: this page with reload, the API of a server running beside it (POLYTERM_URL).
  server: {
    port: 5173,
    proxy: Object.fromEntries(['/api', '/trpc', '/graphql'].map((path) => [path, api])),
  },
});
