/**
 * loadConfig: from a file or a folder of YAML to the desired state of every organization it names,
 * or a ConfigError holding every problem at once, each at file:line:column. Nothing is sent anywhere.
 *
 * Stages: find the files → decode and parse each (YAML errors, binary files, empty files) → per
 * document: top-level shape and version, aliases, `${…}` interpolation, the zod schema → merge per
 * organization (fields set twice) → addresses (resources defined twice) → cross-references.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, DocplaneError, type ConfigIssue } from '../core/errors.js';
import { sha256 } from '../core/json.js';
import type { Secret } from '../core/secrets.js';
import { interpolateValue, type IncludedFile, type InterpolationContext } from './interpolate.js';
import { describeIssues } from '../source/messages.js';
import { mergeDocuments, type ValidDocument } from './merge.js';
import { Problems } from '../source/origin.js';
import { resolveOrg } from './resolve.js';
import { UNITS } from '../kinds/index.js';
import type { z } from 'zod';
import { ConfigDocument } from './schema.js';
import { isMap, isScalar, isSeq } from 'yaml';
import { decodeText, documentOf, firstAlias, forgetParse, parseFile, PIECES_FROM_CHARS, position, releaseText, valueInPieces, type DocPath, type LocateMode, type RawIssue, type SourceDocument, type SourceFile } from '../source/yaml.js';
import type { LoadedConfig, OrgConfig } from './types.js';
import { compilePolicies } from '../policy/compile.js';
import { checkResources } from '../policy/run.js';

export interface LoadOptions {
  /** A file or a folder; default `./docplane.yaml`, else `./docplane/`. */
  path?: string;
  /** Where relative paths start, and what messages show paths relative to; default process.cwd(). */
  cwd?: string;
  /** Environment for `${env:…}`; default process.env. */
  env?: Record<string, string | undefined>;
}

/** Aliases are fine in moderation; far more than a config needs is an attack ("billion laughs"). */
const MAX_ALIAS_COUNT = 1000;
/**
 * Values a document with aliases may expand to. The yaml package's alias count lets one anchored
 * list of many items be aliased hundreds of times (each alias counts once): the later stages would
 * then walk millions of values. The largest real configs hold a few hundred thousand.
 */
const MAX_EXPANDED_VALUES = 1_000_000;
/** Problems reported per document: beyond this, more lines would not help anyone (and cost time). */
const MAX_PROBLEMS_PER_DOCUMENT = 100;
/** A config file larger than this is not one a person wrote: refused before it is parsed. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const SUPPORTED_VERSION = 1;

interface Located {
  /** The config folder: the folder given, or the folder of the file given. */
  root: string;
  files: string[];
}

async function exists(p: string): Promise<'file' | 'dir' | undefined> {
  try {
    const s = await stat(p);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

async function yamlFilesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    // Dot files are editor backups and the like, not part of a config.
    .filter((e) => !e.name.startsWith('.') && /\.ya?ml$/i.test(e.name))
    .map((e) => e.name)
    .sort();
  const files: string[] = [];
  for (const name of names) if ((await exists(path.join(dir, name))) === 'file') files.push(path.join(dir, name));
  if (files.length === 0) {
    throw new DocplaneError('CONFIG_NOT_FOUND', `the config folder ${dir} holds no *.yaml or *.yml file`, {
      hint: 'Put the config in docplane.yaml, or pass -c with a file or a folder of YAML files.',
    });
  }
  return files;
}

/**
 * Where the example config is in this copy of docplane (a clone, or an installed package: the folder
 * of the package.json named docplane above this module, wherever the bundle put it).
 */
export function examplePath(from = fileURLToPath(import.meta.url)): string {
  for (let dir = path.dirname(from); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    try {
      if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'docplane') return path.join(dir, 'examples', 'docplane.yaml');
    } catch {
      // Not a manifest that names a package: look further up.
    }
  }
  return 'examples/docplane.yaml in the docplane package';
}

/**
 * An invalid config, with what could still be read of it: the warnings found beside the problems,
 * and the organizations as far as their valid parts go (for `validate`'s own warnings).
 */
export class InvalidConfig extends ConfigError {
  constructor(
    issues: ConfigIssue[],
    readonly warnings: ConfigIssue[],
    readonly orgs: OrgConfig[],
    readonly files: string[],
  ) {
    super(issues);
  }
}

async function findFiles(options: LoadOptions, cwd: string): Promise<Located> {
  if (options.path !== undefined) {
    const given = path.resolve(cwd, options.path);
    const kind = await exists(given);
    if (kind === 'dir') return { root: given, files: await yamlFilesIn(given) };
    if (kind === 'file') return { root: path.dirname(given), files: [given] };
    throw new DocplaneError('CONFIG_NOT_FOUND', `the config ${options.path} does not exist`, {
      hint: 'Check the path given with -c (a YAML file, or a folder of them).',
    });
  }
  const file = path.join(cwd, 'docplane.yaml');
  if ((await exists(file)) === 'file') return { root: cwd, files: [file] };
  const dir = path.join(cwd, 'docplane');
  if ((await exists(dir)) === 'dir') return { root: dir, files: await yamlFilesIn(dir) };
  throw new DocplaneError('CONFIG_NOT_FOUND', `no config found: neither ./docplane.yaml nor ./docplane/ exists in ${cwd}`, {
    hint: `Start from the organization as it is: docplane import --org ID --out docplane/ — or from the example, ${examplePath()} — or pass -c with a file or folder.`,
  });
}

function displayPath(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : abs;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

function describeTopLevel(node: unknown): string {
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) return typeof node.value === 'string' ? 'a string' : `the value ${String(node.value)}`;
  return 'something else';
}

/**
 * The plain value of a document: a mapping, its aliases expanded within bounds; problems go to
 * `problems`.
 */
function documentValue(source: SourceDocument, problems: Problems): Record<string, unknown> | undefined {
  const doc = documentOf(source);
  if (!isMap(doc.contents)) {
    problems.atPath(
      source,
      [],
      `the top level must be a mapping ("version: 1", "organization: …", …), not ${describeTopLevel(doc.contents)}`,
    );
    return undefined;
  }
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    const alias = firstAlias(doc);
    const offset = alias?.range?.[0] ?? doc.contents.range[0];
    const message = /excessive alias/i.test((e as Error).message)
      ? `too many aliases (more than ${MAX_ALIAS_COUNT} expansions): this looks like an alias bomb; write the values out`
      : `YAML alias problem: ${(e as Error).message}`;
    problems.issues.push({ file: source.file, ...position(source.file, offset), path: '', message });
    return undefined;
  }
  // Without a "*" in the file there is no alias to follow (and no need to look for one).
  if (source.file.text.includes('*') && firstAlias(doc) !== undefined && expandedSize(js, MAX_EXPANDED_VALUES) > MAX_EXPANDED_VALUES) {
    const offset = firstAlias(doc)?.range?.[0] ?? doc.contents.range[0];
    problems.issues.push({
      file: source.file,
      ...position(source.file, offset),
      path: '',
      message: `the aliases expand to more than ${MAX_EXPANDED_VALUES.toLocaleString('en-US')} values: this looks like an alias bomb; write the values out`,
    });
    return undefined;
  }
  return js as Record<string, unknown>;
}

/** A document's validated value, and the top-level keys left out of it because they failed their checks. */
type CheckedDocument = ValidDocument & { leftOut: string[] };

/** Top-level keys a document cannot be read without: with one of them broken, the whole document is left out. */
const ESSENTIAL_KEYS = new Set(['version', 'organization']);

/**
 * Checks one document and gives its validated value; problems go to `problems`. A top-level key whose
 * value fails the schema (or a reference to the environment or a file) is reported and left out, so
 * that the rest of the document still takes part in the later checks (duplicates, references,
 * policies): one round of errors. Returns undefined when the document cannot be used at all.
 */
function checkDocument(source: SourceDocument, top: Record<string, unknown>, ctx: InterpolationContext, problems: Problems): CheckedDocument | undefined {

  const before = problems.issues.length;
  if (!('version' in top)) {
    problems.atPath(source, ['version'], `missing "version: ${SUPPORTED_VERSION}" (the format version of the config)`, 'parent');
  } else if (top.version !== SUPPORTED_VERSION) {
    // Another version may mean another format: its other problems would only confuse.
    problems.atPath(source, ['version'], `unsupported version ${JSON.stringify(top.version)}: this docplane reads version ${SUPPORTED_VERSION}`);
    return undefined;
  }

  const interpolated = interpolateValue(top, ctx);
  for (const p of interpolated.problems) problems.atPath(source, p.path, p.message);
  // A string whose reference failed has no real value: what the schema says of it would mislead.
  const unresolved = new Set(interpolated.problems.map((p) => JSON.stringify(p.path)));
  const replaced = new Set(interpolated.replaced.map((p) => JSON.stringify(p)));
  const secret = (p: DocPath) => replaced.has(JSON.stringify(p)) || isSecretField(p);
  const input = interpolated.value as Record<string, unknown>;

  const parsed = ConfigDocument.safeParse(input);
  // Where the problems are: an entry of a top-level list (left out alone), else a whole top-level
  // key (an unknown key at the top, or a value under one that is not a list's entry).
  const failed = new Set<string>();
  const failedEntries = new Map<string, Set<number>>();
  const fail = (path: readonly PropertyKey[]) => {
    const [key, index] = [String(path[0] ?? ''), path[1]];
    if (typeof index === 'number' && Array.isArray(input[key])) {
      const set = failedEntries.get(key) ?? new Set<number>();
      failedEntries.set(key, set.add(index));
    } else failed.add(key);
  };
  for (const p of interpolated.problems) fail(p.path);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.path.length > 0) fail(issue.path);
      else if (issue.code === 'unrecognized_keys') for (const k of issue.keys) failed.add(k);
      else failed.add('');
    }
    let reported = 0;
    // Only the first problems' worth of issues is described: a message costs a did-you-mean search.
    const { head, rest } = firstIssues(parsed.error.issues, MAX_PROBLEMS_PER_DOCUMENT + 1);
    let left = rest.count;
    let firstLeft: { path: DocPath; mode?: LocateMode } | undefined;
    for (const p of describeIssues(ConfigDocument, head, input, { secret })) {
      // The version was checked above, with a clearer message.
      if (p.path.length === 1 && p.path[0] === 'version') continue;
      if (unresolved.has(JSON.stringify(p.path))) continue;
      if (reported >= MAX_PROBLEMS_PER_DOCUMENT) {
        left++;
        firstLeft ??= p;
        continue;
      }
      problems.atPath(source, p.path, p.message, p.mode);
      reported++;
    }
    firstLeft ??= rest.at;
    if (left > 0 && firstLeft) problems.atPath(source, firstLeft.path, `… and ${left} more problems from here on, not listed: fix the ones above first`, firstLeft.mode);
  }
  if (parsed.success && problems.issues.length === before) return { source, raw: input, data: parsed.data, leftOut: [] };
  if (failed.has('') || [...failed, ...failedEntries.keys()].some((k) => ESSENTIAL_KEYS.has(k))) return undefined;
  // The rest takes part in the later checks: other keys whole, and the entries of a list that passed
  // (each keeps its own place). References to a list with a left-out entry are not checked: the
  // left-out entry may be what they name.
  const kept = new Map<string, number[]>();
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (failed.has(k)) continue;
    const out = failedEntries.get(k);
    if (out === undefined || !Array.isArray(v)) {
      rest[k] = v;
      continue;
    }
    const indexes = v.map((_, i) => i).filter((i) => !out.has(i));
    kept.set(k, indexes);
    rest[k] = indexes.map((i) => v[i] as unknown);
  }
  const reparsed = ConfigDocument.safeParse(rest);
  const leftOut = [...new Set([...failed, ...failedEntries.keys()])].sort();
  return reparsed.success ? { source, raw: rest, data: reparsed.data, leftOut, ...(kept.size > 0 ? { kept } : {}) } : undefined;
}

type ZodIssue = z.core.$ZodIssue;

/**
 * The first issues, `limit` problems' worth (an unknown-keys issue makes one problem per key), and
 * how many problems the others would make, with the place of the first of them.
 */
function firstIssues(issues: readonly ZodIssue[], limit: number): { head: ZodIssue[]; rest: { count: number; at?: { path: DocPath; mode: LocateMode } } } {
  const head: ZodIssue[] = [];
  let taken = 0;
  let count = 0;
  let at: { path: DocPath; mode: LocateMode } | undefined;
  for (const issue of issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : undefined;
    const weight = keys ? keys.length : 1;
    const take = Math.max(0, Math.min(weight, limit - taken));
    if (take > 0) head.push(keys && take < weight ? ({ ...issue, keys: keys.slice(0, take) } as ZodIssue) : issue);
    taken += take;
    if (take < weight) {
      at ??= keys ? { path: [...(issue.path as (string | number)[]), keys[take]], mode: 'key' } : { path: issue.path as (string | number)[], mode: 'value' };
      count += weight - take;
    }
  }
  return { head, rest: { count, ...(at ? { at } : {}) } };
}

/**
 * How many values a later stage walks in `value`, counting a value reached through several aliases
 * each time; stops counting past `limit`.
 */
function expandedSize(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const v = stack.pop();
    count++;
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) stack.push(x);
  }
  return count;
}

function sortIssues(issues: RawIssue[], order: Map<string, number>): ConfigIssue[] {
  const seen = new Set<string>();
  return [...issues]
    .sort((a, b) => (order.get(a.file.abs) ?? 0) - (order.get(b.file.abs) ?? 0) || a.line - b.line || a.column - b.column)
    .map((i) => ({ file: i.file.display, line: i.line, column: i.column, path: i.path, message: i.message }))
    .filter((i) => {
      const id = `${i.file}:${i.line}:${i.column}:${i.path}:${i.message}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
}

/** sha256 over the relative paths and raw bytes of every file the config is made of, in path order. */
function configHash(files: readonly { rel: string; raw: Buffer }[]): string {
  const sorted = [...files].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const parts: Buffer[] = [];
  for (const f of sorted) {
    const head = Buffer.from(`${f.rel}\0${f.raw.length}\0`, 'utf8');
    parts.push(head, f.raw);
  }
  return sha256(Buffer.concat(parts));
}

/** Secrets in a stable order, without repeats of the same value (the first name wins). */
/** A value at or under a field that a kind declares secret (a certificate, a map of secrets). */
function isSecretField(p: DocPath): boolean {
  return UNITS.some((u) => u.list && p[0] === u.configKey && typeof p[2] === 'string' && (u.secretFields ?? []).includes(p[2]));
}

function uniqueSecrets(secrets: readonly Secret[]): Secret[] {
  const values = new Set<string>();
  const out: Secret[] = [];
  for (const s of secrets) {
    if (!s.value || values.has(s.value)) continue;
    values.add(s.value);
    out.push(s);
  }
  return out;
}

export async function loadConfig(options: LoadOptions = {}): Promise<LoadedConfig> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const located = await findFiles(options, cwd);
  const rootReal = await realpath(located.root);
  const problems = new Problems();
  const order = new Map(located.files.map((f, i) => [f, i]));

  const ctx: InterpolationContext = {
    env,
    root: located.root,
    rootReal,
    dir: located.root,
    files: new Map(),
    included: new Map<string, IncludedFile>(),
    secrets: new Map(),
  };

  const sources: SourceFile[] = [];
  const valid: ValidDocument[] = [];
  const leftOut = new Set<string>();
  let documents = 0;
  for (const abs of located.files) {
    const display = displayPath(abs, cwd);
    const rel = toPosix(path.relative(located.root, abs));
    // A config file that is a symlink leaving the config folder is refused, as a `${file:}` escape is.
    const real = await realpath(abs).catch(() => abs);
    const inside = path.relative(rootReal, real);
    if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) {
      const file: SourceFile = { abs, display, rel, raw: Buffer.alloc(0), text: '' };
      sources.push(file);
      problems.issues.push({ file, line: 1, column: 1, path: '', message: `the file is a symlink to ${real}, outside the config folder ${located.root}; keep config files inside it` });
      continue;
    }
    let raw: Buffer;
    try {
      raw = await readFile(abs);
    } catch (e) {
      const empty: SourceFile = { abs, display, rel, raw: Buffer.alloc(0), text: '' };
      problems.issues.push({ file: empty, line: 1, column: 1, path: '', message: `the file cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` });
      continue;
    }
    if (raw.length > MAX_FILE_BYTES) {
      const file: SourceFile = { abs, display, rel, raw, text: '' };
      sources.push(file);
      const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;
      problems.issues.push({ file, line: 1, column: 1, path: '', message: `the file is too large for a config (${mib(raw.length)}; at most ${mib(MAX_FILE_BYTES)})` });
      continue;
    }
    const decoded = decodeText(raw);
    if ('problem' in decoded) {
      const file: SourceFile = { abs, display, rel, raw, text: '' };
      sources.push(file);
      problems.issues.push({ file, line: decoded.line, column: decoded.column, path: '', message: decoded.problem });
      continue;
    }
    const file: SourceFile = { abs, display, rel, raw, text: decoded.text };
    sources.push(file);
    // A large file is read a piece at a time when it can be (its whole syntax tree is several
    // hundred megabytes at scale); else, or when a piece has any problem, it is parsed whole.
    const pieces = file.text.length >= PIECES_FROM_CHARS ? valueInPieces(file.text) : undefined;
    const parsed = pieces ? { documents: [{ file, index: 0 }], issues: [] } : parseFile(file);
    for (const issue of parsed.issues) problems.issues.push(issue);
    // Each document's value is taken, then the file's syntax tree is let go before the checks: a
    // large config's tree, its value and the schema's output are not all alive at once. A position a
    // later problem needs parses the file again.
    const values = parsed.documents.map((source) => {
      if (pieces) return { source, top: pieces };
      try {
        return { source, top: documentValue(source, problems) };
      } catch (e) {
        // Deep nesting that the YAML parser accepted may still exhaust the stack of a later stage.
        if (!(e instanceof RangeError)) throw e;
        problems.atPath(source, [], 'the document is nested too deeply to read');
        return { source, top: undefined };
      }
    });
    forgetParse(file);
    // A file read in pieces had its value taken without a parse of the whole: its text goes too.
    if (pieces) releaseText(file);
    for (const { source, top } of values) {
      documents++;
      if (top === undefined) continue;
      try {
        const ok = checkDocument(source, top, { ...ctx, dir: path.dirname(abs) }, problems);
        if (ok) {
          // Of the written value, the merge reads only which organization and safety fields were
          // written: the rest of it is let go (the schema's output holds the values).
          const written = { organization: ok.raw.organization, safety: ok.raw.safety };
          valid.push({ source: ok.source, raw: written, data: ok.data, ...(ok.kept ? { kept: ok.kept } : {}) });
          for (const k of ok.leftOut) leftOut.add(k);
        }
      } catch (e) {
        // Deep nesting that the YAML parser accepted may still exhaust the stack of a later stage.
        if (!(e instanceof RangeError)) throw e;
        problems.atPath(source, [], 'the document is nested too deeply to read');
      }
    }
  }

  const merged = mergeDocuments(valid, problems);
  // Cross-references over part of a config would report what the broken documents may define; a
  // key left out of a document (it failed its schema) is not named by the references checked.
  const crossReferences = valid.length === documents;
  const orgs: OrgConfig[] = [];
  const literalSecrets: Secret[] = [];
  const lookAlikes: RawIssue[] = [];
  for (const draft of merged.orgs) {
    const { org, secrets, warnings } = resolveOrg(draft, problems, { crossReferences, leftOut });
    orgs.push(org);
    for (const secret of secrets) literalSecrets.push(secret);
    lookAlikes.push(...warnings);
  }

  const secrets = uniqueSecrets([...ctx.secrets.values(), ...literalSecrets]);
  // Policies: a rule that does not compile is a problem at once; the rules run over a config that is whole.
  const policies = await compilePolicies(valid, problems);
  const secretFields = (key: string) => UNITS.find((u) => u.configKey === key)?.secretFields ?? [];
  // The policies run over what was read, beside the other problems: errors and warnings in one round.
  const warnings = [...lookAlikes, ...checkResources(policies, merged.orgs, { secrets, secretFields }, problems)];

  if (problems.issues.length > 0) throw new InvalidConfig(sortIssues(problems.issues, order), sortIssues(warnings, order), orgs, located.files);

  return {
    orgs,
    secrets,
    policies,
    ...(warnings.length > 0 ? { warnings: sortIssues(warnings, order) } : {}),
    hash: configHash([...sources.map((s) => ({ rel: s.rel, raw: s.raw })), ...ctx.included.values()]),
    files: located.files,
    ...(merged.apiUrl !== undefined ? { apiUrl: merged.apiUrl } : {}),
  };
}
