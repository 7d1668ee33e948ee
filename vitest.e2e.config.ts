import { defineConfig } from 'vitest/config';

// End-to-end tests: the built app and the real server, driven in Debian's Chromium.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // In-memory stores start from one migrated PGlite template instead of initdb each (server/store/pglite-template.ts).
    globalSetup: ['tests/helpers/pglite-template.global-setup.ts'],
    fileParallelism: false,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest-e2e.json' },
  },
});
