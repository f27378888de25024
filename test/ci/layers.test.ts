/**
 * The layer rules of .dependency-cruiser.mjs hold for src/ (`npm run lint:deps`), and each rule fails
 * on a deliberate violation: small modules written to a temporary folder shaped like src/, checked
 * by dependency-cruiser's own command line with the repository's configuration.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** The violations dependency-cruiser reports for `files` (path → source) under a fresh folder. */
async function violations(files: Record<string, string>): Promise<Array<{ rule: string; from: string; to: string }>> {
  const dir = mkdtempSync(join(tmpdir(), 'docplane-layers-'));
  made.push(dir);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  let stdout: string;
  try {
    ({ stdout } = await run(process.execPath, [CLI, 'src', '--config', CONFIG, '--output-type', 'json'], { cwd: dir, maxBuffer: 1 << 24 }));
  } catch (error) {
    // A violation makes the command exit non-zero; its report is still on stdout.
    stdout = (error as { stdout: string }).stdout;
  }
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const exporting = "export const x = 1;\n";

describe('the layer rules (.dependency-cruiser.mjs)', () => {
  it('let a unit import the shared layer, common, the contract, model and core', async () => {
    expect(
      await violations({
        'src/core/json.ts': exporting,
        'src/model/step.ts': "import { x } from '../core/json.js';\nexport const y = x;\n",
        'src/kinds/kind.ts': "import { y } from '../model/step.js';\nexport const k = y;\n",
        'src/kinds/common/match.ts': "import { k } from '../kind.js';\nexport const m = k;\n",
        'src/kinds/shared/members.ts': "import { m } from '../common/match.js';\nexport const r = m;\n",
        'src/kinds/teams/teams.ts': "import { r } from '../shared/members.js';\nimport { k } from '../kind.js';\nexport const t = r + k;\n",
        'src/kinds/index.ts': "import { t } from './teams/teams.js';\nexport const units = [t];\n",
        'src/plan/run.ts': "import { units } from '../kinds/index.js';\nexport const p = units;\n",
      }),
    ).toEqual([]);
  });

  it('fail each deliberate violation with the rule it breaks', async () => {
    const found = await violations({
      'src/core/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'src/core/b.ts': "import type { a } from './a.js';\nexport const b = 1 as typeof a;\n",
      'src/core/up.ts': "import { y } from '../model/step.js';\nexport const u = y;\n",
      'src/model/step.ts': "import { p } from '../plan/run.js';\nexport const y = p;\n",
      'src/plan/run.ts': exporting.replace('x', 'p'),
      'src/kinds/members/members.ts': exporting,
      'src/kinds/teams/teams.ts': "import { x } from '../members/members.js';\nexport const t = x;\n",
      'src/kinds/common/merge-rules.ts': "import { t } from '../teams/teams.js';\nexport const m = t;\n",
      'src/kinds/shared/access.ts': "import { t } from '../teams/teams.js';\nexport const s = t;\n",
      'src/emulator/server.ts': "import { t } from '../kinds/teams/teams.js';\nexport const e = t;\n",
      'src/commands/plan.ts': exporting,
      'src/commands/apply.ts': "import { x } from './plan.js';\nexport const c = x;\n",
      'src/config/validate.ts': "import { t } from '../kinds/teams/teams.js';\nexport const v = t;\n",
    });
    const rules = (rule: string) => found.filter((v) => v.rule === rule).map((v) => `${v.from} → ${v.to}`);
    expect(rules('no-circular')).toEqual(expect.arrayContaining(['src/core/a.ts → src/core/b.ts']));
    expect(rules('core-imports-nothing-above')).toEqual(['src/core/up.ts → src/model/step.ts']);
    expect(rules('model-imports-nothing-above')).toEqual(['src/model/step.ts → src/plan/run.ts']);
    expect(rules('unit-imports-allowed-layers')).toEqual(['src/kinds/teams/teams.ts → src/kinds/members/members.ts']);
    expect(rules('kinds-common-below-shared')).toEqual(['src/kinds/common/merge-rules.ts → src/kinds/teams/teams.ts']);
    expect(rules('kinds-shared-below-units')).toEqual(['src/kinds/shared/access.ts → src/kinds/teams/teams.ts']);
    expect(rules('emulator-knows-no-kinds')).toEqual(['src/emulator/server.ts → src/kinds/teams/teams.ts']);
    expect(rules('commands-do-not-import-commands')).toEqual(['src/commands/apply.ts → src/commands/plan.ts']);
    expect(rules('kinds-through-the-registry')).toEqual(expect.arrayContaining(['src/config/validate.ts → src/kinds/teams/teams.ts']));
  });
});
