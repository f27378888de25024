/**
 * Shared by the import tests: the rich emulator world (and the same world seeded in another order),
 * running the built CLI, reading a folder back, and talking to the emulator behind docplane's back.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadEmulatorState, type EmulatorState } from '../../src/emulator/server.js';
import { runBuiltCli, type CliResult, type CliRunOptions } from '../cli-run.js';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const RICH_STATE = join(ROOT, 'test/import/rich-state.yaml');
export const RICH_SITES = ['site_docs', 'org_rich/site_help'];

export function richState(): EmulatorState {
  return loadEmulatorState(RICH_STATE);
}

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

function reverseCollections(nodes: unknown): Obj[] {
  return list(nodes)
    .map((c) => ({ ...c, ...(c.collections ? { collections: reverseCollections(c.collections) } : {}) }))
    .reverse();
}

/**
 * The same world with every list whose order the platform does not keep reversed: users,
 * organizations, members, teams and their members, collections, spaces, share links, SAML providers,
 * integrations (and their scopes), translations, email domains. Sections, section groups and site
 * spaces keep their order: that order is the site's structure, part of the state itself.
 */
export function reorderedState(state: EmulatorState): EmulatorState {
  const s = structuredClone(state) as Obj;
  s.users = list(s.users).reverse();
  s.organizations = list(s.organizations)
    .map((o) => ({
      ...o,
      emailDomains: [...((o.emailDomains as string[] | undefined) ?? [])].reverse(),
      members: list(o.members).reverse(),
      teams: list(o.teams)
        .map((t) => ({ ...t, members: [...((t.members as unknown[] | undefined) ?? [])].reverse() }))
        .reverse(),
      collections: reverseCollections(o.collections),
      spaces: list(o.spaces).reverse(),
      sites: list(o.sites)
        .map((site) => ({ ...site, shareLinks: list(site.shareLinks).reverse(), redirects: list(site.redirects).reverse() }))
        .reverse(),
      saml: list(o.saml).reverse(),
      integrations: list(o.integrations)
        .map((i) => ({ ...i, scopes: [...((i.scopes as string[] | undefined) ?? [])].reverse() }))
        .reverse(),
      translations: list(o.translations).reverse(),
    }))
    .reverse();
  return s as EmulatorState;
}

export type { CliResult };

/**
 * Builds the import and plan commands' import graphs into dist when missing or older than a source
 * (`npm test` builds everything first; this keeps the files runnable on their own).
 */
/**
 * The CLI the tests run is what `npm run build` makes (bin/run.js → dist/bundle): a missing or stale
 * bundle is an error that says so, rather than a test of old code. (`npm test` builds first.)
 */
export function ensureBuilt(): void {
  const src = join(ROOT, 'src');
  const sources = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const newest = Math.max(...sources.map((f) => statSync(join(src, f)).mtimeMs));
  const bundle = join(ROOT, 'dist/bundle/main.js');
  if (!existsSync(bundle)) throw new Error('dist/bundle is missing: run `npm run build` before the CLI tests');
  if (statSync(bundle).mtimeMs < newest) throw new Error('dist/bundle is older than src/: run `npm run build` before the CLI tests');
}

/** The built CLI in `cwd` with `env` (in this worker, or a child process: test/cli-run.ts). */
export function runCli(args: string[], env: Record<string, string | undefined>, cwd: string, options?: CliRunOptions): Promise<CliResult> {
  return runBuiltCli(args, env, cwd, options);
}

/** Every file below `dir`, by path relative to it (posix), with its bytes as text. */
export function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const abs = join(dir, f);
    if (statSync(abs).isFile()) out[relative(dir, abs).split('\\').join('/')] = readFileSync(abs, 'utf8');
  }
  return out;
}

/** A request straight to the emulator: a change made behind docplane's back. */
export async function api(baseUrl: string, method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: 'Bearer dev-token', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}
