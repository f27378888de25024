/**
 * `docplane import` without the flags: read each organization, convert it to a config document, and
 * write the layout (or return the YAML stream for `--out -`). The command only renders the result.
 *
 * Layout of DIR: `<org id>.yaml` per organization, `certs/` (certificates) and `integrations/`
 * (stubs of integration scripts) for the files the configs reference, and `docplane.schema.json`,
 * which the first line of each YAML file points to.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ApiClient } from '../api/types.js';
import { configJsonSchema } from '../config/json-schema.js';
import { ConfigDocument } from '../config/schema.js';
import { writeFileAtomic } from '../core/atomic-file.js';
import { DocplaneError } from '../core/errors.js';
import { convertOrg, fileNamer, type ImportedFile, type OrgImport } from './convert.js';
import { parseAllDocuments } from 'yaml';
import { ownCopy, valueInPieces } from '../source/yaml.js';
import { UNITS } from '../kinds/index.js';
import { readOrgState, type RemoteOrgState } from './read.js';
import { configYaml, SCHEMA_FILE } from './yaml.js';

export interface ImportOptions {
  /** Organization ids (repeats and order do not matter: output is in id order). */
  orgs: readonly string[];
  /** Site ids, each `SITE` (looked for in every organization) or `ORG/SITE`. */
  sites?: readonly string[];
  /** A folder, or `-` for the YAML on stdout. */
  out: string;
  /** Write into a folder that is not empty (replacing the files import writes, leaving the rest). */
  force?: boolean;
  /** Where a relative `out` starts; default process.cwd(). */
  cwd?: string;
  /** Makes the client (the command builds it from its flags); closed when the import is done. */
  connect(): Promise<ApiClient>;
}

export interface ImportResult {
  orgs: OrgImport[];
  /** The YAML of each organization, in id order. */
  documents: Array<{ org: string; file: string; yaml: string }>;
  /** For `--out -`: the YAML documents of every organization, as one stream. */
  stream?: string;
  /** The folder written (absolute), unless `--out -`. */
  dir?: string;
  /** Files written, relative to the folder, in order. */
  written: string[];
  /** Referenced files not written: `--out -`, or an integration script that already held a script. */
  notWritten: Array<{ file: string; reason: string }>;
  /** What the user must fill in, one line each. */
  todo: string[];
  /** What the config could not say, and problems of the written documents. */
  warnings: string[];
  /** `--force` over an earlier config: the user's settings that the API does not know, written back. */
  kept: Array<{ org: string; file: string; keys: string[] }>;
}

/** Top-level entries that name the document rather than hold what the user wrote in it. */
const DOCUMENT_KEYS = new Set(['version', 'organization']);

/**
 * The values of the YAML documents of `text`, with the top-level entries `wanted` (others may be left
 * out), and whether it is valid YAML (a document with errors still has the value yaml makes of it).
 * A file of one document is read a piece at a time, as the config loader reads a large one, and only
 * the wanted entries are parsed: an earlier import at scale is megabytes of kinds that this import
 * writes anew, whose syntax tree would be several hundred megabytes.
 */
function documentValues(text: string, wanted: (key: string) => boolean): { values: unknown[]; valid: boolean } {
  const pieces = valueInPieces(text, wanted);
  if (pieces) return { values: [pieces], valid: true };
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return { values: [], valid: false };
  return { values: docs.map((d) => d.toJS() as unknown), valid: docs.every((d) => d.errors.length === 0) };
}

/** The top-level entries the import writes itself, one per unit: never read from an earlier file up front. */
const UNIT_KEYS = new Set(UNITS.map((u) => u.configKey));

/** What the import needs of a YAML file already in the folder, read once, before any request. */
interface EarlierFile {
  /** The organizations its documents define (even when it has errors). */
  orgs: string[];
  /** Why the user's entries cannot be taken from it (they are then dropped, and the import says so). */
  problem?: string;
  /** Its top-level keys. */
  keys: Set<string>;
  /** Per organization, the entries of its document that no unit writes (prune, safety, protect, policies, …). */
  settings: Map<string, Record<string, unknown>>;
}

/**
 * An existing config file of the folder: the organizations it defines and, for each, the entries the
 * import keeps. Read before the requests, while the process holds little: the entries every unit
 * writes (the bulk of an earlier import) are not parsed.
 */
function readEarlier(file: string): EarlierFile {
  const keys = new Set<string>();
  const text = readText(file);
  if (typeof text !== 'string') return { orgs: [], problem: text.problem, keys, settings: new Map() };
  const docs = documentValues(text, (key) => {
    // A copy: the key is a slice of the file's text, which it would keep alive through the import.
    keys.add(ownCopy(key));
    return DOCUMENT_KEYS.has(key) || !UNIT_KEYS.has(key);
  });
  const orgs: string[] = [];
  const settings = new Map<string, Record<string, unknown>>();
  for (const [id, record] of documentsByOrg(docs.values)) {
    orgs.push(id);
    const values = settings.get(id) ?? {};
    for (const [k, v] of Object.entries(record)) {
      keys.add(ownCopy(k));
      if (!DOCUMENT_KEYS.has(k) && !UNIT_KEYS.has(k) && v !== undefined) values[k] = v;
    }
    settings.set(id, values);
  }
  return { orgs, ...(docs.valid ? {} : { problem: 'is not valid YAML' }), keys, settings };
}

/** A file's text, or why it cannot be read. */
function readText(file: string): string | { problem: string } {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    return { problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})` };
  }
}

/** The documents among `values` that define an organization, with its id. */
function documentsByOrg(values: readonly unknown[]): Array<[string, Record<string, unknown>]> {
  return values.flatMap((data): Array<[string, Record<string, unknown>]> => {
    if (!data || typeof data !== 'object') return [];
    const record = data as Record<string, unknown>;
    const id = (record.organization as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' ? [[id, record]] : [];
  });
}

/**
 * The entries of `org`'s document in its earlier file that the import keeps: every entry it does not
 * write. Those no unit writes were read up front; a unit's entry that this import leaves out (it
 * found nothing of the kind to write) is read from the file now, which is rare.
 */
function keptEntries(file: string, earlier: EarlierFile, org: string, written: Readonly<Record<string, unknown>>): { values: Record<string, unknown> } | { problem: string } {
  if (earlier.problem !== undefined) return { problem: earlier.problem };
  const values = { ...(earlier.settings.get(org) ?? {}) };
  const late = [...earlier.keys].filter((k) => UNIT_KEYS.has(k) && !(k in written));
  if (late.length === 0) return { values };
  const text = readText(file);
  if (typeof text !== 'string') return text;
  const docs = documentValues(text, (key) => DOCUMENT_KEYS.has(key) || late.includes(key));
  if (!docs.valid) return { problem: 'is not valid YAML' };
  for (const [id, record] of documentsByOrg(docs.values)) {
    if (id !== org) continue;
    for (const k of late) if (record[k] !== undefined) values[k] = record[k];
  }
  return { values };
}

/**
 * Reads the YAML files already in the folder, and refuses to write an organization where another
 * file already defines it: the folder is one config, and the organization would be defined twice
 * (every resource a duplicate). Returns each organization's own earlier file, by file name.
 */
function readFolder(dir: string, shown: string, orgs: readonly string[]): Map<string, EarlierFile> {
  const own = new Map<string, EarlierFile>();
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return own;
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.') || !/\.ya?ml$/i.test(name)) continue;
    const abs = path.join(dir, name);
    if (!statSync(abs).isFile()) continue;
    const earlier = readEarlier(abs);
    if (orgs.some((org) => orgFileName(org) === name)) own.set(name, earlier);
    for (const org of earlier.orgs) {
      if (!orgs.includes(org) || orgFileName(org) === name) continue;
      throw new DocplaneError('IMPORT_ORG_DEFINED_ELSEWHERE', `${path.join(shown, name)} already defines organization ${org}: importing it into ${shown} would define it twice`, {
        hint: `Import into another folder and merge by hand, or rename ${name} to ${orgFileName(org)} so that --force replaces it (keeping its prune, safety, protect and policies).`,
      });
    }
  }
  return own;
}

/** `<org id>.yaml`, with any character unfit for a file name replaced. */
export function orgFileName(org: string): string {
  const safe = org.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return `${safe === '' ? '_' : safe}.yaml`;
}

interface SiteRequest {
  org?: string;
  site: string;
  given: string;
}

function parseSites(sites: readonly string[], orgs: readonly string[]): SiteRequest[] {
  return sites.map((given) => {
    const slash = given.indexOf('/');
    if (slash < 0) return { site: given, given };
    const org = given.slice(0, slash);
    const site = given.slice(slash + 1);
    if (org === '' || site === '' || site.includes('/')) {
      throw new DocplaneError('IMPORT_BAD_SITE', `--site ${given} is neither SITE nor ORG/SITE`, { hint: 'Pass a site id, or ORG/SITE to name its organization.' });
    }
    if (!orgs.includes(org)) {
      throw new DocplaneError('IMPORT_BAD_SITE', `--site ${given} names organization ${org}, which no --org gives`, { hint: `Add --org ${org}, or leave the organization out of --site.` });
    }
    return { org, site, given };
  });
}

/** Refuses a folder that holds anything unless `force` (checked before any request; made only when writing). */
function checkFolder(dir: string, shown: string, force: boolean): void {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) {
      throw new DocplaneError('IMPORT_OUT_NOT_FOLDER', `--out ${shown} is a file, not a folder`, { hint: 'Pass a folder (made when missing), or --out - for stdout.' });
    }
    const entries = readdirSync(dir);
    if (entries.length > 0 && !force) {
      throw new DocplaneError('IMPORT_OUT_NOT_EMPTY', `the folder ${shown} is not empty (${entries.length === 1 ? '1 entry' : `${entries.length} entries`})`, {
        hint: 'Pass another --out folder, or --force to replace the files import writes there (other files are left alone).',
      });
    }
  }
}

/**
 * Each organization read and converted to its config document. The answers read are let go when
 * this returns: the YAML is written from the documents, not from what the API answered.
 */
async function readAndConvert(options: ImportOptions, orgs: readonly string[], siteRequests: readonly SiteRequest[]): Promise<OrgImport[]> {
  const client = await options.connect();
  let states: RemoteOrgState[];
  try {
    states = await Promise.all(
      orgs.map((org) => {
        const ids = [...new Set(siteRequests.filter((r) => r.org === undefined || r.org === org).map((r) => r.site))];
        return readOrgState(client, org, ids);
      }),
    );
  } finally {
    await client.close();
  }

  // A site must be found where it was looked for: in its organization, or in at least one.
  const missing = siteRequests.filter((r) =>
    r.org !== undefined
      ? states.find((s) => s.org === r.org)?.notFound.includes(r.site)
      : states.every((s) => s.notFound.includes(r.site)),
  );
  if (missing.length > 0) {
    const where = orgs.length === 1 ? `organization ${orgs[0]}` : `organizations ${orgs.join(', ')}`;
    throw new DocplaneError('SITE_NOT_FOUND', `no site ${missing.map((r) => r.given).join(', ')} in ${where}`, {
      hint: 'Check the --site ids, or leave --site out to import every site.',
    });
  }

  const files = fileNamer();
  return states.map((s) => convertOrg(s, files));
}

/** Problems of a written document against the config schema (values the platform allows and the format does not). */
function schemaWarnings(org: string, document: unknown): string[] {
  const parsed = ConfigDocument.safeParse(document);
  if (parsed.success) return [];
  return parsed.error.issues.map(
    (i) => `${org}: ${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '')}: ${i.message} (the written config will not validate until this is fixed by hand)`,
  );
}

export async function runImport(options: ImportOptions): Promise<ImportResult> {
  const orgs = [...new Set(options.orgs)].sort();
  if (orgs.length === 0) throw new DocplaneError('IMPORT_NO_ORG', 'no organization given', { hint: 'Pass --org ID (repeatable).' });
  const siteRequests = parseSites(options.sites ?? [], orgs);
  const toStdout = options.out === '-';
  const cwd = options.cwd ?? process.cwd();
  const dir = toStdout ? undefined : path.resolve(cwd, options.out);
  let earlierFiles = new Map<string, EarlierFile>();
  if (dir !== undefined) {
    checkFolder(dir, options.out, options.force === true);
    earlierFiles = readFolder(dir, options.out, orgs);
  }

  const imports = await readAndConvert(options, orgs, siteRequests);
  // --force over an earlier import: every top-level entry the import does not write (prune, safety,
  // protect, policies, a kind it does not read) is written back.
  const keptSettings: ImportResult['kept'] = [];
  const dropped: string[] = [];
  const documents = imports
    .map((i): { org: string; file: string; document: Record<string, unknown> } => {
      const file = orgFileName(i.org);
      const earlier = earlierFiles.get(file);
      if (dir === undefined || earlier === undefined) return { org: i.org, file, document: i.document };
      const found = keptEntries(path.join(dir, file), earlier, i.org, i.document);
      if ('problem' in found) {
        dropped.push(`${i.org}: the existing ${file} ${found.problem}: any prune, safety, protect or policies it held are not written back`);
        return { org: i.org, file, document: i.document };
      }
      const keep = found.values;
      const keys = Object.keys(keep);
      if (keys.length > 0) keptSettings.push({ org: i.org, file, keys });
      return { org: i.org, file, document: { ...i.document, ...keep } };
    })
    .map((d) => ({ ...d, yaml: configYaml(d.org, d.document, { kept: keptSettings.find((k) => k.org === d.org)?.keys }) }));
  const clash = documents.find((d, i) => documents.findIndex((e) => e.file === d.file) !== i);
  if (clash && dir !== undefined) {
    throw new DocplaneError('IMPORT_FILE_CLASH', `organizations ${documents.filter((d) => d.file === clash.file).map((d) => d.org).join(' and ')} would both be written to ${clash.file}`, {
      hint: 'Import them one at a time, into different folders.',
    });
  }
  const result: ImportResult = {
    orgs: imports,
    documents,
    written: [],
    notWritten: [],
    todo: [],
    warnings: [
      ...imports.flatMap((i) => [...i.warnings.map((w) => `${i.org}: ${w}`), ...schemaWarnings(i.org, documents.find((d) => d.org === i.org)?.document ?? i.document)]),
      ...dropped,
    ],
    kept: keptSettings,
  };
  const referenced = imports.flatMap((i) => i.files);

  if (dir === undefined) {
    result.stream = documents.map((d) => d.yaml).join('---\n');
    for (const f of referenced) result.notWritten.push({ file: f.path, reason: `--out -: ${describe(f)} is not written anywhere` });
    result.todo = todoOf(referenced, () => 'create');
    return result;
  }

  result.dir = dir;
  const write = (rel: string, content: string) => {
    const abs = path.join(dir, ...rel.split('/'));
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileAtomic(abs, content);
    result.written.push(rel);
  };
  for (const d of documents) write(d.file, d.yaml);
  write(SCHEMA_FILE, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  for (const f of referenced) {
    const abs = path.join(dir, ...f.path.split('/'));
    // A script the user has filled in is worth more than the stub: --force does not replace it.
    if (f.kind === 'script' && existsSync(abs) && readFileSync(abs, 'utf8') !== f.content) {
      result.notWritten.push({ file: f.path, reason: 'it exists and is not the stub import writes: kept as it is' });
      continue;
    }
    write(f.path, f.content);
  }
  const kept = new Set(result.notWritten.map((n) => n.file));
  result.todo = todoOf(referenced, (f) => (kept.has(f.path) ? 'kept' : 'stub'));
  return result;
}

/**
 * What the API cannot return, one line each: every integration's script (unless a script the user
 * wrote was kept) and its secrets (the API does not even say which secrets an integration has).
 */
function todoOf(files: readonly ImportedFile[], state: (f: ImportedFile) => 'stub' | 'kept' | 'create'): string[] {
  const lines: string[] = [];
  for (const f of files) {
    if (f.kind !== 'script') continue;
    const s = state(f);
    if (s === 'stub') lines.push(`${f.path}: put the script of ${f.address} in this file (the API does not return scripts; a plan that would publish the stub is refused)`);
    if (s === 'create') lines.push(`${f.path}: create this file with the script of ${f.address}, next to the YAML (the API does not return scripts)`);
    lines.push(`${f.address}: add its secrets, if it has any, as secrets: { NAME: "\${env:NAME}" } (the API does not return secrets)`);
  }
  return lines;
}

function describe(f: ImportedFile): string {
  if (f.kind === 'text') return `the text of ${f.address}`;
  return f.kind === 'certificate' ? `the certificate of ${f.address}` : `the script stub of ${f.address}`;
}
