/** `--no-color` is a common flag (README): every command accepts it, those that colour nothing too. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const run = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin/run.js'), ...args], { cwd: ROOT, encoding: 'utf8' });

describe('--no-color', () => {
  it('is a flag of every command of the built CLI', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, { flags: Record<string, unknown> }> };
    const names = Object.keys(manifest.commands);
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((n) => !('no-color' in manifest.commands[n].flags))).toEqual([]);
  });

  it('is accepted by validate and schema, which colour nothing', () => {
    const validate = run('validate', '-c', 'examples/docplane.yaml', '--no-color');
    expect(validate.stderr).toBe('');
    expect(validate.status).toBe(0);
    const schema = run('schema', '--no-color');
    expect(schema.status).toBe(0);
    expect(JSON.parse(schema.stdout)).toHaveProperty('properties.policies');
  });
});
