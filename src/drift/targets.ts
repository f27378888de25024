/**
 * From an audit event's target (`{type, id, label}`) to what docplane reads and plans: the addresses
 * it can touch. Targets decide, never action names (the live description lists none). A target
 * names its object by the API's object type (`team`, `space`, `site-section`) and id; each unit says
 * in the registry which types are its objects and how one narrows the read (`KindUnit.audit`):
 * spaces and sites by id (`spaces["ID"]`), teams and the other kinds keyed by a name by their natural
 * key (`teams["Writers"]`, else the whole unit: a renamed or new one), objects inside a site every
 * site of the config, the other units the unit (a few lists).
 *
 * A type no unit claims maps to nothing docplane knows: the caller reads everything.
 */
import type { OrgConfig } from '../config/types.js';
import { AUDIT_PATH_TYPES, AUDIT_TARGETS } from '../kinds/index.js';
import { key } from '../model/address.js';
import type { AuditEvent } from './audit.js';

/** The target types docplane maps (for the documentation and the tests). */
export const MAPPED_TARGET_TYPES = [...AUDIT_TARGETS.keys()];

export type Mapping = { addresses: string[] } | { unknown: string };

/** The addresses an event's target can touch in one organization's config. */
export function mapTarget(desired: OrgConfig, target: AuditEvent['target']): Mapping {
  const rule = AUDIT_TARGETS.get(target.type);
  if (rule === undefined || target.id === '') return { unknown: `an event's target (${target.type} ${target.id}) maps to nothing docplane knows` };
  const { unit, target: by } = rule;
  if (by.by === 'unit') return { addresses: [unit] };
  if (by.by === 'id') return { addresses: [`${unit}${key(target.id)}`] };
  const entries = (desired as unknown as Record<string, unknown>)[unit];
  if (!Array.isArray(entries)) return { addresses: [unit] };
  const named = (entries as Array<Record<string, unknown>>).find((e) => e && (e.id === target.id || (target.label !== undefined && (e[by.field] === target.label || e.renamedFrom === target.label))));
  const value = named?.[by.field];
  return typeof value === 'string' ? { addresses: [`${unit}${key(value)}`] } : { addresses: [unit] };
}

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
    const type = AUDIT_PATH_TYPES.get(word);
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
