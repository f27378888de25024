/**
 * What the parts of a site's plan share: the plans per site kind, how a request names a resource
 * (its id, or a ref to the step creating it), the entries of sections and groups, the fields compared,
 * and the context of one site.
 */
import { fingerprint } from '../../core/json.js';
import { ref } from '../../model/address.js';
import type { FieldChange, JsonObject, JsonValue, Kind, PlanProblem, RequestSpec } from '../../model/step.js';
import { diffFields, sameJson } from '../common/match.js';
import type { DraftStep, KindPlan } from '../kind.js';
import { idOfKey, pointerType, type ItemKey } from './layout.js';
import type { RemoteExternalLink, RemoteGroup, RemoteSection, RemoteShareLink, RemoteSite, RemoteSiteSpace } from './remote.js';
import type { SpaceNames } from '../shared/spaces.js';
import type { FontChoice } from '../shared/fonts.js';
import type { ExternalLinkT, SectionGroupT, SectionT, SiteT } from './schema.js';

export const SITE_KINDS = ['sites', 'sections', 'siteSpaces', 'sectionGroups', 'shareLinks', 'externalLinks', 'redirects', 'customization', 'publishingAuth', 'agentSettings', 'mcpServers', 'adaptiveSchema'] as const;
export type SiteKind = (typeof SITE_KINDS)[number];
export type SitePlans = Record<SiteKind, KindPlan>;

export function emptySitePlans(): SitePlans {
  const one = (): KindPlan => ({ steps: [], unmanaged: [], remoteCount: 0, problems: [], fingerprints: {} });
  return Object.fromEntries(SITE_KINDS.map((k) => [k, one()])) as SitePlans;
}

export const enc = encodeURIComponent;

/** How a request names a resource: its id, or the ref to the step creating it (apply encodes refs in paths). */
export interface Handle {
  /** For bodies: the id or the ref token. */
  id: string;
  /** For paths. */
  pathId: string;
}

export function handle(org: string, address: string, remoteId: string | undefined): Handle {
  if (remoteId !== undefined) return { id: remoteId, pathId: enc(remoteId) };
  const r = ref(org, address);
  return { id: r, pathId: r };
}

export interface SectionEntry extends Handle {
  cfg: SectionT;
  remote?: RemoteSection;
  address: string;
  key: ItemKey;
}

export interface GroupEntry extends Handle {
  cfg: SectionGroupT;
  remote?: RemoteGroup;
  address: string;
  key: ItemKey;
  /** The sections the config lists (resolved), when it lists them. */
  members?: ItemKey[];
  /** The group the config puts it in (null: the top level), when `parent` is given. */
  parent?: GroupEntry | null;
}

export interface LinkEntry extends Handle {
  cfg: ExternalLinkT;
  remote?: RemoteExternalLink;
  address: string;
  key: ItemKey;
  /** The group the config puts it in (null: the top level), when `group` is given. */
  parent?: GroupEntry | null;
}

/** The fields of a remote object that the config can manage, absent ones as null. */
export function pick(remote: object, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const f of fields) out[f] = ((remote as Record<string, unknown>)[f] ?? null) as JsonValue;
  return out;
}

/** The desired fields that differ from the remote ones: `before` and `after` of an update. */
export function differing(current: JsonObject, desired: JsonObject): { before: JsonObject; after: JsonObject } {
  const before: JsonObject = {};
  const after: JsonObject = {};
  for (const [f, v] of Object.entries(desired)) {
    if (!sameJson(current[f] ?? null, v)) {
      before[f] = current[f] ?? null;
      after[f] = v;
    }
  }
  return { before, after };
}

export const SECTION_FIELDS = ['title', 'path', 'description', 'icon', 'condition'] as const;
export const SITE_SPACE_FIELDS = ['path', 'condition'] as const;
export const GROUP_FIELDS = ['title', 'icon'] as const;
/** Fields compared when the config gives them (absent = unmanaged), beyond those shown in deletes. */
export const SECTION_EXTRA_FIELDS = ['draft', 'localizedTitle', 'localizedDescription'] as const;
export const SITE_SPACE_EXTRA_FIELDS = ['draft', 'hidden'] as const;
export const GROUP_EXTRA_FIELDS = ['draft', 'localizedTitle'] as const;
export const LINK_FIELDS = ['title', 'url', 'description', 'icon', 'condition', 'draft', 'localizedTitle', 'localizedDescription'] as const;

/** The request value of localized fields: none is an empty map (the API's way to clear them). */
export function localizedBody(body: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = { ...body };
  for (const f of fields) if (f in out && out[f] === null) out[f] = {};
  return out;
}

/** A localized map as compared: empty reads as absent (null). */
export function localizedValue(value: Partial<Record<string, string>> | undefined): JsonObject | null | undefined {
  if (value === undefined) return undefined;
  const entries = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : null;
}

export const normalSection = (r: RemoteSection): JsonObject => ({ id: r.id, ...pick(r, SECTION_FIELDS) });
export const normalSiteSpace = (r: RemoteSiteSpace): JsonObject => ({ id: r.id, space: r.space, ...pick(r, SITE_SPACE_FIELDS) });
export const normalGroup = (r: RemoteGroup): JsonObject => ({ id: r.id, title: r.title, icon: r.icon, sections: r.sections });
export const normalLink = (r: RemoteShareLink): JsonObject => ({ id: r.id, name: r.name, active: r.active });
export const normalExternalLink = (r: RemoteExternalLink): JsonObject => ({ id: r.id, parent: r.parent, ...pick(r, LINK_FIELDS) });

/** A structure item's delete (the analyser's `remove`): one DELETE, showing each field it removes. */
export function removal(before: JsonObject, path: string): { before: JsonObject; requests: RequestSpec[]; changes: FieldChange[] } {
  return { before, requests: [{ method: 'DELETE', path }], changes: diffFields(before, {}) };
}

/** A `PATCH SITE/structure/sort` request: `item` before or after `target`. */
export function sortRequest(base: string, item: ItemKey | string, where: 'before' | 'after', target: ItemKey | string, siteSpace = false): RequestSpec {
  const ref = (k: string) =>
    siteSpace ? { type: 'site-space', id: k } : { type: pointerType(k), id: idOfKey(k) };
  return { method: 'PATCH', path: `${base}/structure/sort`, body: { item: ref(item), position: { [where]: ref(target) } } };
}


/** One site being planned: where its requests go, and where its steps and problems land. */
export interface SiteContext {
  org: string;
  site: SiteT;
  remote: RemoteSite;
  /** The site's API path. */
  base: string;
  prunes(kind: Kind): boolean;
  out: SitePlans;
  /** Adds a step to its kind's plan, with the fingerprint of the remote object it reads. */
  push(step: DraftStep, remoteObject: JsonObject | null): void;
  /** A problem; `reference` when it is about a reference of the config (PlanProblem.reference). */
  problem(kind: SiteKind, address: string, message: string, reference?: PlanProblem['reference']): void;
  /** The id a request gives for a space the config names, and the step it waits for (a space this plan creates). */
  spaceId(name: string): { id: string; needs: string[] };
  /** The custom font a customization names by family (undefined: none has it). */
  font(family: string): FontChoice | undefined;
}

export function siteContext(
  org: string,
  site: SiteT,
  remote: RemoteSite,
  base: string,
  prunes: (kind: Kind) => boolean,
  spaces?: SpaceNames,
  fonts?: (family: string) => FontChoice | undefined,
): SiteContext {
  const out = emptySitePlans();
  return {
    org,
    site,
    remote,
    base,
    prunes,
    out,
    push(step, remoteObject) {
      const kp = out[step.kind as SiteKind];
      kp.steps.push(step);
      if (!(step.address in kp.fingerprints)) kp.fingerprints[step.address] = fingerprint(remoteObject);
    },
    problem: (kind, address, message, reference) => out[kind].problems.push({ org, address, message, ...(reference ? { reference } : {}) }),
    spaceId: (name) => (spaces ? spaces.request(name) : { id: name, needs: [] }),
    font: (family) => fonts?.(family),
  };
}
