/**
 * The config as `plan --base BASE` names it: BASE is a path (a file or a folder, loaded as `-c`
 * loads one), or else a git revision of the repository that holds the config (`origin/main`): the
 * config's files at that revision, and the files they bring in with `${file:…}`, are written to a
 * scratch folder with the same layout and loaded from there, with the environment of this run.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../config/load.js';
import type { LoadedConfig } from '../config/types.js';
import { ConfigError, DocplaneError } from '../core/errors.js';

const run = promisify(execFile);

export interface LoadBaseOptions {
  /** `--base`: a path, or a git revision. */
  base: string;
  /** `-c`: the config now (a file or a folder); default `./docplane.yaml`, else `./docplane/`. */
  configPath?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/**
 * The config at BASE (with the commit a revision names, so that a saved plan records a base that does
 * not move), or `missing` when the revision does not have it (a pull request that adds the config).
 */
export type BaseConfig = { config: LoadedConfig; commit?: string } | { missing: string; commit?: string };

/** A config's files (or revision's blobs) larger than this together are not a config: refused. */
const MAX_BYTES = 64 * 1024 * 1024;
/** `${file:PATH}` in a config's text (interpolate.ts reads the same references). */
const INCLUDE = /\$\{file:([^}]+)\}/g;

async function kindOf(p: string): Promise<'file' | 'dir' | undefined> {
  try {
    const s = await stat(p);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

function baseError(base: string, why: string, hint: string, cause?: unknown): DocplaneError {
  return new DocplaneError('BASE_UNREADABLE', `--base ${base}: ${why}`, { hint, ...(cause ? { cause } : {}) });
}

/** Runs git in `cwd`; its output as bytes, or the first line it printed on failure. */
async function git(base: string, cwd: string, args: string[]): Promise<{ ok: true; out: Buffer } | { ok: false; line: string }> {
  try {
    const { stdout } = await run('git', args, { cwd, encoding: 'buffer', maxBuffer: MAX_BYTES, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
    return { ok: true, out: stdout };
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: Buffer };
    if (e.code === 'ENOENT') throw baseError(base, 'no such path, and git is not installed to read it as a revision', 'Pass the base config as a path (a file or a folder), or install git.', err);
    const line = (e.stderr?.toString('utf8') ?? '').split('\n').find((l) => l.trim() !== '') ?? e.message;
    return { ok: false, line: line.trim() };
  }
}

/** Files under `rel` (a folder, relative to the repository's top) at `rev`, relative to the top. */
async function filesAt(base: string, top: string, rev: string, rel: string): Promise<string[]> {
  const listed = await git(base, top, ['ls-tree', '-r', '-z', '--full-tree', '--name-only', rev, '--', rel === '' ? '.' : rel]);
  if (!listed.ok) throw baseError(base, `cannot list ${rel || 'the repository'} at that revision: ${listed.line}`, 'Check the revision (fetch it first in a shallow clone: git fetch origin main).');
  return listed.out.toString('utf8').split('\0').filter((f) => f !== '');
}

/** The config path as `-c` (or the default) names it, absolute, and whether it is a folder. */
async function configLocation(options: LoadBaseOptions, cwd: string): Promise<{ abs: string; dir: boolean }> {
  if (options.configPath !== undefined) {
    const abs = path.resolve(cwd, options.configPath);
    return { abs, dir: (await kindOf(abs)) === 'dir' };
  }
  const file = path.join(cwd, 'docplane.yaml');
  if ((await kindOf(file)) === 'file') return { abs: file, dir: false };
  return { abs: path.join(cwd, 'docplane'), dir: true };
}

/** Config issues of the files read at a revision, named as git names them (`origin/main:docplane.yaml`). */
function atRevision(err: unknown, rev: string): unknown {
  if (!(err instanceof ConfigError)) return err;
  return new ConfigError(err.issues.map((i) => ({ ...i, file: `${rev}:${i.file}` })));
}

async function loadAtRevision(options: LoadBaseOptions, cwd: string): Promise<BaseConfig> {
  const rev = options.base;
  const where = await configLocation(options, cwd);
  const folder = where.dir ? where.abs : path.dirname(where.abs);
  if ((await kindOf(folder)) !== 'dir') throw baseError(rev, `no such path, and the config's folder ${folder} does not exist to find a git repository`, 'Pass the base config as a path, or run in the repository that holds the config.');
  const topAnswer = await git(rev, folder, ['rev-parse', '--show-toplevel']);
  if (!topAnswer.ok) throw baseError(rev, `no such path, and ${folder} is not in a git repository (${topAnswer.line})`, 'Pass the base config as a path (a file or a folder), or a revision of the repository that holds the config.');
  const top = await realpath(topAnswer.out.toString('utf8').trim());
  const commit = await git(rev, top, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  if (!commit.ok) throw baseError(rev, `no such path, and no such revision in the repository at ${top}`, 'Name a branch, tag or commit the repository has (in CI, fetch the base branch first: git fetch origin main), or pass a path.');
  const sha = commit.out.toString('utf8').trim();

  const real = path.join(await realpath(folder), where.dir ? '' : path.basename(where.abs));
  const rel = path.relative(top, real).split(path.sep).join('/');
  if (rel.startsWith('..')) throw baseError(rev, `the config ${where.abs} is not inside the repository at ${top}`, 'Pass the base config as a path.');
  const relFolder = where.dir ? rel : path.posix.dirname(rel) === '.' ? '' : path.posix.dirname(rel);
  const listed = await filesAt(rev, top, sha, relFolder);
  const inFolder = (f: string) => (relFolder === '' ? !f.includes('/') : f.startsWith(`${relFolder}/`) && !f.slice(relFolder.length + 1).includes('/'));
  const configFiles = where.dir ? listed.filter((f) => inFolder(f) && /\.ya?ml$/i.test(f) && !path.posix.basename(f).startsWith('.')) : listed.filter((f) => f === rel);
  if (configFiles.length === 0) return { missing: where.dir ? `${rel}/` : rel, commit: sha };

  const scratch = await mkdtemp(path.join(tmpdir(), 'docplane-base-'));
  try {
    const known = new Set(listed);
    const written = new Set<string>();
    let bytes = 0;
    const put = async (file: string): Promise<string | undefined> => {
      if (written.has(file) || !known.has(file)) return undefined;
      written.add(file);
      const blob = await git(rev, top, ['show', `${sha}:${file}`]);
      if (!blob.ok) throw baseError(rev, `cannot read ${file} at that revision: ${blob.line}`, 'Check the revision, or pass the base config as a path.');
      bytes += blob.out.length;
      if (bytes > MAX_BYTES) throw baseError(rev, `the config's files at that revision are larger than ${MAX_BYTES / 1024 / 1024} MiB together`, 'Pass the base config as a path.');
      const target = path.join(scratch, ...file.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, blob.out);
      return blob.out.toString('utf8');
    };
    for (const file of configFiles) {
      const text = await put(file);
      // The files it brings in, relative to it (loadConfig refuses any outside the config's folder).
      for (const m of text?.matchAll(INCLUDE) ?? []) {
        const included = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1].trim()));
        await put(included);
      }
    }
    // Paths in messages as in the repository, named at the revision (`origin/main:docplane/teams.yaml`).
    const at = path.join(scratch, ...(where.dir ? rel.split('/').filter((s) => s !== '') : rel.split('/')));
    if (where.dir) await mkdir(at, { recursive: true });
    try {
      return { config: await loadConfig({ path: at, cwd: scratch, env: options.env }), commit: sha };
    } catch (err) {
      throw atRevision(err, rev);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The config at BASE: loaded from the path, or from the revision of the config's repository. */
export async function loadBaseConfig(options: LoadBaseOptions): Promise<BaseConfig> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  if ((await kindOf(path.resolve(cwd, options.base))) !== undefined) return { config: await loadConfig({ path: options.base, cwd, env: options.env }) };
  return loadAtRevision(options, cwd);
}
