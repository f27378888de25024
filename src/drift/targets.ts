/**
 * From an audit event's target (`{type, id, label}`) to what docplane reads and plans: the addresses
 * it can touch. Targets decide, never action names (the live description lists none). A target
 * names its object by the API's object type (`team`, `space`, `site-section`) and id:
 *
 * - spaces and sites are config entries by id: `spaces["ID"]`, `sites["ID"]`;
 * - teams, SAML providers and integrations by their natural key: the entry whose id or key is the
 *   target's id or label (`teams["Writers"]`), else the whole unit (a renamed or new one);
 * - objects inside a site (sections, site spaces, groups, share links, …) name no site: every site
 *   of the config is read (`sites`);
 * - the organization, members, collections and the other units: the unit, which is a few lists.
 *
 * A type outside this table maps to nothing docplane knows: the caller reads everything.
 */
import type { OrgConfig } from '../config/types.js';
import { key } from '../model/address.js';
import type { AuditEvent } from './audit.js';

type Rule = { unit: string; by: 'id' } | { unit: string; by: 'entry'; field: string } | { unit: string; by: 'unit' };

const RULES: Record<string, Rule> = {
  organization: { unit: 'organization', by: 'unit' },
  'agent-instructions': { unit: 'organization', by: 'unit' },
  member: { unit: 'members', by: 'unit' },
  user: { unit: 'members', by: 'unit' },
  team: { unit: 'teams', by: 'entry', field: 'title' },
  collection: { unit: 'collections', by: 'unit' },
  space: { unit: 'spaces', by: 'id' },
  site: { unit: 'sites', by: 'id' },
  'site-section': { unit: 'sites', by: 'unit' },
  'site-space': { unit: 'sites', by: 'unit' },
  'site-section-group': { unit: 'sites', by: 'unit' },
  'share-link': { unit: 'sites', by: 'unit' },
  'site-redirect': { unit: 'sites', by: 'unit' },
  'site-external-link': { unit: 'sites', by: 'unit' },
  'site-mcp-server': { unit: 'sites', by: 'unit' },
  'saml-provider': { unit: 'saml', by: 'entry', field: 'label' },
  integration: { unit: 'integrations', by: 'entry', field: 'name' },
  installation: { unit: 'installations', by: 'unit' },
  translation: { unit: 'translations', by: 'unit' },
  invite: { unit: 'inviteLinks', by: 'unit' },
  font: { unit: 'fonts', by: 'unit' },
  'openapi-spec': { unit: 'openapiSpecs', by: 'unit' },
};

/** The target types docplane maps (for the documentation and the tests). */
export const MAPPED_TARGET_TYPES = Object.keys(RULES);

export type Mapping = { addresses: string[] } | { unknown: string };

/** The addresses an event's target can touch in one organization's config. */
export function mapTarget(desired: OrgConfig, target: AuditEvent['target']): Mapping {
  const rule = RULES[target.type];
  if (rule === undefined || target.id === '') return { unknown: `an event's target (${target.type} ${target.id}) maps to nothing docplane knows` };
  if (rule.by === 'unit') return { addresses: [rule.unit] };
  if (rule.by === 'id') return { addresses: [`${rule.unit}${key(target.id)}`] };
  const entries = (desired as unknown as Record<string, unknown>)[rule.unit];
  if (!Array.isArray(entries)) return { addresses: [rule.unit] };
  const named = (entries as Array<Record<string, unknown>>).find((e) => e && (e.id === target.id || (target.label !== undefined && (e[rule.field] === target.label || e.renamedFrom === target.label))));
  const value = named?.[rule.field];
  return typeof value === 'string' ? { addresses: [`${rule.unit}${key(value)}`] } : { addresses: [rule.unit] };
}

/** Path words of the API and the object types of their items (the innermost is a request's object). */
const PATH_TYPES: Record<string, string> = {
  orgs: 'organization',
  teams: 'team',
  members: 'member',
  spaces: 'space',
  collections: 'collection',
  sites: 'site',
  sections: 'site-section',
  'section-groups': 'site-section-group',
  'site-spaces': 'site-space',
  'share-links': 'share-link',
  redirects: 'site-redirect',
  'external-links': 'site-external-link',
  'mcp-servers': 'site-mcp-server',
  saml: 'saml-provider',
  translations: 'translation',
  integrations: 'integration',
  installations: 'installation',
  'link-invites': 'invite',
  fonts: 'font',
  openapi: 'openapi-spec',
};

/**
 * The object a request path is about: the innermost `word/id` pair, not past `permissions` (a
 * space's grants are the space's) nor a team's `members` (its membership is the team's).
 */
export function objectOfPath(path: string): { type: string; id: string } | undefined {
  const parts = path.split('?')[0].split('/').filter((p) => p !== '' && p !== 'v1');
  let found: { type: string; id: string } | undefined;
  for (let i = 0; i + 1 < parts.length; i++) {
    const word = parts[i];
    if (word === 'permissions') break;
    if (word === 'members' && found?.type === 'team') break;
    const type = PATH_TYPES[word];
    if (type === undefined) continue;
    const id = parts[i + 1];
    if (id.startsWith('{{')) break;
    try {
      found = { type, id: decodeURIComponent(id) };
    } catch {
      found = { type, id };
    }
    i++;
  }
  return found;
}

/** What a step is about, for matching events: its remote id, the objects of its requests, its address. */
export interface StepLike {
  address: string;
  remoteId?: string;
  requests: ReadonlyArray<{ path: string }>;
}

/** Whether an event's target is the object a step changes. */
export function touches(step: StepLike, target: AuditEvent['target']): boolean {
  if (target.type === 'organization') return step.address === 'organization' || step.address.startsWith('organization.');
  if (step.remoteId !== undefined && step.remoteId === target.id) return true;
  if (step.address.includes(key(target.id))) return true;
  return step.requests.some((r) => {
    const o = objectOfPath(r.path);
    return o !== undefined && o.id === target.id && o.type === target.type;
  });
}
