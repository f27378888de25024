import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every exchange with an in-process emulator is checked against the live description
    // (docs/conformance.md, "Over the whole suite").
    setupFiles: ['test/conformance/setup.ts'],
    globalSetup: ['test/conformance/global.ts'],
  },
});
