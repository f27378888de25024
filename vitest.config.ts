import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** The end-to-end tests .ci/run runs again with the built CLI on another Node line. */
const OTHER_NODE_FILES = ['test/cli/demo.test.ts', 'test/plan/cli.test.ts', 'test/apply/cli.test.ts'];

// .ci/run: DOCPLANE_OTHER_NODE names another Node line's binary (Node 24); OTHER_NODE_FILES run
// again in the same run, with that binary running the CLI (test/cli-node.ts).
const otherNode = process.env.DOCPLANE_OTHER_NODE;
const otherNodeProject: TestProjectInlineConfiguration[] = otherNode
  ? [{ extends: true, test: { name: 'other-node', isolate: false, include: OTHER_NODE_FILES, env: { DOCPLANE_TEST_NODE: otherNode } } }]
  : [];

export default defineConfig({
  test: {
    // A timeout only catches a hang: every test is bounded by its work (property tests by runs and
    // input size, never by time), and the longest (the convergence property, an import round trip, the
    // packed package) take well under a minute on a quiet 2-core machine. Five minutes is what a
    // machine 4× slower, or one whose cores are busy with other work, still meets
    // (test/suite-bounds.test.ts keeps per-test timeouts from lowering it).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // One worker per core (vitest's default leaves one core out: a single worker on 2 cores). Much of
    // a file's time is spent waiting on a child CLI or the emulator, so the files overlap well.
    maxWorkers: availableParallelism(),
    // test/seed.ts: DOCPLANE_FC_SEED fixes the property tests' seed.
    // Every exchange with an in-process emulator is checked against the live description
    // (docs/conformance.md, "Over the whole suite").
    setupFiles: ['test/conformance/setup.ts', 'test/seed.ts'],
    globalSetup: ['test/conformance/global.ts'],
    projects: [
      // A file's modules are shared with the other files its worker runs: importing the code and
      // building the conformance validators once per worker, not once per file. The file that mocks
      // node:fs for the modules it imports needs its own.
      { extends: true, test: { name: 'shared', isolate: false, include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: ['test/import/full-disk.test.ts'] } },
      { extends: true, test: { name: 'isolated', include: ['test/import/full-disk.test.ts'] } },
      ...otherNodeProject,
    ],
  },
});
