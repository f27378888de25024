/**
 * The README is the user's path (issue #43): short, its install route the one that works before a
 * release (the one scripts/newcomer.sh runs), and the maintainers' material in docs/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const newcomer = readFileSync(join(ROOT, 'scripts/newcomer.sh'), 'utf8');
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('README.md', () => {
  it('is about 200 lines, for users', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(205);
    for (const maintainers of ['### Dependencies', 'p-limit', 'json-diff-ts', 'npm run typecheck', 'jitter']) expect(readme).not.toContain(maintainers);
  });

  it('installs from a clone by the route scripts/newcomer.sh runs, with the tarball of this version', () => {
    expect(readme).toContain('npm pack');
    expect(readme).toContain(`npm i -g ./docplane-${version}.tgz`);
    expect(readme).toContain(`npx --package=./docplane-${version}.tgz docplane`);
    expect(newcomer).toContain('npm pack --silent');
    expect(newcomer).toContain('npm i -g --no-audit --no-fund --loglevel=error "./$tarball"');
    expect(newcomer).toContain('npx --yes --package=');
    expect(readme).toMatch(/not on the npm registry yet/);
  });

  it('says how many sites the demo world has', () => {
    const state = readFileSync(join(ROOT, 'examples/emulator-state.yaml'), 'utf8');
    const sites = [...state.matchAll(/^ {6}- id: (site_\w+)/gm)].length;
    expect(sites).toBe(3);
    expect(readme).toMatch(/three\s+sites/);
  });
});
