import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The client is served by the exchange server under /session/; in dev, Vite proxies the API and socket to it.
export default defineConfig({
  base: '/session/',
  plugins: [react()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    // src/app/content-security.ts must run before any chunk builds a zod schema (no eval probe under
    // the CSP): its own chunk, which the entry imports first, so it runs first.
    rolldownOptions: { output: { advancedChunks: { groups: [{ name: 'content-security', test: /src\/app\/content-security\.ts$/, priority: 100 }] } } },
  },
  server: {
    proxy: {
      '/session/api': 'http://127.0.0.1:8080',
      '/session/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
});
