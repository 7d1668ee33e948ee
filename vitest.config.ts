import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // In-memory stores start from one migrated PGlite template instead of initdb each (server/store/pglite-template.ts).
    globalSetup: ['tests/helpers/pglite-template.global-setup.ts'],
    // The JSON report feeds .ci/run's summary line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
