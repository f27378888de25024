/**
 * A site's AI and adaptive content, planned:
 * - `agentSettings`: one document per site, replaced whole by `updateSiteAgentSettingsById` (PUT);
 *   the parts the config leaves out are sent as the site has them;
 * - `mcpServers`, by name: created (`createSiteMcpServer`), updated with the fields that differ
 *   (`updateSiteMcpServerById`), deleted when `mcpServers` is pruned and the site lists its servers
 *   (`deleteSiteMcpServerById`), else named unmanaged. Header values may be secrets: the API's are
 *   never shown (a plan says `(sensitive)`), the config's are masked when they come from `${env:…}`;
 * - `adaptiveSchema`: the claims visitors bring, replaced whole by `updateSiteAdaptiveSchema` (PUT).
 *
 * On a site this plan creates, MCP servers and the adaptive schema are planned against nothing;
 * agent settings only when the config gives all three parts (the PUT needs them, and a new site's
 * cannot be read before it exists): else the next plan sets them.
 */
import { MASK } from '../../core/secrets.js';
import { documentToText, isPlainDocument, normalizeDocument, toDocument, type RichTextDocumentT } from '../../core/richtext.js';
import { key } from '../../model/address.js';
import type { JsonObject, JsonValue } from '../../model/step.js';
import { child, type Origin } from '../../source/origin.js';
import { compact, sameJson } from '../common/match.js';
import { analyse, mergeKindPlan } from '../common/analyse.js';
import { step } from '../common/step.js';
import { lookAlikeNotes } from '../common/text.js';
import type { ResolveContext } from '../kind.js';
import { siteAddress } from './addresses.js';
import type { ClaimT, McpServerT, RemoteAgentSettings, RemoteMcpServer } from './ai-read.js';
import { unknownClaims } from './conditions.js';
import { siteKey, type SiteT } from './schema.js';
import { differing, enc, type SiteContext } from './steps.js';

export const agentSettingsAddress = (site: string): string => `${siteAddress(site)}.agentSettings`;
export const adaptiveSchemaAddress = (site: string): string => `${siteAddress(site)}.adaptiveSchema`;
export const mcpServerAddress = (site: string, name: string): string => `${siteAddress(site)}.mcpServers${key(name)}`;

const EMPTY_DOCUMENT: RichTextDocumentT = { object: 'document', data: { schemaVersion: 1 }, nodes: [] };

const isEmptyDocument = (doc: RichTextDocumentT | null | undefined): boolean => !doc || !Array.isArray(doc.nodes) || doc.nodes.length === 0;

/** What a reviewer reads of a document: its text when plain, else the normalized document; null when empty. */
function shownDocument(doc: RichTextDocumentT | null): JsonValue {
  if (isEmptyDocument(doc)) return null;
  const d = doc as RichTextDocumentT;
  return isPlainDocument(d) ? documentToText(d) : (normalizeDocument(d) as JsonValue);
}

function sameDocuments(a: RichTextDocumentT | null, b: RichTextDocumentT | null): boolean {
  if (isEmptyDocument(a) || isEmptyDocument(b)) return isEmptyDocument(a) && isEmptyDocument(b);
  return sameJson(normalizeDocument(a) as JsonValue, normalizeDocument(b) as JsonValue);
}

const normalAgentSettings = (r: RemoteAgentSettings): JsonObject => ({
  scans: { topics: r.topics },
  findings: { changeRequests: r.changeRequests },
  editing: { customInstructions: shownDocument(r.customInstructions) },
});

export function planAgentSettings(ctx: SiteContext, isNew: boolean): void {
  const { site, remote, base, out, push } = ctx;
  const want = site.agentSettings;
  const have = remote.agentSettings;
  if (want === undefined || (have === undefined && !isNew)) return;
  const address = agentSettingsAddress(siteKey(site));
  out.agentSettings.remoteCount = have ? 1 : 0;
  const wantDoc = want.editing === undefined ? undefined : want.editing.customInstructions === null ? EMPTY_DOCUMENT : toDocument(want.editing.customInstructions);
  const topics = want.scans?.topics ?? have?.topics ?? null;
  const changeRequests = want.findings?.changeRequests ?? have?.changeRequests ?? null;
  const doc = wantDoc ?? have?.customInstructions ?? null;
  if (topics === null || changeRequests === null || (doc === null && !have)) {
    out.agentSettings.notes = [
      ...(out.agentSettings.notes ?? []),
      `${address}: the site is created by this plan and the config leaves out part of its agent settings (the PUT replaces scans, findings and editing together): the next plan sets them`,
    ];
    return;
  }
  const before: JsonObject = {};
  const after: JsonObject = {};
  if (want.scans && want.scans.topics !== have?.topics) {
    before.scans = { topics: have?.topics ?? null };
    after.scans = { topics: want.scans.topics };
  }
  if (want.findings && want.findings.changeRequests !== have?.changeRequests) {
    before.findings = { changeRequests: have?.changeRequests ?? null };
    after.findings = { changeRequests: want.findings.changeRequests };
  }
  if (wantDoc && !sameDocuments(have?.customInstructions ?? null, wantDoc)) {
    before.editing = { customInstructions: shownDocument(have?.customInstructions ?? null) };
    after.editing = { customInstructions: shownDocument(wantDoc) };
  }
  if (Object.keys(after).length === 0) return;
  const body: JsonObject = {
    scans: { topics },
    findings: { changeRequests },
    editing: { customInstructions: (doc ?? EMPTY_DOCUMENT) as unknown as JsonValue },
  };
  push(
    step({ address, kind: 'agentSettings', action: 'update', before: have ? before : null, after, requests: [{ method: 'PUT', path: `${base}/agent-settings`, body }] }),
    have ? normalAgentSettings(have) : null,
  );
}

/** The JSON schema a PUT sends: the config's claims, with the fields that have one value. */
function jsonSchemaOf(site: SiteT): JsonObject {
  const s = site.adaptiveSchema as NonNullable<SiteT['adaptiveSchema']>;
  return compact({ $schema: s.$schema, type: 'object', properties: s.properties as unknown as JsonObject, additionalProperties: false }) as JsonObject;
}

export function planAdaptiveSchema(ctx: SiteContext, isNew: boolean): void {
  const { site, remote, base, out, push } = ctx;
  const want = site.adaptiveSchema;
  const have = remote.adaptiveSchema ?? (isNew ? { properties: null } : undefined);
  if (want === undefined || have === undefined) return;
  out.adaptiveSchema.remoteCount = have.properties === null ? 0 : 1;
  const current = have.properties ?? {};
  const desired = want.properties as unknown as JsonObject;
  const before: JsonObject = {};
  const after: JsonObject = {};
  let differ = 0;
  // A claim only one side has is shown as added or removed.
  for (const name of [...new Set([...Object.keys(current), ...Object.keys(desired)])].sort()) {
    if (sameJson(current[name] ?? null, desired[name] ?? null)) continue;
    differ++;
    if (name in current) before[name] = current[name];
    if (name in desired) after[name] = desired[name];
  }
  // A site without a schema takes one even when the config gives no claims.
  if (differ === 0 && have.properties !== null) return;
  push(
    step({
      address: adaptiveSchemaAddress(siteKey(site)),
      kind: 'adaptiveSchema',
      action: 'update',
      before: { properties: have.properties === null ? null : before },
      after: { properties: after },
      requests: [{ method: 'PUT', path: `${base}/adaptive-schema`, body: { jsonSchema: jsonSchemaOf(site) } }],
    }),
    have.properties === null ? null : { properties: have.properties },
  );
}

/** Header values as a plan shows the API's: every value may be a secret. */
const hiddenHeaders = (headers: Record<string, string>): JsonObject => Object.fromEntries(Object.keys(headers).map((k) => [k, MASK]));

const normalMcpServer = (r: RemoteMcpServer): JsonObject => ({ id: r.id, name: r.name, url: r.url, transport: r.transport, headers: r.headers, condition: r.condition });

const shownMcpServer = (r: RemoteMcpServer): JsonObject => ({ name: r.name, url: r.url, transport: r.transport, headers: hiddenHeaders(r.headers), condition: r.condition });

const desiredMcpFields = (d: McpServerT): JsonObject => compact({ name: d.name, url: d.url, transport: d.transport, headers: d.headers, condition: d.condition }) as JsonObject;

export function planMcpServers(ctx: SiteContext, isNew: boolean): void {
  const { org, site, remote, base, prunes, out } = ctx;
  const have = remote.mcpServers ?? (isNew ? [] : undefined);
  if (site.mcpServers === undefined || have === undefined) return;
  const kp = analyse<McpServerT, RemoteMcpServer>(org, site.mcpServers, have, {
    kind: 'mcpServers',
    what: 'MCP servers',
    address: (name) => mcpServerAddress(siteKey(site), name),
    desiredKey: (d) => d.name,
    remoteKey: (r) => r.name,
    remoteId: (r) => r.id,
    desiredId: (d) => d.id,
    renamedFrom: (d) => d.renamedFrom,
    prune: prunes('mcpServers'),
    fingerprint: normalMcpServer,
    // Headers may carry secrets: a done create is held to the other fields.
    observe: (r) => ({ name: r.name, url: r.url, transport: r.transport, condition: r.condition }),
    create(d, address) {
      // `headers` is required by the create: none when the config gives none.
      const body = compact({ ...desiredMcpFields(d), headers: d.headers ?? {}, condition: d.condition ?? undefined }) as JsonObject;
      return [step({
        address,
        kind: 'mcpServers',
        action: 'create',
        before: null,
        after: desiredMcpFields(d),
        requests: [{ method: 'POST', path: `${base}/mcp-servers`, body, capture: true, lookup: { path: `${base}/mcp-servers`, match: { name: d.name } } }],
        ...lookAlikeNotes('MCP server', d.name, have.map((x) => x.name)),
      })];
    },
    update(d, r, address) {
      const { before, after } = differing(normalMcpServer(r), desiredMcpFields(d));
      if (Object.keys(after).length === 0) return [];
      if ('headers' in before) before.headers = hiddenHeaders(r.headers);
      return [step({ address, kind: 'mcpServers', action: 'update', before, after, requests: [{ method: 'PATCH', path: `${base}/mcp-servers/${enc(r.id)}`, body: after }], remoteId: r.id })];
    },
    remove: (r) => ({ before: shownMcpServer(r), requests: [{ method: 'DELETE', path: `${base}/mcp-servers/${enc(r.id)}` }] }),
  }).plan;
  mergeKindPlan(out.mcpServers, kp);
}

/** Every condition of a site's config, with its place: sections, their site spaces, root site spaces, external links, MCP servers. */
function conditionsOf(site: SiteT, origin: Origin): Array<{ condition: string; at: Origin }> {
  const out: Array<{ condition: string; at: Origin }> = [];
  const add = (condition: string | null | undefined, at: Origin) => {
    if (typeof condition === 'string' && condition !== '') out.push({ condition, at: child(at, 'condition') });
  };
  (site.sections ?? []).forEach((s, i) => {
    add(s.condition, child(origin, 'sections', i));
    (s.siteSpaces ?? []).forEach((ss, j) => add(ss.condition, child(origin, 'sections', i, 'siteSpaces', j)));
  });
  (site.siteSpaces ?? []).forEach((ss, j) => add(ss.condition, child(origin, 'siteSpaces', j)));
  (site.externalLinks ?? []).forEach((l, i) => add(l.condition, child(origin, 'externalLinks', i)));
  (site.mcpServers ?? []).forEach((s, i) => add(s.condition, child(origin, 'mcpServers', i)));
  return out;
}

/**
 * The loader's checks: an MCP server's name once per site; where the agent settings and the adaptive
 * schema are; and, when the config gives the site's adaptive schema, every condition of the site
 * names only claims the schema defines (validate reads nothing: a schema only the site knows is not
 * checked against).
 */
export function resolveSiteAi(site: SiteT, origin: Origin, ctx: ResolveContext): void {
  const at = siteAddress(siteKey(site));
  const servers = site.mcpServers ?? [];
  const names = new Set(servers.map((s) => s.name));
  const ids = ctx.identities(`${at}.mcpServers`, 'name');
  servers.forEach((s, i) => {
    const o = child(origin, 'mcpServers', i);
    if (ctx.claim(`mcpServer:${siteKey(site)}:${s.name}`, mcpServerAddress(siteKey(site), s.name), o, `MCP server "${s.name}" of site ${siteKey(site)}`)) ids.add(s.name, s, o, names);
  });
  if (site.agentSettings) ctx.locate(agentSettingsAddress(siteKey(site)), child(origin, 'agentSettings'));
  if (site.adaptiveSchema === undefined) return;
  ctx.locate(adaptiveSchemaAddress(siteKey(site)), child(origin, 'adaptiveSchema'));
  const claims = site.adaptiveSchema.properties as Record<string, ClaimT>;
  for (const { condition, at: where } of conditionsOf(site, origin)) {
    for (const message of unknownClaims(condition, claims)) ctx.problems.at(where, `the condition ${message}`);
  }
}
