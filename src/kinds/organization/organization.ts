/** Organization settings: one resource, `organization`, updated by PATCH ORG with the differing fields only. */
import { fingerprint } from '../../core/json.js';
import type { JsonObject, JsonValue } from '../../model/step.js';
import { compact, pickManaged, sameJson } from '../common/match.js';
import { emailsOf, namesReviewers, normalizeMergeRules, reviewersShown, reviewersToIds } from '../shared/merge-rules.js';
import { indexMembers, memberRefs, readMembers, type RemoteMember } from '../shared/members.js';
import { emptyKindPlan, type KindSpec, type Reader } from '../kind.js';
import { orgPath } from '../common/paths.js';
import { step } from '../common/step.js';
import { OrganizationAnswer } from './answers.js';

/** The settings the API lets PATCH ORG change and the config may manage. */
const FIELDS = ['title', 'emailDomains', 'hostname', 'defaultRole', 'sso', 'ai', 'inviteLinks', 'mergeRules', 'logo', 'defaultContent'] as const;

export interface RemoteOrganization {
  id: string;
  [field: string]: unknown;
}

/** Email domains are a set: compared sorted and lower-cased; review rules too, in any order. */
function normalizeField(field: string, value: JsonValue): JsonValue {
  if (field === 'emailDomains' && Array.isArray(value)) return [...value].map((d) => String(d).toLowerCase()).sort();
  if (field === 'mergeRules') return normalizeMergeRules(value);
  return value;
}

/**
 * The organization's settings in the config's terms: the logo is read from `urls.logo`, the default
 * content (`{type: site, site}`) is the site it names.
 */
export function organizationSettings(remote: RemoteOrganization): Record<string, unknown> {
  const urls = (remote.urls ?? {}) as { logo?: unknown };
  const content = remote.defaultContent as { site?: unknown } | null | undefined;
  return {
    ...remote,
    logo: typeof urls.logo === 'string' ? urls.logo : null,
    defaultContent: content && typeof content.site === 'string' ? { site: content.site } : null,
  };
}

/** The PATCH body of the differing settings: the API's shapes. */
function patchBody(after: JsonObject): JsonObject {
  const body = { ...after };
  const content = after.defaultContent as { site: string } | null | undefined;
  if (content) body.defaultContent = { type: 'site', site: content.site };
  return body;
}

/** The organization itself, read once per plan or import. */
export function readOrganization(ctx: Reader): Promise<RemoteOrganization> {
  return ctx.shared('organization', async () => (await ctx.client.request<RemoteOrganization>('GET', orgPath(ctx.org), { schema: OrganizationAnswer })).body);
}

/** The organization, and its members when the config's review rules name users (to resolve them to ids). */
export interface RemoteOrganizationState {
  organization: RemoteOrganization;
  members?: RemoteMember[];
}

export const organizationModule: KindSpec<RemoteOrganizationState | undefined> = {
  kind: 'organization',
  label: { one: 'organization setting', many: 'organization settings' },

  async read(ctx) {
    // Nothing to compare when the config gives only the id: no request.
    if (!FIELDS.some((f) => ctx.desired.organization[f] !== undefined)) return undefined;
    const [organization, members] = await Promise.all([readOrganization(ctx), namesReviewers(ctx.desired.organization.mergeRules) ? readMembers(ctx) : undefined]);
    return { organization, ...(members ? { members } : {}) };
  },

  plan(ctx, state) {
    const { id: _id, agentInstructions: _ai, ...settings } = ctx.desired.organization;
    const desired = compact(settings) as JsonObject;
    const kp = emptyKindPlan();
    if (state === undefined) return kp;
    const remote = state.organization;
    kp.remoteCount = 1;
    // Reviewers by email or id, as the user ids the API takes (and the emails a plan shows).
    let needs: string[] = [];
    const body: JsonObject = {};
    if (namesReviewers(desired.mergeRules)) {
      const memberOf = memberRefs(ctx.org, ctx.desired.members, indexMembers(state.members ?? []));
      const rules = reviewersToIds(desired.mergeRules, memberOf, ctx.org, 'organization');
      kp.problems.push(...rules.problems);
      if (rules.problems.length > 0) return kp;
      body.mergeRules = rules.body;
      desired.mergeRules = rules.shown;
      needs = rules.needs;
    }
    const managed = Object.keys(desired).filter((k) => (FIELDS as readonly string[]).includes(k));
    if (managed.length === 0) return kp;
    const current = pickManaged(organizationSettings(remote), desired);
    // The API's reviewers (user ids) as the plan shows them: by email where the member is known.
    const shownRules = state.members ? reviewersShown(current.mergeRules, emailsOf(state.members)) : current.mergeRules;
    const before: JsonObject = {};
    const after: JsonObject = {};
    for (const field of managed) {
      const want = field === 'mergeRules' && body.mergeRules !== undefined ? body.mergeRules : desired[field];
      if (!sameJson(normalizeField(field, current[field]), normalizeField(field, want))) {
        before[field] = field === 'mergeRules' ? (shownRules as JsonValue) : current[field];
        after[field] = desired[field];
      }
    }
    if (Object.keys(after).length === 0) return kp;
    kp.steps.push(step({
      address: 'organization',
      kind: 'organization',
      action: 'update',
      before,
      after,
      requests: [{ method: 'PATCH', path: orgPath(ctx.org), body: patchBody({ ...after, ...(after.mergeRules !== undefined && body.mergeRules !== undefined ? { mergeRules: body.mergeRules } : {}) }) }],
      needs,
      remoteId: ctx.org }));
    kp.fingerprints.organization = fingerprint(Object.fromEntries(managed.map((f) => [f, normalizeField(f, current[f])])));
    return kp;
  } };
