/**
 * Integrations the organization publishes (`integrations["acme-analytics"]`). Publishing creates or
 * replaces the whole integration (its version goes up by one). The API never returns `script` and
 * `secrets`, so only the other fields can be compared: an integration is published when it is new,
 * when a comparable field differs, or when `--replace` names it. An integration the config does not
 * mention is unmanaged, or unpublished (unpublishIntegration, `DELETE /integrations/NAME`) when the
 * config prunes `integrations`: the platform then removes it from every organization that installed it.
 */
import type { IntegrationT } from './schema.js';
import { analyse, type Outcome } from '../common/analyse.js';
import { matchesAny, key } from '../../model/address.js';
import type { JsonObject, JsonValue } from '../../model/step.js';
import { diffFields } from '../common/match.js';
import { emptyKindPlan, type Reader, type KindPlan, type KindSpec } from '../kind.js';
import { enc } from '../common/paths.js';
import { step } from '../common/step.js';
import { lookAlikeNote } from '../common/text.js';
import { IntegrationAnswer } from './answers.js';

export interface RemoteIntegration {
  name: string;
  version?: number;
  [field: string]: unknown;
}

/** Fields the API returns, so that the config's value can be compared. */
const COMPARABLE = ['title', 'description', 'summary', 'visibility', 'target', 'scopes', 'categories', 'externalLinks', 'contentSecurityPolicy', 'blocks', 'contentSources', 'configurations'] as const;
/** Lists whose order means nothing. */
const SETS = new Set(['scopes', 'categories']);

export function integrationAddress(name: string): string {
  return `integrations${key(name)}`;
}

function comparable(field: string, value: unknown): JsonValue {
  if (value === undefined || value === null) return null;
  if (SETS.has(field) && Array.isArray(value)) return [...value].map(String).sort();
  // No configuration forms: the API's empty object and an absent field say the same.
  if (field === 'configurations' && typeof value === 'object' && Object.keys(value as object).length === 0) return null;
  if (field === 'externalLinks' && Array.isArray(value)) {
    return value.map((l) => ({ url: String((l as { url?: unknown }).url ?? ''), label: String((l as { label?: unknown }).label ?? '') }));
  }
  return value as JsonValue;
}

function normalized(r: RemoteIntegration): JsonObject {
  const out: JsonObject = { name: r.name, version: r.version ?? null };
  for (const f of COMPARABLE) out[f] = comparable(f, r[f]);
  if (typeof r.runtime === 'string') out.runtime = r.runtime;
  return out;
}

/** The publish request's body: the whole integration, as the config gives it. */
function publishBody(org: string, d: IntegrationT): JsonObject {
  const body: JsonObject = { title: d.title, description: d.description, scopes: d.scopes, script: d.script, organization: org };
  if (d.runtime !== undefined) body.runtime = d.runtime;
  if (d.summary !== undefined) body.summary = d.summary;
  if (d.visibility !== undefined) body.visibility = d.visibility;
  if (d.target !== undefined) body.target = d.target;
  if (d.categories !== undefined) body.categories = d.categories;
  if (d.externalLinks !== undefined) body.externalLinks = d.externalLinks;
  if (d.contentSecurityPolicy !== undefined) body.contentSecurityPolicy = d.contentSecurityPolicy;
  if (d.secrets !== undefined) body.secrets = d.secrets;
  if (d.icon !== undefined) body.icon = d.icon;
  if (d.previewImages !== undefined) body.previewImages = d.previewImages;
  if (d.blocks !== undefined) body.blocks = d.blocks as JsonValue;
  if (d.contentSources !== undefined) body.contentSources = d.contentSources as JsonValue;
  if (d.configurations !== undefined) body.configurations = d.configurations as JsonValue;
  return body;
}

/**
 * The first line of the script stub that `docplane import` writes (the API cannot return scripts).
 * Publishing a stub would replace the real script on the platform, so a plan refuses to.
 */
export const SCRIPT_STUB_MARKER = '// docplane import: the API does not return the script';

/** The integrations this organization owns: one list. */
export function readIntegrations(ctx: Reader): Promise<RemoteIntegration[]> {
  return ctx.client.listAll<RemoteIntegration>('/v1/integrations', { owner: ctx.org }, { schema: IntegrationAnswer });
}

export const integrationsModule: KindSpec<RemoteIntegration[] | undefined> = {
  kind: 'integrations',
  label: { one: 'integration', many: 'integrations' },
  prunable: true,
  // Unpublishing reaches beyond this organization: every organization that installed it loses it.
  deleteNeedsForce: 'unpublishing an integration removes it from every organization that installed it',
  replaceable: true,
  addresses: (org) => (org.integrations ?? []).map((i) => integrationAddress(i.name)),
  count: (org) => org.integrations?.length ?? 0,

  async read(ctx) {
    if (ctx.desired.integrations === undefined) return undefined;
    return readIntegrations(ctx);
  },

  plan(ctx, remote): KindPlan {
    const desired = ctx.desired.integrations;
    if (desired === undefined || remote === undefined) return emptyKindPlan();
    const unseen: string[] = [];

    // Publishing is the create and the update: one step either way.
    const entry = (d: IntegrationT, address: string, r?: RemoteIntegration): Outcome => {
      const forced = matchesAny(ctx.replace ?? [], ctx.org, address);
      const wanted: JsonObject = {};
      for (const f of COMPARABLE) if (d[f] !== undefined) wanted[f] = comparable(f, d[f]);
      // The runtime is compared only if the API says which one the integration has.
      if (d.runtime !== undefined && r && typeof r.runtime === 'string') wanted.runtime = d.runtime;
      const current: JsonObject = {};
      if (r) for (const f of Object.keys(wanted)) current[f] = comparable(f, r[f]);
      const changes = r ? diffFields(current, wanted, { externalLinks: 'url', blocks: 'id', contentSources: 'id' }) : diffFields({}, wanted);
      const hidden = [
        d.script !== undefined ? 'script' : undefined,
        d.secrets !== undefined ? 'secrets' : undefined,
        d.runtime !== undefined && !('runtime' in wanted) ? 'runtime' : undefined,
        d.icon !== undefined ? 'icon' : undefined,
        d.previewImages !== undefined ? 'previewImages' : undefined,
      ].filter(
        (f): f is string => f !== undefined,
      );
      const hiddenNote = `the API does not return ${hidden.join(' and ')}, so ${hidden.length > 1 ? 'they are' : 'it is'} not compared`;

      if (r && changes.length === 0 && !forced) {
        unseen.push(address);
        return [];
      }
      const notes: string[] = [];
      if (!r) notes.push('new integration: published for the first time', ...lookAlikeNote('integration title', d.title, remote.flatMap((x) => (typeof x.title === 'string' ? [x.title] : []))));
      else if (forced) notes.push('published because of --replace');
      if (r && hidden.length > 0) notes.push(`${hiddenNote}; publishing sends the config's values`);
      if (r) {
        // Publishing replaces the whole integration: what the config leaves out goes back to the default.
        const reset = COMPARABLE.filter((f) => d[f] === undefined && comparable(f, r[f]) !== null && !(Array.isArray(r[f]) && (r[f] as unknown[]).length === 0));
        if (reset.length > 0) notes.push(`publishing replaces the whole integration: ${reset.join(', ')} (not in the config) will be reset`);
      }
      if (d.script.startsWith(SCRIPT_STUB_MARKER)) {
        return { problems: [{
          org: ctx.org,
          address,
          message: 'its script is still the stub `docplane import` wrote; put the integration\'s real script in that file before anything publishes it',
        }] };
      }
      const after: JsonObject = { ...wanted, script: d.script };
      if (d.secrets !== undefined) after.secrets = d.secrets;
      return [step({
        address,
        kind: 'integrations',
        action: 'publish',
        before: r ? { ...current, version: (r.version ?? null) as JsonValue } : null,
        after,
        changes,
        requests: [{ method: 'POST', path: `/v1/integrations/${enc(d.name)}`, body: publishBody(ctx.org, d), capture: true }],
        ...(r ? { remoteId: r.name } : {}),
        notes,
      })];
    };

    const kp = analyse<IntegrationT, RemoteIntegration>(ctx.org, desired, remote, {
      kind: 'integrations',
      what: 'integrations',
      address: integrationAddress,
      desiredKey: (d) => d.name,
      remoteKey: (r) => r.name,
      remoteId: (r) => r.name,
      prune: ctx.prunes('integrations'),
      fingerprint: normalized,
      create: (d, address) => entry(d, address),
      update: (d, r, address) => entry(d, address, r),
      remove: (r) => ({
        before: { version: (r.version ?? null) as JsonValue, title: comparable('title', r.title), visibility: comparable('visibility', r.visibility) },
        requests: [{ method: 'DELETE', path: `/v1/integrations/${enc(r.name)}` }],
        notes: ['unpublished: the integration is removed from every organization that installed it'],
      }),
    }).plan;
    if (unseen.length > 0) {
      kp.notes = [
        `${unseen.join(', ')}: the API does not return an integration's script and secrets, so a change to them alone is not seen; ` +
          `to publish anyway, plan with --replace '${unseen[0]}'`,
      ];
    }
    return kp;
  },
};
