/** `--no-color` is a common flag (README): every command accepts it, those that colour nothing too. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from '../cli-run.js';

const ROOT = join(import.meta.dirname, '..', '..');
// As a process, without NO_COLOR: bin/run.js as a user on a pipe runs it.
const run = (...args: string[]) => runBuiltCli(args, { NO_COLOR: undefined }, ROOT, { spawn: true });

describe('--no-color', () => {
  it('is a flag of every command of the built CLI', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, { flags: Record<string, unknown> }> };
    const names = Object.keys(manifest.commands);
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((n) => !('no-color' in manifest.commands[n].flags))).toEqual([]);
  });

  it('is accepted by validate and schema, which colour nothing', async () => {
    const [validate, schema] = await Promise.all([run('validate', '-c', 'examples/docplane.yaml', '--no-color'), run('schema', '--no-color')]);
    expect(validate.stderr).toBe('');
    expect(validate.code).toBe(0);
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.stdout)).toHaveProperty('properties.policies');
  });
});
