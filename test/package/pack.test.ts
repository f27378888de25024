/**
 * The npm package as users get it: a clean copy of the repository (its tracked and new files, no
 * dist/) with the build the suite runs (dist/bundle, the declarations, the manifest: what `prepack`'s
 * `npm run build` makes of the same sources) is packed with `npm pack`, the tarball is installed into
 * an empty project, and the README's five-minute walk-through runs with the installed `docplane` only, far
 * from the repository: `--version`, `emulator --demo --port 0`, import, plan, an edit, plan --out,
 * apply of the saved plan, and a last plan with no changes. Every relative link of the shipped
 * markdown points to a file the tarball holds. Talks only to 127.0.0.1 (and to the npm cache or
 * registry for the package's dependencies).
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const timings: Record<string, number> = {};

function timed<T>(label: string, f: () => T): T {
  const start = Date.now();
  try {
    return f();
  } finally {
    timings[label] = Date.now() - start;
  }
}

/** Runs a command to completion; its output on failure, so that a broken step names itself. */
function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
  } catch (e) {
    const err = e as { status?: number; stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited with ${err.status}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
  }
}

/** The relative links of a markdown text, without anchors; URLs and pure anchors left out. */
export function relativeLinks(markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1].split('#')[0];
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    out.push(target);
  }
  return out;
}

let work: string;
let tarball: string;
let packed: string[];
let project: string;
let emulator: ChildProcess | undefined;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'docplane-pack-'));
  // A clean clone: what git tracks plus new, not ignored files; no dist/, no manifest.
  const clone = join(work, 'clone');
  const files = sh('git', ['ls-files', '-co', '--exclude-standard', '-z'], ROOT).split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)));
  for (const f of files) {
    mkdirSync(dirname(join(clone, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(clone, f));
  }
  expect(existsSync(join(clone, 'dist'))).toBe(false);
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  const dest = join(work, 'pack');
  mkdirSync(dest);
  // The suite's build, not a second one: `prepack` (empty dist/, then `npm run build`) is checked
  // apart, below, with a stand-in build.
  cpSync(join(ROOT, 'dist'), join(clone, 'dist'), { recursive: true });
  copyFileSync(join(ROOT, 'oclif.manifest.json'), join(clone, 'oclif.manifest.json'));
  const report = timed('npm pack', () => sh(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], clone));
  const json = JSON.parse(report.slice(report.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(dest, json[0].filename);
  packed = json[0].files.map((f) => f.path);

  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'walk-through', private: true }));
  timed('npm install of the tarball', () => sh(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], project));
});

afterAll(async () => {
  if (emulator && emulator.exitCode === null) {
    emulator.kill('SIGTERM');
    await new Promise((resolve) => emulator!.once('exit', resolve));
  }
  if (work) rmSync(work, { recursive: true, force: true });
  console.log(`pack test timings: ${Object.entries(timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join('; ')}`);
});

describe('npm pack', () => {
  it('empties dist/ and builds first (prepack): nothing left from an earlier build is packed', () => {
    // A copy whose build is a stand-in that writes one file: what is packed is what that build made.
    const copy = join(work, 'prepack');
    mkdirSync(copy);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    pkg.scripts.build = `node -e "fs.mkdirSync('dist/bundle', { recursive: true }); fs.writeFileSync('dist/bundle/fresh.js', '')"`;
    writeFileSync(join(copy, 'package.json'), JSON.stringify(pkg));
    mkdirSync(join(copy, 'dist', 'bundle'), { recursive: true });
    writeFileSync(join(copy, 'dist', 'bundle', 'stale.js'), '');
    const report = sh(NPM, ['pack', '--dry-run', '--json'], copy);
    const files = (JSON.parse(report.slice(report.indexOf('['))) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
    expect(files).toContain('dist/bundle/fresh.js');
    expect(files).not.toContain('dist/bundle/stale.js');
  });
});

describe('the npm package', () => {
  it('holds the bundled build and its declarations, the manifest, the demo world, the schema and the docs', () => {
    for (const f of ['bin/run.js', 'dist/bundle/main.js', 'dist/bundle/index.js', 'dist/index.d.ts', 'dist/bundle/commands/plan.js', 'dist/bundle/commands/emulator.js', 'oclif.manifest.json', 'examples/emulator-state.yaml', 'schemas/docplane.schema.json', 'README.md', 'docs/troubleshooting.md', 'docs/ci/github-actions.md', 'docs/ci/gitlab-ci.md', 'src/emulator/README.md']) {
      expect(packed, f).toContain(f);
    }
    expect(packed.filter((f) => f.startsWith('test/') || f.startsWith('src/') && f.endsWith('.ts'))).toEqual([]);
    // What runs is the bundle: not tsc's JavaScript beside it, not the benchmark.
    expect(packed.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/bundle/') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(packed.filter((f) => f.startsWith('dist/bench/'))).toEqual([]);
  });

  it('its library entry (`main`) loads from the installed package', async () => {
    const main = createRequire(join(project, 'package.json')).resolve('docplane');
    expect(main).toBe(join(project, 'node_modules', 'docplane', 'dist', 'bundle', 'index.js'));
    const lib = (await import(pathToFileURL(main).href)) as { DocplaneError?: unknown };
    expect(typeof lib.DocplaneError).toBe('function');
  });

  it('every relative link of its markdown points to a file it holds', () => {
    const root = join(project, 'node_modules', 'docplane');
    const broken: string[] = [];
    for (const doc of packed.filter((f) => f.endsWith('.md'))) {
      for (const link of relativeLinks(readFileSync(join(root, doc), 'utf8'))) {
        const target = posix.normalize(posix.join(posix.dirname(doc), link)).replace(/\/$/, '');
        if (!packed.some((f) => f === target || f.startsWith(`${target}/`))) broken.push(`${doc}: ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('runs the five-minute walk-through from the installed package alone', async () => {
    const bin = join(project, 'node_modules', '.bin', process.platform === 'win32' ? 'docplane.cmd' : 'docplane');
    const home = join(work, 'walk');
    mkdirSync(home);
    expect(sh(bin, ['--version'], home)).toMatch(/^docplane\/\d+\.\d+\.\d+/);

    const started = Date.now();
    emulator = spawn(bin, ['emulator', '--demo', '--port', '0'], { cwd: home, env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    emulator.stderr!.on('data', (d) => (stderr += d));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      emulator!.stdout!.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]);
      });
      emulator!.once('exit', (code) => reject(new Error(`the emulator exited with ${code} before listening: ${stderr}`)));
    });

    const env = { ...process.env, NO_COLOR: '1', DOCPLANE_API_URL: url, DOCPLANE_TOKEN: 'dev-token' };
    const run = (args: string[], expected = 0): string => {
      const r = (() => {
        try {
          return { status: 0, out: execFileSync(bin, args, { cwd: home, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }) };
        } catch (e) {
          const err = e as { status: number; stdout: string; stderr: string };
          return { status: err.status, out: `${err.stdout}\n${err.stderr}` };
        }
      })();
      if (r.status !== expected) throw new Error(`docplane ${args.join(' ')} exited with ${r.status}, expected ${expected}:\n${r.out}`);
      return r.out;
    };

    run(['import', '--org', 'org_acme', '--site', 'site_docs', '--out', 'docplane/']);
    expect(run(['plan', '-c', 'docplane/', '--detailed-exitcode'])).toContain('No changes.');
    // The walk-through's edit: a new team.
    const file = join(home, 'docplane', 'org_acme.yaml');
    const yaml = readFileSync(file, 'utf8');
    expect(yaml).toMatch(/^teams:$/m);
    writeFileSync(file, yaml.replace(/^teams:$/m, 'teams:\n  - title: Writers\n    members: [ bob@acme.com ]'));
    expect(run(['plan', '-c', 'docplane/', '--out', 'plan.json', '--detailed-exitcode'], 2)).toContain('+ teams["Writers"]');
    expect(run(['apply', 'plan.json', '-c', 'docplane/'])).toContain('Apply: 1 applied, 0 failed, 0 skipped.');
    expect(run(['plan', '-c', 'docplane/', '--detailed-exitcode'])).toContain('No changes.');
    // Planning and applying in one go (the CI path) finds nothing left either.
    expect(run(['apply', '-c', 'docplane/', '--auto-approve'], 0)).toMatch(/No changes|0 applied/);
    timings['walk-through'] = Date.now() - started;

    emulator.kill('SIGTERM');
    expect(await new Promise((resolve) => emulator!.once('exit', resolve))).toBe(0);
  });
});
