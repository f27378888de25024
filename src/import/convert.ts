/**
 * Remote state → config document, for `docplane import`. Pure: the same state gives the same
 * document, whatever order the API listed things in (lists are sorted by natural key, then id),
 * except where the platform's order is the data (sections, section groups and site spaces keep the
 * site's structure order).
 *
 * What is written: every field the config can manage, with the remote value. An empty value is
 * written where the format can say "empty" (null, []), so that a later change to it shows as drift;
 * where it cannot (a space without emoji, say) the field is left out. Ids are written wherever the
 * format takes them, so that a title renamed in the app or in the config plans as an update.
 * Strings from the platform are escaped (`${` → `$${`) so that the loader reads them back as given.
 */
import type { RichTextDocumentT } from '../config/schema.js';
import { documentToText, isPlainDocument, normalizeDocument } from '../core/richtext.js';
import type { RemoteCollection } from '../resources/collections.js';
import { SCRIPT_STUB_MARKER, type RemoteIntegration } from '../resources/integrations.js';
import { memberLabel, type RemoteMember } from '../resources/members.js';
import type { RemoteSamlProvider } from '../resources/saml.js';
import type { RemoteSection, RemoteSite } from '../resources/sites/remote.js';
import type { RemoteTeam } from '../resources/teams.js';
import type { RemoteTranslation } from '../resources/translations.js';
import { key } from '../resources/types.js';
import type { RemoteOrgState } from './read.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonMap = { [k: string]: Json };

/** A file the config references with `${file:…}`, relative to the config folder (posix). */
export interface ImportedFile {
  path: string;
  content: string;
  /** What it holds: a SAML certificate from the API, or the stub of an integration script. */
  kind: 'certificate' | 'script';
  /** The org-relative address of the resource that references it. */
  address: string;
}

export interface OrgImport {
  org: string;
  /** The config document: plain data, keys in the order they are written. */
  document: JsonMap;
  files: ImportedFile[];
  /** What the platform holds that the config format cannot say, and what import did about it. */
  warnings: string[];
  /** Resources written, per kind, for the summary line. */
  counts: Record<string, number>;
}

/** Gives file names unique across one import run (several organizations share certs/ and integrations/). */
export interface FileNamer {
  claim(folder: string, base: string, extension: string): string;
}

export function fileNamer(): FileNamer {
  const taken = new Set<string>();
  return {
    claim(folder, base, extension) {
      for (let n = 1; ; n++) {
        const candidate = `${folder}/${n === 1 ? base : `${base}-${n}`}${extension}`;
        if (!taken.has(candidate.toLowerCase())) {
          taken.add(candidate.toLowerCase());
          return candidate;
        }
      }
    },
  };
}

/** A lower-case file-name slug: `Okta SSO` → `okta-sso`. */
export function slug(text: string, fallback: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s === '' ? fallback : s.slice(0, 60);
}

/** Text written to integrations/<name>.js: the API never returns a script. */
export function scriptStub(name: string): string {
  return [
    `${SCRIPT_STUB_MARKER} of integration "${name}".`,
    '// Replace this file with the integration\'s real script: while it is this stub, docplane refuses',
    '// any plan that would publish the integration (a changed field, or --replace), so that the stub',
    '// never replaces the real script on the platform.',
    '',
  ].join('\n');
}

/** A value that goes into the document as written, not escaped (a `${file:…}` reference). */
class Raw {
  constructor(readonly text: string) {}
}

type Draft = null | boolean | number | string | Raw | Draft[] | { [k: string]: Draft | undefined };

/** `${` → `$${` in every string, so that interpolation gives the platform's text back. */
function finish(value: Draft): Json {
  if (value instanceof Raw) return value.text;
  // A function, because a replacement string would read "$$" as one "$".
  if (typeof value === 'string') return value.replaceAll('${', () => '$${');
  if (Array.isArray(value)) return value.map(finish);
  if (value && typeof value === 'object') {
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = finish(v);
    return out;
  }
  return value;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Sorted by natural key, then id: the same whatever order the API listed them in. */
function sortBy<T>(items: readonly T[], ...keys: Array<(item: T) => string>): T[] {
  return [...items].sort((a, b) => {
    for (const k of keys) {
      const c = compare(k(a), k(b));
      if (c !== 0) return c;
    }
    return 0;
  });
}

/** Keeps the first of each natural key; the others are reported (the config keys resources by it). */
function unique<T>(items: readonly T[], keyOf: (item: T) => string, onDuplicate: (dropped: T, kept: T) => void): T[] {
  const seen = new Map<string, T>();
  const out: T[] = [];
  for (const item of items) {
    const k = keyOf(item);
    const kept = seen.get(k);
    if (kept !== undefined) {
      onDuplicate(item, kept);
      continue;
    }
    seen.set(k, item);
    out.push(item);
  }
  return out;
}

/** A document as the config writes it: plain text when it is just paragraphs, else the document. */
function instructions(doc: RichTextDocumentT | null | undefined): Draft | undefined {
  if (!doc || !Array.isArray(doc.nodes) || doc.nodes.length === 0) return undefined;
  // Block keys are generated by the platform and differ between copies: left out (plan ignores them).
  return isPlainDocument(doc) ? documentToText(doc) : (readable(normalizeDocument(doc)) as Draft);
}

/** Where a key of a rich-text node goes: what the node is first, its children last. */
const NODE_KEY_RANK: Record<string, number> = { object: 0, type: 1, text: 2, data: 3, isVoid: 4, marks: 5, leaves: 8, nodes: 9 };

/** The keys of every node in a readable order (normalizeDocument sorts them alphabetically). */
function readable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(readable);
  if (!value || typeof value !== 'object') return value;
  const rank = (k: string) => NODE_KEY_RANK[k] ?? 6;
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || compare(a, b));
  return Object.fromEntries(keys.map((k) => [k, readable((value as Record<string, unknown>)[k])]));
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function convertOrg(state: RemoteOrgState, files: FileNamer): OrgImport {
  const out: OrgImport = { org: state.org, document: {}, files: [], warnings: [], counts: {} };
  const warn = (message: string) => out.warnings.push(message);

  // ---- organization ------------------------------------------------------------------------------
  const o = state.organization;
  const domains = Array.isArray(o.emailDomains) ? [...new Set(o.emailDomains.map(String))].sort((a, b) => compare(a.toLowerCase(), b.toLowerCase()) || compare(a, b)) : undefined;
  const organization: Draft = {
    id: state.org,
    title: str(o.title),
    emailDomains: domains,
    hostname: str(o.hostname),
    defaultRole: strOrNull(o.defaultRole),
    sso: bool(o.sso),
    ai: bool(o.ai),
    inviteLinks: bool(o.inviteLinks),
    agentInstructions: instructions(state.agentInstructions.instructions) ?? null,
  };

  // ---- members -----------------------------------------------------------------------------------
  const memberById = new Map(state.members.map((m) => [m.id, m]));
  const members = unique(
    sortBy(state.members, memberLabel, (m) => m.id),
    memberLabel,
    (m, kept) => warn(`members: ${m.id} and ${kept.id} share the email ${memberLabel(m)}; only ${kept.id} is written`),
  ).map((m): Draft => ({ user: memberLabel(m), role: m.role ?? null }));

  // ---- teams and their members ------------------------------------------------------------------------
  const teams = unique(
    sortBy(state.teams, (t) => t.title, (t) => t.id),
    (t) => t.title,
    (t, kept) => warn(`${teamAddr(t)}: teams ${kept.id} and ${t.id} have the same title; the config names teams by title, so only ${kept.id} is written (rename one in the app and import again)`),
  );
  const labelOf = (m: RemoteMember): string => memberLabel(memberById.get(m.id) ?? m);
  const teamDrafts = teams.map((t): Draft => {
    const list = unique(
      sortBy(state.teamMembers[t.id] ?? [], (tm) => labelOf(tm.organization), (tm) => tm.organization.id),
      (tm) => tm.organization.id,
      () => undefined,
    );
    return {
      id: t.id,
      title: t.title,
      members: list.map((tm): Draft => (tm.team?.role === 'owner' ? { user: labelOf(tm.organization), role: 'owner' } : labelOf(tm.organization))),
    };
  });

  // ---- collections -------------------------------------------------------------------------------------
  const { tree: collections, pathOf: collectionPath } = collectionTree(state.collections, warn);

  // ---- spaces --------------------------------------------------------------------------------------------
  const collectionIds = new Set(state.collections.map((c) => c.id));
  const spaces = sortBy(state.spaces, (s) => s.id).map((s): Draft => {
    let collection: string | null | undefined = null;
    if (s.parent) {
      collection = collectionPath.get(s.parent);
      if (collection === undefined) {
        warn(
          collectionIds.has(s.parent)
            ? `spaces${key(s.id)}: its collection ${s.parent} is not written (see above), so the space's collection is left unmanaged`
            : `spaces${key(s.id)}: its collection ${s.parent} is not in the organization's list, so the space's collection is left unmanaged`,
        );
      }
    }
    return {
      id: s.id,
      title: str(s.title),
      emoji: str(s.emoji),
      editMode: str(s.editMode),
      defaultLevel: strOrNull(s.defaultLevel),
      language: str(s.language),
      collection,
    };
  });

  // ---- sites ---------------------------------------------------------------------------------------------
  const sites = sortBy(state.sites, (s) => s.id).map((site) => convertSite(site, warn));

  // ---- SAML -------------------------------------------------------------------------------------------------
  const teamTitle = new Map(state.teams.map((t) => [t.id, t.title]));
  const written = new Set(teams.map((t) => t.id));
  const saml = unique(
    sortBy(state.saml, (p) => p.label, (p) => p.id),
    (p) => p.label,
    (p, kept) => warn(`saml${key(p.label)}: providers ${kept.id} and ${p.id} have the same label; only ${kept.id} is written`),
  ).map((p) => convertSaml(p, teamTitle, written, files, out, warn));

  // ---- integrations -------------------------------------------------------------------------------------
  const integrations = sortBy(state.integrations, (i) => i.name).map((i) => convertIntegration(i, files, out, warn));

  // ---- translations ---------------------------------------------------------------------------------------
  const tKey = (t: RemoteTranslation) => `${t.source?.space}/${t.language}`;
  const translations = unique(
    sortBy(state.translations, (t) => String(t.source?.space), (t) => String(t.language), (t) => t.id),
    tKey,
    (t, kept) => warn(`translations${key(tKey(t))}: translations ${kept.id} and ${t.id} have the same source space and language; only ${kept.id} is written`),
  ).map(
    (t): Draft => ({
      id: t.id,
      source: { space: t.source?.space, language: t.source?.language },
      language: t.language,
      instructions: instructions(t.instructions),
    }),
  );

  out.document = finish({
    version: 1,
    organization,
    members,
    teams: teamDrafts,
    collections,
    spaces,
    ...(sites.length > 0 ? { sites: sites.map((s) => s.draft) } : {}),
    saml,
    integrations,
    translations,
  }) as JsonMap;
  out.counts = {
    members: members.length,
    teams: teams.length,
    collections: collectionPath.size,
    spaces: spaces.length,
    sites: sites.length,
    sections: sites.reduce((n, s) => n + s.sections, 0),
    saml: saml.length,
    integrations: integrations.length,
    translations: translations.length,
  };
  return out;
}

function teamAddr(t: RemoteTeam): string {
  return `teams${key(t.title)}`;
}

/** The nested collections (siblings by title, then id) and the path of every collection written. */
function collectionTree(remote: readonly RemoteCollection[], warn: (m: string) => void): { tree: Draft[]; pathOf: Map<string, string> } {
  const ids = new Set(remote.map((c) => c.id));
  const children = new Map<string, RemoteCollection[]>();
  for (const c of remote) {
    // A parent missing from the list cannot be written: the collection goes to the top level.
    const parent = c.parent && ids.has(c.parent) ? c.parent : '';
    children.set(parent, [...(children.get(parent) ?? []), c]);
  }
  const pathOf = new Map<string, string>();
  const walk = (parentId: string, parentPath: string | undefined, seen: ReadonlySet<string>): Draft[] => {
    const siblings = sortBy(children.get(parentId) ?? [], (c) => c.title, (c) => c.id);
    const kept = unique(siblings, (c) => c.title, (c, first) => {
      const p = parentPath === undefined ? c.title : `${parentPath}/${c.title}`;
      warn(`collections${key(p)}: collections ${first.id} and ${c.id} have the same path; only ${first.id} is written, with its children`);
    });
    const nodes: Draft[] = [];
    for (const c of kept) {
      const path = parentPath === undefined ? c.title : `${parentPath}/${c.title}`;
      if (c.title.includes('/')) {
        warn(`collections${key(path)}: collection ${c.id} has a "/" in its title, which the config's collection paths cannot hold; it is not written, nor its children`);
        continue;
      }
      if (seen.has(c.id)) continue; // a parent cycle: impossible on the API, guarded anyway
      pathOf.set(c.id, path);
      const sub = walk(c.id, path, new Set([...seen, c.id]));
      nodes.push({
        id: c.id,
        title: c.title,
        description: c.description ?? null,
        defaultLevel: c.defaultLevel ?? null,
        ...(sub.length > 0 ? { collections: sub } : {}),
      });
    }
    return nodes;
  };
  return { tree: walk('', undefined, new Set()), pathOf };
}

function convertSite(site: RemoteSite, warn: (m: string) => void): { draft: Draft; sections: number } {
  const at = `sites${key(site.id)}`;
  const pathOf = new Map<string, string>();
  const sections: Draft[] = [];
  const seenPaths = new Set<string>();
  for (const s of site.sections) {
    const address = `${at}.sections${key(s.path)}`;
    if (seenPaths.has(s.path)) {
      warn(`${address}: two sections have this path; only the first is written`);
      continue;
    }
    if (s.siteSpaces.length === 0) {
      warn(`${address}: section ${s.id} holds no site space, and the config gives every section a space; it is not written (it stays unmanaged)`);
      continue;
    }
    seenPaths.add(s.path);
    pathOf.set(s.id, s.path);
    sections.push(convertSection(s, address, warn));
  }
  const groups = unique(
    site.groups,
    (g) => g.title,
    (g, kept) => warn(`${at}.sectionGroups${key(g.title)}: groups ${kept.id} and ${g.id} have the same title; only ${kept.id} is written`),
  ).map(
    (g): Draft => ({
      id: g.id,
      title: g.title,
      icon: g.icon,
      sections: g.sections.map((id) => pathOf.get(id)).filter((p): p is string => p !== undefined),
    }),
  );
  const links = unique(
    sortBy(
      site.shareLinks.filter((l) => {
        if (l.name === null || l.name === '') warn(`${at}.shareLinks: share link ${l.id} has no name, and the config names share links; it is not written`);
        return l.name !== null && l.name !== '';
      }),
      (l) => l.name as string,
      (l) => l.id,
    ),
    (l) => l.name as string,
    (l, kept) => warn(`${at}.shareLinks${key(l.name as string)}: share links ${kept.id} and ${l.id} have the same name; only ${kept.id} is written`),
  ).map((l): Draft => ({ id: l.id, name: l.name, active: l.active }));
  return { draft: { id: site.id, sections, sectionGroups: groups, shareLinks: links }, sections: sections.length };
}

function convertSection(s: RemoteSection, address: string, warn: (m: string) => void): Draft {
  const siteSpaces = unique(
    s.siteSpaces,
    (ss) => ss.space,
    (ss) => warn(`${address}.siteSpaces${key(ss.space)}: the section shows this space twice; only the first site space is written (${ss.id} is not)`),
  ).map((ss): Draft => ({ id: ss.id, space: ss.space, path: ss.path ?? undefined, condition: ss.condition }));
  return {
    id: s.id,
    path: s.path,
    title: s.title,
    // The space a section is created with is its first site space.
    space: s.siteSpaces[0].space,
    description: s.description,
    icon: s.icon,
    condition: s.condition,
    siteSpaces,
  };
}

function convertSaml(
  p: RemoteSamlProvider,
  teamTitle: ReadonlyMap<string, string>,
  writtenTeams: ReadonlySet<string>,
  files: FileNamer,
  out: OrgImport,
  warn: (m: string) => void,
): Draft {
  const address = `saml${key(p.label)}`;
  let certificate: Raw | undefined;
  if (typeof p.certificate === 'string' && p.certificate !== '') {
    const path = files.claim('certs', slug(p.label, 'saml'), '.pem');
    out.files.push({ path, content: p.certificate, kind: 'certificate', address });
    certificate = new Raw(`\${file:${path}}`);
  } else {
    warn(`${address}: the API returned no certificate (none is set, or the API does not show it), so it is left out (unmanaged)`);
  }
  // A title in the config (null: none); left out when the team cannot be named.
  let defaultTeam: string | null | undefined = null;
  if (p.defaultTeam) {
    const id = p.defaultTeam.id;
    defaultTeam = teamTitle.get(id) ?? p.defaultTeam.title;
    if (defaultTeam === undefined) warn(`${address}: its default team ${id} is not in the organization's team list; defaultTeam is left out (unmanaged)`);
    else if (!writtenTeams.has(id)) warn(`${address}: its default team ${id} shares its title "${defaultTeam}" with another team; defaultTeam names the team that is written`);
  }
  return { id: p.id, label: p.label, entityID: p.entityID, ssoURL: p.ssoURL, certificate, defaultTeam, defaultRole: p.defaultRole ?? null };
}

function convertIntegration(i: RemoteIntegration, files: FileNamer, out: OrgImport, warn: (m: string) => void): Draft {
  const address = `integrations${key(i.name)}`;
  const path = files.claim('integrations', i.name, '.js');
  out.files.push({ path, content: scriptStub(i.name), kind: 'script', address });
  const scopes = Array.isArray(i.scopes) ? [...new Set(i.scopes.map(String))].sort(compare) : [];
  if (scopes.length === 0) warn(`${address}: the API lists no scopes, and the config requires at least one; add them before planning`);
  const links = Array.isArray(i.externalLinks)
    ? i.externalLinks.map((l): Draft => ({ url: String((l as { url?: unknown }).url ?? ''), label: String((l as { label?: unknown }).label ?? '') }))
    : undefined;
  return {
    name: i.name,
    title: str(i.title),
    description: str(i.description) ?? '',
    summary: str(i.summary),
    runtime: str(i.runtime),
    visibility: str(i.visibility),
    target: str(i.target),
    scopes,
    categories: Array.isArray(i.categories) ? [...new Set(i.categories.map(String))].sort(compare) : undefined,
    externalLinks: links,
    contentSecurityPolicy: str(i.contentSecurityPolicy),
    script: new Raw(`\${file:${path}}`),
  };
}
