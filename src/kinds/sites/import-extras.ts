/**
 * Import of a site's redirects, customization and publishing auth (import reads all three for
 * every site it writes):
 * - redirects: the live ones, by source (a second redirect with the same source is left out, with
 *   a warning), an external destination written as its URL;
 * - customization: the whole document as read, without its read-only fields (the description gives
 *   no defaults to leave out); a top-level field the config schema does not know is left out with a
 *   warning (it is kept as it is by every PUT, which sends the document as read); the fields the API
 *   marks deprecated are left out too, without a word (the PUT keeps them as well), so that a fresh
 *   import validates with no warning;
 * - publishing auth: only when it differs from a new site's (the custom backend, no URLs); never
 *   its private key, which the read drops;
 * - agent settings: all three parts, the instructions as text when they are plain;
 * - MCP servers, by name: every header value written as a `${env:…}` reference (header values carry
 *   tokens), never as its value, and import's warnings name the variables to set;
 * - the adaptive schema: its claims, when the site has one (a shape the config cannot hold is left
 *   out, with a warning).
 */
import { key } from '../../model/address.js';
import type { JsonObject } from '../../model/step.js';
import { instructions, Raw, sortBy, unique, type Draft } from '../common/import.js';
import { AdaptiveSchema, type RemoteAdaptiveSchema, type RemoteAgentSettings, type RemoteMcpServer } from './ai-read.js';
import { Customization } from './customization-read.js';
import { DEPRECATED_CUSTOMIZATION } from './deprecated.js';
import type { RemoteSite } from './remote.js';

function redirectsDraft(site: RemoteSite, at: string, warn: (m: string) => void): Draft | undefined {
  if (site.redirects === undefined) return undefined;
  const live = sortBy(site.redirects.filter((r) => !r.draft), (r) => r.source, (r) => r.id);
  return unique(
    live,
    (r) => r.source,
    (r, kept) => warn(`${at}.redirects${key(r.source)}: redirects ${kept.id} and ${r.id} have the same source; only ${kept.id} is written`),
  ).map(
    (r): Draft => ({
      source: r.source,
      destination: r.destination.kind === 'external' && typeof r.destination.url === 'string' ? r.destination.url : (r.destination as Draft),
      permanent: r.permanent,
      captureWildcard: r.captureWildcard,
    }),
  );
}

function customizationDraft(doc: JsonObject | undefined, at: string, warn: (m: string) => void): Draft | undefined {
  if (doc === undefined) return undefined;
  const out: JsonObject = { ...doc };
  const parsed = Customization.safeParse(out);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? (i.code === 'unrecognized_keys' ? i.keys[0] : ''))))].filter((f) => f !== '');
    for (const f of fields) {
      warn(`${at}.customization.${f}: docplane's config does not take this field as the site has it; it is not written (apply keeps it as it is)`);
      delete out[f];
    }
  }
  for (const { path: [section, field] } of DEPRECATED_CUSTOMIZATION) {
    const part = out[section];
    if (part === null || typeof part !== 'object' || Array.isArray(part) || !(field in part)) continue;
    const rest: JsonObject = { ...part };
    delete rest[field];
    if (Object.keys(rest).length === 0) delete out[section];
    else out[section] = rest;
  }
  return out as Draft;
}

function publishingAuthDraft(site: RemoteSite): Draft | undefined {
  const a = site.publishingAuth;
  if (!a || a.backend === null) return undefined;
  if (a.backend === 'custom' && a.fallbackURL === null && a.logoutURL === null) return undefined;
  return { backend: a.backend, fallbackURL: a.fallbackURL ?? undefined, logoutURL: a.logoutURL ?? undefined };
}

function agentSettingsDraft(a: RemoteAgentSettings | undefined): Draft | undefined {
  if (a === undefined) return undefined;
  return {
    scans: a.topics === null ? undefined : { topics: a.topics },
    findings: a.changeRequests === null ? undefined : { changeRequests: a.changeRequests },
    editing: { customInstructions: instructions(a.customInstructions) ?? null },
  };
}

/** An environment variable's name from its parts: `SITE_DOCS_MCP_ACME_API_AUTHORIZATION`. */
export function envName(parts: readonly string[]): string {
  const name = parts
    .join('_')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return /^[A-Z_]/.test(name) ? name : `_${name}`;
}

function mcpServersDraft(site: RemoteSite, at: string, warn: (m: string) => void): Draft | undefined {
  if (site.mcpServers === undefined) return undefined;
  const names: string[] = [];
  const kept = unique(
    sortBy(site.mcpServers, (r) => r.name, (r) => r.id),
    (r) => r.name,
    (r, first) => warn(`${at}.mcpServers${key(r.name)}: MCP servers ${first.id} and ${r.id} have the same name; only ${first.id} is written`),
  );
  const drafts = kept.map((r: RemoteMcpServer): Draft => {
    const headers = Object.keys(r.headers)
      .sort()
      .map((h) => {
        const name = envName([site.id, 'mcp', r.name, h]);
        names.push(name);
        return [h, new Raw(`\${env:${name}}`)] as const;
      });
    return { id: r.id, name: r.name, url: r.url, transport: r.transport, headers: Object.fromEntries(headers), condition: r.condition ?? undefined };
  });
  if (names.length > 0) {
    warn(`${at}.mcpServers: header values are written as \${env:…} references, not as values; set ${[...new Set(names)].join(', ')} before planning`);
  }
  return drafts;
}

/** A claim's keys in a readable order: what it is first, what it holds last. */
function claimDraft(claim: Record<string, unknown>): Draft {
  const out: Record<string, Draft> = {};
  for (const k of ['type', 'description', 'enum', 'items']) if (k in claim) out[k] = claim[k] as Draft;
  if (claim.properties && typeof claim.properties === 'object') {
    const props = claim.properties as Record<string, Record<string, unknown>>;
    out.properties = Object.fromEntries(Object.keys(props).sort().map((n) => [n, claimDraft(props[n])]));
  }
  if ('additionalProperties' in claim) out.additionalProperties = claim.additionalProperties as Draft;
  return out;
}

function adaptiveSchemaDraft(s: RemoteAdaptiveSchema | undefined, at: string, warn: (m: string) => void): Draft | undefined {
  if (s === undefined || s.properties === null) return undefined;
  const draft = claimDraft({ properties: s.properties }) as Record<string, Draft>;
  if (!AdaptiveSchema.safeParse(draft).success) {
    warn(`${at}.adaptiveSchema: docplane's config does not take the site's adaptive schema as it is; it is not written (it stays unmanaged)`);
    return undefined;
  }
  return draft;
}

/** The site's redirects, customization, publishing auth, AI settings and adaptive schema as config (absent ones left out). */
export function siteExtrasDraft(site: RemoteSite, at: string, warn: (m: string) => void): Record<string, Draft | undefined> {
  return {
    redirects: redirectsDraft(site, at, warn),
    customization: customizationDraft(site.customization, at, warn),
    publishingAuth: publishingAuthDraft(site),
    agentSettings: agentSettingsDraft(site.agentSettings),
    mcpServers: mcpServersDraft(site, at, warn),
    adaptiveSchema: adaptiveSchemaDraft(site.adaptiveSchema, at, warn),
  };
}
