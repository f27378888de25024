import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // test/seed.ts: DOCPLANE_FC_SEED fixes the property tests' seed.
    // Every exchange with an in-process emulator is checked against the live description
    // (docs/conformance.md, "Over the whole suite").
    setupFiles: ['test/conformance/setup.ts', 'test/seed.ts'],
    globalSetup: ['test/conformance/global.ts'],
    projects: [
      { extends: true, test: { name: 'shared', isolate: false, include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: ['test/import/full-disk.test.ts'] } },
      { extends: true, test: { name: 'isolated', include: ['test/import/full-disk.test.ts'] } },
    ],
  },
});
