/**
 * Merging documents per `organization.id`: lists are concatenated (each item keeps its origin),
 * organization and safety fields are merged, and a field set in two places is an error naming both.
 */
import { PRUNABLE, UNITS } from '../kinds/index.js';
import type { ConfigDocumentT } from './schema.js';
import { child, where, type Item, type Origin, type Problems } from '../source/origin.js';
import type { SourceDocument } from '../source/yaml.js';

/** A document that passed the schema: its interpolated input (for which keys were written) and output. */
export interface ValidDocument {
  source: SourceDocument;
  raw: Record<string, unknown>;
  data: ConfigDocumentT;
  /**
   * Per list whose failing entries were left out: the document index of each entry kept, so that
   * every kept entry is still placed at its own line.
   */
  kept?: ReadonlyMap<string, readonly number[]>;
}

export interface OrgDraft {
  id: string;
  /** The `organization` mapping of the first document naming this organization. */
  origin: Origin;
  organization: Record<string, unknown>;
  /** Where each organization field was set. */
  fieldOrigins: Map<string, Origin>;
  /** The entries of each list the documents have, by config key; a key no document has is absent. */
  lists: Map<string, Item<unknown>[]>;
  prune: Set<string>;
  safety: { maxDeletes: number; maxDeletePercent: number; keepSsoMembers: boolean };
  safetyOrigins: Map<string, Origin>;
  protect: Item<string>[];
}

export interface Merged {
  orgs: OrgDraft[];
  apiUrl?: string;
}

/** The config keys that hold lists, from the registry. */
const LISTS = UNITS.filter((u) => u.list).map((u) => u.configKey);

function keysOf(value: unknown): string[] {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
}

export function mergeDocuments(docs: readonly ValidDocument[], problems: Problems): Merged {
  const byId = new Map<string, OrgDraft>();
  let api: { url: string; origin: Origin } | undefined;

  for (const { source, raw, data, kept } of docs) {
    const root: Origin = { source, path: [] };
    if (data.api) {
      const origin = child(root, 'api', 'url');
      if (api && api.url !== data.api.url) {
        problems.at(origin, `api.url differs from the one at ${where(api.origin)}; set it once`);
      } else api ??= { url: data.api.url, origin };
    }

    const organization = data.organization as unknown as Record<string, unknown> & { id: string };
    const id = organization.id;
    let org = byId.get(id);
    if (!org) {
      org = {
        id,
        origin: child(root, 'organization'),
        organization: { id },
        fieldOrigins: new Map(),
        lists: new Map(),
        prune: new Set(),
        safety: { maxDeletes: 10, maxDeletePercent: 25, keepSsoMembers: true },
        safetyOrigins: new Map(),
        protect: [],
      };
      byId.set(id, org);
    }

    for (const field of keysOf(raw.organization)) {
      if (field === 'id') continue;
      const origin = child(root, 'organization', field);
      const earlier = org.fieldOrigins.get(field);
      if (earlier) {
        problems.at(origin, `organization ${id}'s ${field} is also set at ${where(earlier, 'key')}; set it in one place`, 'key');
        continue;
      }
      org.fieldOrigins.set(field, origin);
      org.organization[field] = organization[field];
    }

    for (const list of LISTS) {
      const values = (data as unknown as Record<string, unknown[] | undefined>)[list];
      if (values === undefined) continue;
      const target = org.lists.get(list) ?? [];
      org.lists.set(list, target);
      const at = kept?.get(list);
      values.forEach((value, i) => target.push({ value, origin: child(root, list, at?.[i] ?? i) }));
    }

    if (data.prune !== undefined) {
      const kinds = data.prune === 'all' || data.prune.includes('all') ? PRUNABLE : data.prune;
      for (const k of kinds) org.prune.add(k);
    }

    if (data.safety) {
      const safety = data.safety as Record<string, unknown>;
      for (const field of keysOf(raw.safety)) {
        const origin = child(root, 'safety', field);
        const earlier = org.safetyOrigins.get(field);
        if (earlier) {
          problems.at(origin, `safety.${field} of organization ${id} is also set at ${where(earlier, 'key')}; set it in one place`, 'key');
          continue;
        }
        org.safetyOrigins.set(field, origin);
        (org.safety as Record<string, unknown>)[field] = safety[field];
      }
    }

    (data.protect ?? []).forEach((value, i) => org.protect.push({ value, origin: child(root, 'protect', i) }));
  }

  return { orgs: [...byId.values()], apiUrl: api?.url };
}
