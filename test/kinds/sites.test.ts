/**
 * The site itself (kind `sites`): matched by id, else by renamedFrom or title; created, updated field
 * by field, published and unpublished, deleted only when pruned and then refused without --force.
 */
import { describe, expect, it } from 'vitest';
import { sharedPlans, type DraftStep, type PlanContext } from '../../src/kinds/kind.js';
import { planSites, type SitePlans } from '../../src/kinds/sites/plan.js';
import { structureSite, type RemoteSite, type SitesRemote } from '../../src/kinds/sites/remote.js';
import { Site, type SiteT } from '../../src/kinds/sites/schema.js';
import { parseSiteInfo, type RemoteSiteInfo } from '../../src/kinds/shared/sites.js';
import type { OrgConfig } from '../../src/model/desired.js';
import { buildPlan } from '../../src/plan/build.js';
import { assertApplicable } from '../../src/plan/refusal.js';

const ORG = 'org_acme';
const SITES = '/v1/orgs/org_acme/sites';

function info(over: Record<string, unknown> = {}): RemoteSiteInfo {
  return parseSiteInfo({ id: 'site_docs', title: 'Docs', type: 'ultimate', visibility: 'public', published: false, defaultLevel: 'inherit', adaptiveContent: { enabled: false }, ...over });
}

/** A structure with sections `a` (default) and `b`. */
function structure(id = 'site_docs'): RemoteSite {
  const section = (sid: string, path: string, isDefault: boolean) => ({
    object: 'site-section',
    id: sid,
    title: path.toUpperCase() + path,
    path,
    default: isDefault,
    siteSpaces: [{ object: 'site-space', id: `ss_${path}`, path, space: { id: `space_${path}` } }],
  });
  return structureSite(id, { type: 'sections', structure: [section('sec_a', 'a', true), section('sec_b', 'b', false)] }, []);
}

function config(sites: SiteT[], prune: string[] = []): OrgConfig {
  return { organization: { id: ORG }, sites, prune, safety: { maxDeletes: 10, maxDeletePercent: 25, keepSsoMembers: true }, protect: [], locations: {} };
}

function plan(sites: SiteT[], list: RemoteSiteInfo[], prune: string[] = []): SitePlans {
  const desired = config(sites, prune);
  const ctx: PlanContext = { org: ORG, desired, prunes: (k) => prune.includes(k), shared: sharedPlans() };
  const remote: SitesRemote = { list, sites: list.map((s) => ({ id: s.id, site: structure(s.id) })) };
  return planSites(ctx, remote);
}

const siteSteps = (p: SitePlans): DraftStep[] => p.sites.steps;
const brief = (s: DraftStep) => ({ address: s.address, action: s.action, requests: s.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body ?? null)}`) });

describe('sites: the site itself', () => {
  it.each([
    ['title', { title: 'Handbook' }, {}, { title: 'Handbook' }],
    ['visibility', { visibility: 'unlisted' }, {}, { visibility: 'unlisted' }],
    ['basename', { basename: 'help' }, { basename: 'docs' }, { basename: 'help' }],
    ['adaptiveContent', { adaptiveContent: true }, {}, { adaptiveContent: { enabled: true } }],
    ['defaultLevel', { defaultLevel: 'read' }, {}, { defaultLevel: 'read' }],
    ['proxy set', { proxy: 'acme.com/docs' }, {}, { proxy: 'acme.com/docs' }],
    ['proxy removed', { proxy: null }, { proxy: { origin: 'acme.com/docs', target: 'https://x' } }, { proxy: null }],
    ['default section', { defaultSection: 'b' }, {}, { defaultSiteSection: 'sec_b' }],
  ] as Array<[string, Partial<SiteT>, Record<string, unknown>, Record<string, unknown>]>)('updates %s with a PATCH of that field only', (_name, fields, remote, body) => {
    const p = plan([{ id: 'site_docs', ...fields }], [info(remote)]);
    expect(siteSteps(p).map(brief)).toEqual([{ address: 'sites["site_docs"]', action: 'update', requests: [`PATCH ${SITES}/site_docs ${JSON.stringify(body)}`] }]);
    expect(siteSteps(p)[0].changes).toHaveLength(1);
  });

  it('plans nothing when every field is as configured, the default section included', () => {
    const p = plan([{ id: 'site_docs', title: 'Docs', visibility: 'public', published: false, adaptiveContent: false, defaultLevel: 'inherit', proxy: null, defaultSection: 'a', type: 'ultimate' }], [info()]);
    expect(p.sites.steps).toEqual([]);
    expect(p.sites.problems).toEqual([]);
  });

  it.each([
    [true, false, 'publish'],
    [false, true, 'unpublish'],
  ])('published: %s on a site that is %s → POST …/%s', (want, is, path) => {
    const p = plan([{ id: 'site_docs', published: want }], [info({ published: is })]);
    expect(siteSteps(p).map(brief)).toEqual([{ address: 'sites["site_docs"]', action: 'publish', requests: [`POST ${SITES}/site_docs/${path} null`] }]);
  });

  it('publishes after the update', () => {
    const p = plan([{ id: 'site_docs', visibility: 'unlisted', published: true }], [info()]);
    expect(siteSteps(p).map((s) => s.action)).toEqual(['update', 'publish']);
    expect(siteSteps(p)[1].needs).toContain('sites["site_docs"]:update');
  });

  it('a differing type is a problem: the API cannot change it', () => {
    const p = plan([{ id: 'site_docs', type: 'basic' }], [info()]);
    expect(p.sites.problems.map((x) => x.message)).toEqual([
      "site site_docs is of type ultimate, the config says basic: the API cannot change a site's type (change it in the app, or remove type)",
    ]);
  });

  it('a site id the organization does not have is a problem naming it', () => {
    const p = plan([{ id: 'site_nope', sections: [{ path: 'a', title: 'A a', space: 'space_a' }] }], [info()]);
    expect(p.sites.problems.map((x) => [x.address, x.message])).toEqual([
      ['sites["site_nope"]', 'site site_nope does not exist in organization org_acme (check the id, or leave it out to create the site by title)'],
    ]);
    expect(p.sections.steps).toEqual([]);
    // The listed site the config does not name is unmanaged.
    expect(p.sites.unmanaged).toEqual(['sites["site_docs"]']);
  });

  it('matches a site without id by title, and by renamedFrom (then renames it)', () => {
    expect(plan([{ title: 'Docs', visibility: 'unlisted' }], [info()]).sites.steps.map(brief)).toEqual([
      { address: 'sites["Docs"]', action: 'update', requests: [`PATCH ${SITES}/site_docs {"visibility":"unlisted"}`] },
    ]);
    const renamed = plan([{ title: 'Handbook', renamedFrom: 'Docs' }], [info()]);
    expect(renamed.sites.steps.map(brief)).toEqual([{ address: 'sites["Handbook"]', action: 'update', requests: [`PATCH ${SITES}/site_docs {"title":"Handbook"}`] }]);
    expect(renamed.sites.unmanaged).toEqual([]);
  });

  it('creates a site no title matches; what is in it names it by the create ref and waits for it; publish comes last', () => {
    const p = plan(
      [{ title: 'New docs', type: 'premium', visibility: 'unlisted', basename: 'new', published: true, defaultSection: 'guides', sections: [{ path: 'guides', title: 'Guides', space: 'space_g' }], shareLinks: [{ name: 'partner' }] }],
      [],
    );
    const ref = '{{ref:org_acme/sites["New docs"]}}';
    expect(p.sites.steps.map(brief)).toEqual([
      {
        address: 'sites["New docs"]',
        action: 'create',
        requests: [`POST ${SITES} {"type":"premium","title":"New docs","visibility":"unlisted"}`, `PATCH ${SITES}/${ref} {"basename":"new"}`],
      },
      { address: 'sites["New docs"]', action: 'update', requests: [`PATCH ${SITES}/${ref} {"defaultSiteSection":"{{ref:org_acme/sites[\\"New docs\\"].sections[\\"guides\\"]}}"}`] },
      { address: 'sites["New docs"]', action: 'publish', requests: [`POST ${SITES}/${ref}/publish null`] },
    ]);
    expect(p.sites.steps[0].requests[0].lookup).toEqual({ path: SITES, match: { title: 'New docs' } });
    expect(p.sites.steps[1].needs).toEqual(['sites["New docs"]:create', 'sites["New docs"].sections["guides"]:create']);
    const section = p.sections.steps[0];
    expect(section.requests[0].path).toBe(`${SITES}/${ref}/sections`);
    expect(section.needs).toContain('sites["New docs"]:create');
    expect(p.shareLinks.steps[0].needs).toContain('sites["New docs"]:create');
    expect(p.sites.steps[2].needs).toEqual(expect.arrayContaining(['sites["New docs"]:create', 'sites["New docs"].sections["guides"]:create', 'sites["New docs"].shareLinks["partner"]:create']));
  });

  it('a default section that neither the config nor the site has is a problem', () => {
    const p = plan([{ id: 'site_docs', defaultSection: 'nope' }], [info()]);
    expect(p.sites.problems.map((x) => x.message)).toEqual(['defaultSection "nope" names no section of the config or of the site']);
  });

  it('two listed sites with the configured title: the first is managed, the other unmanaged under KEY#ID with a note', () => {
    const p = plan([{ title: 'Docs' }], [info(), info({ id: 'site_twin' })]);
    expect(p.sites.unmanaged).toEqual(['sites["Docs#site_twin"]']);
    expect(p.sites.notes?.[0]).toContain('sites["Docs"] matches site_docs, but site_twin has the same key');
  });

  describe('deletes', () => {
    const pruned = () => plan([{ title: 'Kept' }], [info(), info({ id: 'site_kept', title: 'Kept' })], ['sites']);
    const built = (p: SitePlans) =>
      buildPlan({
        toolVersion: 't',
        createdAt: '2024-01-01T00:00:00.000Z',
        configHash: 'x',
        configPaths: [],
        orgs: [{ org: ORG, kinds: { ...p }, safety: { maxDeletes: 10, maxDeletePercent: 100 }, protect: [] }],
      });

    it('a pruned twin of a site matched by title is deleted under KEY#ID, not at the managed site\'s address', () => {
      const p = plan([{ title: 'Docs', visibility: 'unlisted' }], [info(), info({ id: 'site_twin' })], ['sites']);
      expect(p.sites.steps.map((s) => `${s.action} ${s.address}`)).toEqual(['update sites["Docs"]', 'delete sites["Docs#site_twin"]']);
    });

    it('leaves a site the config does not name alone unless sites are pruned', () => {
      const p = plan([{ title: 'Kept' }], [info(), info({ id: 'site_kept', title: 'Kept' })]);
      expect(p.sites.steps).toEqual([]);
      expect(p.sites.unmanaged).toEqual(['sites["site_docs"]']);
    });

    it('deletes it when pruned, and the step says apply needs --force', () => {
      const p = pruned();
      expect(p.sites.steps.map(brief)).toEqual([{ address: 'sites["site_docs"]', action: 'delete', requests: [`DELETE ${SITES}/site_docs null`] }]);
      expect(p.sites.steps[0].notes?.[0]).toMatch(/^apply refuses this delete without --force: a site carries published content/);
    });

    it('apply refuses it without --force whatever the thresholds, and allows it with --force', () => {
      const plan = built(pruned());
      expect(plan.violations.map((v) => [v.rule, v.steps])).toEqual([['needsForce', ['org_acme/sites["site_docs"]:delete']]]);
      expect(() => assertApplicable(plan, { force: false })).toThrow(/needsForce: org_acme: deleting sites\["site_docs"\] needs --force/);
      expect(() => assertApplicable(plan, { force: true })).not.toThrow();
    });
  });

  describe('schema', () => {
    it.each([
      [{ title: 'Docs' }, true],
      [{ id: 'site_docs' }, true],
      [{ sections: [] }, false],
      [{ title: 'D' }, false],
      [{ title: 'Docs', visibility: 'secret' }, false],
      [{ title: 'Docs', proxy: 'not a url' }, false],
      [{ title: 'Docs', proxy: 'acme.com/docs' }, true],
      [{ title: 'Docs', renamedFrom: 'Docs' }, false],
      [{ title: 'Docs', type: 'ultimate', published: true, adaptiveContent: false, defaultLevel: 'inherit', basename: 'docs', defaultSection: 'a' }, true],
    ])('%j valid: %s', (entry, valid) => {
      expect(Site.safeParse(entry).success).toBe(valid);
    });

    it('names the title of a site with neither id nor title', () => {
      expect(Site.safeParse({ sections: [] }).error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['title', 'a site without id needs a title (its natural key)']]);
    });
  });
});
