/**
 * OpenAPI specs (`openapiSpecs["billing-api"]`), by slug. Created and given a new source with PUT
 * ORG/openapi/SLUG (createOrUpdateOpenAPISpecBySlug: a URL the API fetches, or the spec's text), their
 * visibility set with PATCH (updateOpenAPISpecBySlug), deleted when pruned (deleteOpenAPISpecBySlug).
 *
 * What can be compared is what the API returns: a URL source with the spec's `sourceURL`; a text
 * source with the raw text of the latest version (getLatestOpenAPISpecVersionContentRaw, one read per
 * text spec that exists), exactly. What a URL serves is never read: `--replace` sends the PUT again,
 * and the API fetches the URL anew. A plan shows a text by its digest, never whole.
 */
import { ApiError } from '../../core/errors.js';
import { sha256 } from '../../core/json.js';
import { key, matchesAny } from '../../model/address.js';
import type { JsonObject, RequestSpec } from '../../model/step.js';
import { enc, orgPath } from '../common/paths.js';
import { analyse } from '../common/analyse.js';
import { step } from '../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec, type Reader } from '../kind.js';
import { OpenAPISpecAnswer, OpenAPISpecRawAnswer } from './answers.js';
import type { OpenAPISpecT } from './schema.js';

export interface RemoteSpec {
  id: string;
  slug: string;
  sourceURL?: string;
  visibility?: string;
  lastVersion?: string;
  processingState?: string;
  lastProcessErrorCode?: string;
}

export interface RemoteSpecs {
  specs: RemoteSpec[];
  /** Slug → the raw text of the latest version (null: the API has none), for the text specs of the config that exist. */
  texts: Record<string, string | null>;
}

export const specAddress = (slug: string): string => `openapiSpecs${key(slug)}`;
export const specsPath = (org: string): string => `${orgPath(org)}/openapi`;
const specPath = (org: string, slug: string): string => `${specsPath(org)}/${enc(slug)}`;

/** A spec's text as a plan shows it: its digest and size (the text may be long, and comes from a file). */
export function textDigest(text: string): string {
  return `sha256:${sha256(text).slice(0, 12)} (${Buffer.byteLength(text, 'utf8')} bytes)`;
}

/** The organization's specs: one list (listOpenAPISpecs). */
export function readSpecs(ctx: Reader): Promise<RemoteSpec[]> {
  return ctx.client.listAll<RemoteSpec>(specsPath(ctx.org), {}, { schema: OpenAPISpecAnswer });
}

/** The raw text of a spec's latest version; null when it has none yet (404). */
export async function readSpecText(ctx: Reader, slug: string): Promise<string | null> {
  try {
    const res = await ctx.client.request<{ text: string }>('GET', `${specPath(ctx.org, slug)}/versions/latest/content/raw`, { schema: OpenAPISpecRawAnswer });
    return res.body.text;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/** The specs, and the texts of those `wantsText` names (a text source compares with them). */
export async function readSpecsWithTexts(ctx: Reader, wantsText: (spec: RemoteSpec) => boolean): Promise<RemoteSpecs> {
  const specs = await readSpecs(ctx);
  const texts: Record<string, string | null> = {};
  await Promise.all(
    specs.filter(wantsText).map(async (s) => {
      texts[s.slug] = await readSpecText(ctx, s.slug);
    }),
  );
  return { specs, texts };
}

function normalized(r: RemoteSpec): JsonObject {
  return { id: r.id, slug: r.slug, sourceURL: r.sourceURL ?? null, visibility: r.visibility ?? null, lastVersion: r.lastVersion ?? null };
}

/** The source as a plan shows it. */
function shownSource(source: OpenAPISpecT['source']): JsonObject {
  return 'url' in source ? { url: source.url } : { text: textDigest(source.text) };
}

/** The remote source as a plan shows it, in the terms of the desired one. */
function remoteSource(r: RemoteSpec, text: string | null | undefined, wantsText: boolean): JsonObject {
  if (wantsText) return { text: text === null || text === undefined ? null : textDigest(text) };
  return r.sourceURL !== undefined ? { url: r.sourceURL } : { url: null };
}

export const openapiSpecsModule: KindSpec<RemoteSpecs | undefined> = {
  kind: 'openapiSpecs',
  label: { one: 'OpenAPI spec', many: 'OpenAPI specs' },
  prunable: true,
  // A URL's content cannot be read back: --replace sends the source again, and the API fetches it anew.
  replaceable: true,
  addresses: (org) => (org.openapiSpecs ?? []).map((s) => specAddress(s.slug)),
  count: (org) => org.openapiSpecs?.length ?? 0,

  async read(ctx) {
    const desired = ctx.desired.openapiSpecs;
    if (desired === undefined) return undefined;
    const textual = new Set(desired.filter((d) => 'text' in d.source).map((d) => d.slug));
    return ctx.shared('openapiSpecs', () => readSpecsWithTexts(ctx, (s) => textual.has(s.slug)));
  },

  plan(ctx, remote): KindPlan {
    const desired = ctx.desired.openapiSpecs;
    if (desired === undefined || remote === undefined) return emptyKindPlan();
    const notes: string[] = [];
    const kp = analyse<OpenAPISpecT, RemoteSpec>(ctx.org, desired, remote.specs, {
      kind: 'openapiSpecs',
      what: 'OpenAPI specs',
      address: specAddress,
      desiredKey: (d) => d.slug,
      remoteKey: (r) => r.slug,
      remoteId: (r) => r.id,
      prune: ctx.prunes('openapiSpecs'),
      fingerprint: (r) => {
        const text = remote.texts[r.slug];
        return desired.some((d) => d.slug === r.slug) ? { ...normalized(r), text: text === undefined || text === null ? null : sha256(text) } : normalized(r);
      },
      observe: (r): JsonObject => (r.visibility === undefined ? {} : { visibility: r.visibility }),
      create(d, address) {
        const path = specPath(ctx.org, d.slug);
        const put: RequestSpec = { method: 'PUT', path, body: { source: d.source } };
        const patch: RequestSpec[] = d.visibility === undefined ? [] : [{ method: 'PATCH', path, body: { visibility: d.visibility } }];
        // The API does not say which visibility a new spec gets: a given one is set after the PUT.
        return [step({ address, kind: 'openapiSpecs', action: 'create', before: null, after: { source: shownSource(d.source), ...(d.visibility ? { visibility: d.visibility } : {}) }, requests: [put, ...patch] })];
      },
      update(d, r, address) {
        const path = specPath(ctx.org, d.slug);
        if (r.lastProcessErrorCode !== undefined) notes.push(`${address}: the API could not process its latest version (${r.lastProcessErrorCode}); see it in the app`);
        const wantsText = 'text' in d.source;
        const text = remote.texts[d.slug];
        const sourceDiffers = 'url' in d.source ? r.sourceURL !== d.source.url : text !== d.source.text;
        const forced = matchesAny(ctx.replace ?? [], ctx.org, address);
        const visibilityDiffers = d.visibility !== undefined && r.visibility !== d.visibility;
        if (!sourceDiffers && !visibilityDiffers && !forced) return [];
        const before: JsonObject = {};
        const after: JsonObject = {};
        if (sourceDiffers || forced) {
          before.source = remoteSource(r, text, wantsText);
          after.source = shownSource(d.source);
        }
        if (visibilityDiffers) {
          before.visibility = r.visibility ?? null;
          after.visibility = d.visibility ?? null;
        }
        return [step({
          address,
          kind: 'openapiSpecs',
          action: 'update',
          before,
          after,
          requests: [...(sourceDiffers || forced ? [{ method: 'PUT' as const, path, body: { source: d.source } }] : []), ...(visibilityDiffers ? [{ method: 'PATCH' as const, path, body: { visibility: d.visibility ?? null } }] : [])],
          remoteId: r.id,
          ...(forced && !sourceDiffers ? { notes: ['source: sent again (--replace): the API makes a new version from it'] } : {}),
        })];
      },
      remove: (r) => ({
        before: { slug: r.slug, ...(r.sourceURL !== undefined ? { source: { url: r.sourceURL } } : {}), visibility: r.visibility ?? null },
        requests: [{ method: 'DELETE', path: specPath(ctx.org, r.slug) }],
      }),
    }).plan;
    if (notes.length > 0) kp.notes = [...notes, ...(kp.notes ?? [])];
    return kp;
  },
};
