import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryScenario } from './workflows.js';

const root = new URL('../..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'docplane-memory-scenario-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the memory scenario (the built CLI)', () => {
  // Each command runs with the flags it takes: a flag it lacks (validate's --concurrency) would make
  // its row an exit 1 after a few milliseconds, and its peak memory would say nothing.
  it('runs apply, plan, import (twice: the second over the first, --force) and validate to a successful exit', async () => {
    const rows = await memoryScenario(
      { root, work, latencyMs: 0, concurrency: 4, startupMs: 0, toolVersion: 'test', log: () => {} },
      0.1,
      1,
    );
    expect(rows.map((r) => r.name.replace(/, scale .*/, ''))).toEqual(['apply from empty', 'plan, no changes', 'import', 'import --force over it', 'validate']);
    for (const row of rows) expect({ name: row.name, ...row.check }).toMatchObject({ name: row.name, ok: true });
  });
});
