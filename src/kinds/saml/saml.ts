/**
 * SAML providers (`saml["Okta"]`): created with POST ORG/saml, updated with PATCH (differing fields
 * only), deleted when pruned. `defaultTeam` is a team title in the config and a team id in requests
 * (a ref when the team is created by the same plan). The certificate is a secret: compared only when
 * the API returns it; otherwise the plan says so and `--replace` sends it anyway.
 */
import { sha256 } from '../../core/json.js';
import { matchesAny, key } from '../../model/address.js';
import type { JsonObject, JsonValue } from '../../model/step.js';
import { sameJson } from '../common/match.js';
import { analyse, type Outcome } from '../common/analyse.js';
import { emptyKindPlan, type Reader, type KindPlan, type KindSpec } from '../kind.js';
import { enc, orgPath } from '../common/paths.js';
import { readTeams, teamAddress, teamIdsOrRefs, type RemoteTeam } from '../shared/teams.js';
import { step } from '../common/step.js';
import { lookAlikeNotes } from '../common/text.js';
import { SamlProviderAnswer } from './answers.js';
import type { SamlProviderT } from './schema.js';

export interface RemoteSamlProvider {
  id: string;
  label: string;
  entityID?: string;
  ssoURL?: string;
  certificate?: string;
  defaultTeam?: { id: string; title?: string } | null;
  defaultRole?: string | null;
}

export interface RemoteSaml {
  providers: RemoteSamlProvider[];
  /** Present when a provider of the config names a default team. */
  teams?: RemoteTeam[];
}

const PLAIN_FIELDS = ['label', 'entityID', 'ssoURL', 'defaultRole'] as const;

export function samlAddress(label: string): string {
  return `saml${key(label)}`;
}

/** Certificates compare by their content: line breaks and spaces do not count. */
function sameCertificate(a: string, b: string): boolean {
  return a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
}

function normalized(p: RemoteSamlProvider): JsonObject {
  return {
    id: p.id,
    label: p.label,
    entityID: p.entityID ?? null,
    ssoURL: p.ssoURL ?? null,
    defaultRole: p.defaultRole ?? null,
    defaultTeam: p.defaultTeam?.id ?? null,
    certificate: typeof p.certificate === 'string' ? sha256(p.certificate.replace(/\s+/g, '')) : null };
}

/** The organization's SAML providers: one list. */
export function readSamlProviders(ctx: Reader): Promise<RemoteSamlProvider[]> {
  return ctx.client.listAll<RemoteSamlProvider>(`${orgPath(ctx.org)}/saml`, {}, { schema: SamlProviderAnswer });
}

export const samlModule: KindSpec<RemoteSaml | undefined> = {
  kind: 'saml',
  label: { one: 'SAML provider', many: 'SAML providers' },
  prunable: true,
  replaceable: true,
  addresses: (org) => (org.saml ?? []).map((s) => samlAddress(s.label)),
  count: (org) => org.saml?.length ?? 0,

  async read(ctx) {
    const desired = ctx.desired.saml;
    if (desired === undefined) return undefined;
    const withTeam = desired.some((p) => typeof p.defaultTeam === 'string');
    const [providers, teams] = await Promise.all([
      readSamlProviders(ctx),
      withTeam ? readTeams(ctx) : Promise.resolve(undefined),
    ]);
    return { providers, teams };
  },

  plan(ctx, remote): KindPlan {
    const desired = ctx.desired.saml;
    if (desired === undefined || remote === undefined) return emptyKindPlan();
    const base = `${orgPath(ctx.org)}/saml`;
    const notes: string[] = [];
    const configTeams = new Set((ctx.desired.teams ?? []).map((t) => t.title));
    const teamIdOf = teamIdsOrRefs(ctx.org, ctx.desired.teams, remote.teams ?? []);

    const entry = (d: SamlProviderT, address: string, r?: RemoteSamlProvider): Outcome => {
      const needs: string[] = [];
      // defaultTeam: a title → the id to send (undefined: nothing to send).
      let teamId: string | null | undefined;
      if (d.defaultTeam === null) {
        // The API has no way to clear a provider's default team: only a create without one, or another team.
        if (r?.defaultTeam) {
          return { problems: [{
            org: ctx.org,
            address,
            message: `defaultTeam: null would clear the default team ("${r.defaultTeam.title ?? r.defaultTeam.id}"), which the API cannot do; name a team, or remove defaultTeam from the config to leave it unmanaged` }] };
        }
      }
      else if (typeof d.defaultTeam === 'string') {
        const title = d.defaultTeam;
        teamId = teamIdOf(title);
        if (teamId === undefined) {
          return { problems: [{ org: ctx.org, address, message: `defaultTeam "${title}" names no team, neither in the config nor in organization ${ctx.org}`, reference: { field: 'defaultTeam', key: title } }] };
        }
        if (!configTeams.has(title) && ctx.desired.teams !== undefined && ctx.prunes('teams')) {
          return { problems: [{ org: ctx.org, address, message: `defaultTeam "${title}" is not in the config, and teams are pruned: the plan deletes that team`, reference: { field: 'defaultTeam', key: title } }] };
        }
        if (configTeams.has(title)) needs.push(teamAddress(title));
      }
      const forced = matchesAny(ctx.replace ?? [], ctx.org, address);

      if (!r) {
        const body: JsonObject = { label: d.label };
        for (const f of ['entityID', 'ssoURL', 'certificate', 'defaultRole'] as const) if (d[f] !== undefined) body[f] = d[f] as JsonValue;
        if (teamId !== undefined) body.defaultTeam = teamId;
        const after: JsonObject = { ...body, ...(d.defaultTeam !== undefined ? { defaultTeam: d.defaultTeam } : {}) };
        return [step({
          address,
          kind: 'saml',
          action: 'create',
          before: null,
          after,
          requests: [{ method: 'POST', path: base, body, capture: true, lookup: { path: base, match: { label: d.label } } }],
          needs,
          ...lookAlikeNotes('SAML provider', d.label, remote.providers.map((p) => p.label)) })];
      }
      const before: JsonObject = {};
      const after: JsonObject = {};
      const body: JsonObject = {};
      for (const f of PLAIN_FIELDS) {
        const want = d[f];
        if (want === undefined) continue;
        const have = (r[f] ?? null) as JsonValue;
        if (forced || !sameJson(have, want)) {
          before[f] = have;
          after[f] = want;
          body[f] = want;
        }
      }
      if (teamId !== undefined && (forced || (r.defaultTeam?.id ?? null) !== teamId)) {
        before.defaultTeam = r.defaultTeam ? (r.defaultTeam.title ?? r.defaultTeam.id) : null;
        after.defaultTeam = d.defaultTeam as JsonValue;
        body.defaultTeam = teamId;
      }
      const stepNotes: string[] = [];
      let certNote: string | undefined;
      if (d.certificate !== undefined) {
        if (typeof r.certificate === 'string') {
          if (forced || !sameCertificate(r.certificate, d.certificate)) {
            before.certificate = r.certificate;
            after.certificate = d.certificate;
            body.certificate = d.certificate;
          }
        } else if (forced) {
          after.certificate = d.certificate;
          body.certificate = d.certificate;
          stepNotes.push('the certificate is sent because of --replace (the API does not return it, so it cannot be compared)');
        } else {
          certNote = `${address}: the API does not return the certificate, so it is not compared; to send it anyway, plan with --replace '${address}'`;
        }
      }
      if (Object.keys(body).length === 0) {
        if (certNote) notes.push(certNote);
        return [];
      }
      if (certNote) stepNotes.push(certNote.slice(address.length + 2));
      if (forced) stepNotes.push('forced by --replace');
      return [step({
        address,
        kind: 'saml',
        action: 'update',
        before,
        after,
        requests: [{ method: 'PATCH', path: `${base}/${enc(r.id)}`, body }],
        needs,
        remoteId: r.id,
        ...(stepNotes.length > 0 ? { notes: stepNotes } : {}) })];
    };

    const kp = analyse(ctx.org, desired, remote.providers, {
      kind: 'saml',
      what: 'SAML providers',
      address: samlAddress,
      desiredKey: (d) => d.label,
      remoteKey: (r) => r.label,
      remoteId: (r) => r.id,
      desiredId: (d) => d.id,
      renamedFrom: (d) => d.renamedFrom,
      prune: ctx.prunes('saml'),
      fingerprint: normalized,
      observe: (r) => ({ label: r.label, entityID: r.entityID ?? null, ssoURL: r.ssoURL ?? null, defaultRole: r.defaultRole ?? null }),
      create: (d, address) => entry(d, address),
      update: (d, r, address) => entry(d, address, r),
      remove: (r) => ({ before: { label: r.label, entityID: r.entityID ?? null, ssoURL: r.ssoURL ?? null }, requests: [{ method: 'DELETE', path: `${base}/${enc(r.id)}` }] }),
    }).plan;
    if (notes.length > 0) kp.notes = [...notes, ...(kp.notes ?? [])];
    return kp;
  } };

