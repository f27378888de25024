/**
 * Masking before rendering. Two layers, because neither alone is enough:
 * - values the config marked as secret (`${env:…}`, `${file:…}`) are found wherever they appear, by
 *   value (maskSecrets);
 * - fields that are sensitive by their name (`certificate`, `secrets.*`, `script`) are masked whatever
 *   their value is, so a secret the config wrote as a literal, or one the API returned, never shows.
 */
import { MASK, maskSecrets, type Secret } from '../core/secrets.js';
import type { FieldChange, JsonObject, JsonValue, Plan, RequestSpec, Step } from '../plan/types.js';

/** A plan whose sensitive values are masked: the only input the renderers accept. */
export type MaskedPlan = Plan & { readonly __masked: true };

/** `(script, 12 lines)`: says that the script changes and roughly how big it is, never what it holds. */
export function scriptSummary(script: string): string {
  const lines = script === '' ? 0 : script.replace(/\r?\n$/, '').split(/\r?\n/).length;
  return `(script, ${lines} ${lines === 1 ? 'line' : 'lines'})`;
}

/** Whether a rendered string is one of the masks (renderers show those unquoted). */
export function isMaskText(value: string): boolean {
  return value === MASK || /^\(script, \d+ lines?\)$/.test(value);
}

function maskScript(value: JsonValue): JsonValue {
  if (value === null) return null;
  return typeof value === 'string' ? scriptSummary(value) : MASK;
}

function maskSecretsField(value: JsonValue): JsonValue {
  // The names of an integration's secrets are not secret, and show which ones change.
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const out: JsonObject = {};
    for (const k of Object.keys(value)) out[k] = MASK;
    return out;
  }
  return value === null ? null : MASK;
}

/** A copy of `value` with every member named certificate, secrets or script masked, at any depth. */
export function maskSensitiveFields(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(maskSensitiveFields);
  if (value && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'certificate') out[k] = v === null ? null : MASK;
      else if (k === 'secrets') out[k] = maskSecretsField(v);
      else if (k === 'script') out[k] = maskScript(v);
      else out[k] = maskSensitiveFields(v);
    }
    return out;
  }
  return value;
}

/**
 * How a change at this dotted path must be masked: paths come from diffFields (`a.b[2]`,
 * `members["x"].role`). Only field names count, not bracketed keys: `members["script"]` is a member.
 */
export function sensitivityOfPath(path: string): 'secret' | 'secrets' | 'script' | null {
  const names = path.replace(/\[[^\]]*\]/g, '.').split('.').filter((s) => s.length > 0);
  const secretsAt = names.indexOf('secrets');
  if (names.includes('certificate')) return 'secret';
  if (secretsAt >= 0) return secretsAt === names.length - 1 && !/\]$/.test(path) ? 'secrets' : 'secret';
  if (names.includes('script')) return 'script';
  return null;
}

function maskChangeValue(value: JsonValue | undefined, how: ReturnType<typeof sensitivityOfPath>): JsonValue | undefined {
  if (value === undefined) return undefined;
  switch (how) {
    case 'secret':
      return value === null ? null : MASK;
    case 'secrets':
      return maskSecretsField(value);
    case 'script':
      return maskScript(value);
    default:
      return maskSensitiveFields(value);
  }
}

function maskChange(change: FieldChange): FieldChange {
  const how = sensitivityOfPath(change.path);
  const out: FieldChange = { path: change.path, kind: change.kind };
  if ('before' in change) out.before = maskChangeValue(change.before, how);
  if ('after' in change) out.after = maskChangeValue(change.after, how);
  return out;
}

function maskRequest(request: RequestSpec): RequestSpec {
  return request.body === undefined ? { ...request } : { ...request, body: maskSensitiveFields(request.body) };
}

function maskObject(value: JsonObject | null): JsonObject | null {
  return value === null ? null : (maskSensitiveFields(value) as JsonObject);
}

function maskStep(step: Step): Step {
  return {
    ...step,
    before: maskObject(step.before),
    after: maskObject(step.after),
    changes: step.changes.map(maskChange),
    requests: step.requests.map(maskRequest),
  };
}

/** A copy of the plan fit to show: sensitive fields masked by name, then secret values by value. */
export function maskPlan(plan: Plan, secrets: readonly Secret[]): MaskedPlan {
  const byName: Plan = { ...plan, steps: plan.steps.map(maskStep) };
  return maskSecrets(byName, secrets) as MaskedPlan;
}
