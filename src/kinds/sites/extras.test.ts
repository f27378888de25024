/** Plans of a site's redirects, customization and publishing auth (redirects.ts, customization.ts, publishing-auth.ts). */
import { describe, expect, it } from 'vitest';
import type { Kind } from '../../model/step.js';
import type { DraftStep } from '../kind.js';
import { overlayCustomization } from './customization.js';
import { planSite, type SitePlans } from './plan.js';
import { parsePublishingAuth } from './publishing-auth-read.js';
import { parseRedirect } from './redirects-read.js';
import { sitePath, structureSite, type RemoteSite } from './remote.js';
import { Site, type SiteT } from './schema.js';

const ORG = 'org_acme';
const BASE = '/v1/orgs/org_acme/sites/site_docs';
const A = 'sites["site_docs"]';

const ext = (url: string) => ({ kind: 'external', url });

function remote(extra: Partial<Pick<RemoteSite, 'redirects' | 'customization' | 'publishingAuth'>>): RemoteSite {
  return { ...structureSite('site_docs', { type: 'sections', structure: [] }, []), ...extra };
}

const redirect = (id: string, source: string, url: string, more: Record<string, unknown> = {}) =>
  parseRedirect({ object: 'site-redirect', id, source, destination: ext(url), draft: false, captureWildcard: false, permanent: false, createdAt: 'x', ...more });

function plan(site: Omit<SiteT, 'id'>, current: RemoteSite, prune: Kind[] = []): SitePlans {
  return planSite({ org: ORG, site: { id: 'site_docs', ...site }, remote: current, prunes: (k) => prune.includes(k), base: sitePath(ORG, 'site_docs') });
}

const steps = (p: SitePlans): DraftStep[] => [...p.redirects.steps, ...p.customization.steps, ...p.publishingAuth.steps];
const summary = (p: SitePlans) => steps(p).map((s) => `${s.action} ${s.address}`);

describe('redirects', () => {
  const cases: Array<{ name: string; config: SiteT['redirects']; remote: ReturnType<typeof redirect>[]; prune?: Kind[]; steps: string[]; requests?: unknown[]; unmanaged?: string[] }> = [
    { name: 'nothing when as configured', config: [{ source: '/old', destination: 'https://x.test/new' }], remote: [redirect('r1', '/old', 'https://x.test/new')], steps: [] },
    {
      name: 'creates a missing redirect with the fields it sets (a URL is an external destination)',
      config: [{ source: '/old', destination: 'https://x.test/new', permanent: true }],
      remote: [],
      steps: [`create ${A}.redirects["/old"]`],
      requests: [{ method: 'POST', path: `${BASE}/redirects`, body: { source: '/old', destination: ext('https://x.test/new'), permanent: true } }],
    },
    {
      name: 'updates only the fields that differ',
      config: [{ source: '/old', destination: { kind: 'site-section', siteSectionId: 'sec1' }, permanent: false, captureWildcard: true }],
      remote: [redirect('r1', '/old', 'https://x.test/new')],
      steps: [`update ${A}.redirects["/old"]`],
      requests: [{ method: 'PATCH', path: `${BASE}/redirects/r1`, body: { destination: { kind: 'site-section', siteSectionId: 'sec1' }, captureWildcard: true } }],
    },
    {
      name: 'names an unlisted redirect unmanaged when redirects are not pruned',
      config: [],
      remote: [redirect('r1', '/gone', 'https://x.test/')],
      steps: [],
      unmanaged: [`${A}.redirects["/gone"]`],
    },
    {
      name: 'deletes an unlisted redirect when redirects are pruned',
      config: [],
      remote: [redirect('r1', '/gone', 'https://x.test/')],
      prune: ['redirects'],
      steps: [`delete ${A}.redirects["/gone"]`],
      requests: [{ method: 'DELETE', path: `${BASE}/redirects/r1` }],
    },
    {
      name: 'a second redirect with the same source (live and draft) gets its own address',
      config: [],
      remote: [redirect('r1', '/x', 'https://x.test/'), redirect('r2', '/x', 'https://y.test/', { draft: true })],
      steps: [],
      unmanaged: [`${A}.redirects["/x"]`, `${A}.redirects["/x#r2"]`],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = plan({ redirects: c.config }, remote({ redirects: c.remote }), c.prune);
      expect(summary(p)).toEqual(c.steps);
      if (c.requests) expect(steps(p).flatMap((s) => s.requests).map(({ method, path, body }) => (body === undefined ? { method, path } : { method, path, body }))).toEqual(c.requests);
      expect(p.redirects.unmanaged).toEqual(c.unmanaged ?? []);
      expect(p.redirects.remoteCount).toBe(c.remote.length);
    });
  }

  it('plans nothing for a site whose config has no redirects (they are not read)', () => {
    const p = plan({}, remote({}));
    expect(summary(p)).toEqual([]);
    expect(p.redirects.unmanaged).toEqual([]);
  });

  it('refuses a source the API refuses', () => {
    for (const source of ['old', '/*', '/a/*/b', '/a b', `/${'a'.repeat(512)}`]) {
      expect(Site.safeParse({ id: 's', redirects: [{ source, destination: 'https://x.test' }] }).success, source).toBe(false);
    }
    expect(Site.safeParse({ id: 's', redirects: [{ source: '/docs/*', destination: { kind: 'site-space', siteSpaceId: 'ss1' } }] }).success).toBe(true);
  });
});

describe('customization', () => {
  const doc = {
    title: 'Docs',
    styling: { theme: 'clean', primaryColor: { light: '#111111', dark: '#222222' }, corners: 'rounded', font: 'Inter' },
    favicon: { emoji: '📘' },
    pagination: { enabled: true },
    socialAccounts: [],
  };

  const cases: Array<{ name: string; config: SiteT['customization']; changes: Array<{ path: string; before: unknown; after: unknown }> }> = [
    { name: 'nothing when the fields it sets are as read', config: { title: 'Docs', styling: { corners: 'rounded' } }, changes: [] },
    {
      name: 'a nested field: its path',
      config: { styling: { primaryColor: { light: '#ff0000', dark: '#222222' } } },
      changes: [{ path: 'styling.primaryColor.light', before: '#111111', after: '#ff0000' }],
    },
    {
      name: 'a one-of object is replaced whole',
      config: { favicon: { icon: { light: 'https://x.test/l.png', dark: 'https://x.test/d.png' } } },
      changes: [
        { path: 'favicon.emoji', before: '📘', after: undefined },
        { path: 'favicon.icon', before: undefined, after: { light: 'https://x.test/l.png', dark: 'https://x.test/d.png' } },
      ],
    },
    { name: 'a field the document lacks', config: { trademark: { enabled: false } }, changes: [{ path: 'trademark.enabled', before: null, after: false }] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = plan({ customization: c.config }, remote({ customization: doc }));
      const changes = p.customization.steps.flatMap((s) => s.changes).map((ch) => ({ path: ch.path, before: ch.before, after: ch.after }));
      expect(changes.map((ch) => ch.path)).toEqual(c.changes.map((ch) => ch.path));
      if (c.changes.length > 0) expect(summary(p)).toEqual([`update ${A}.customization`]);
    });
  }

  it('the PUT keeps every field the config does not set, as read', () => {
    const p = plan({ customization: { styling: { primaryColor: { light: '#ff0000', dark: '#222222' } } } }, remote({ customization: doc }));
    const [req] = p.customization.steps[0].requests;
    expect(req).toMatchObject({ method: 'PUT', path: `${BASE}/customization` });
    expect(req.body).toEqual({ ...doc, styling: { ...doc.styling, primaryColor: { light: '#ff0000', dark: '#222222' } } });
  });

  it('overlay merges objects and replaces one-of objects, arrays and scalars', () => {
    expect(overlayCustomization({ a: { b: 1, c: 2 }, favicon: { emoji: 'x' }, l: [1] }, { a: { b: 3 }, favicon: { icon: 'y' }, l: [2] })).toEqual({
      a: { b: 3, c: 2 },
      favicon: { icon: 'y' },
      l: [2],
    });
  });

  it('an unknown key is a config error', () => {
    const r = Site.safeParse({ id: 's', customization: { styling: { primaryColour: { light: '#fff', dark: '#000' } } } });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain('primaryColour');
  });
});

describe('publishing auth', () => {
  const read = (o: Record<string, unknown>) => parsePublishingAuth({ object: 'publishing-auth', privateKey: 'SECRET-KEY-123', ...o });

  it('changes the backend and a URL: PATCH with the backend always in the body', () => {
    const p = plan({ publishingAuth: { backend: 'integration', fallbackURL: 'https://x.test/login' } }, remote({ publishingAuth: read({ backend: 'custom' }) }));
    expect(summary(p)).toEqual([`update ${A}.publishingAuth`]);
    expect(p.publishingAuth.steps[0].requests).toEqual([{ method: 'PATCH', path: `${BASE}/publishing/auth`, body: { backend: 'integration', fallbackURL: 'https://x.test/login' } }]);
    expect(p.publishingAuth.steps[0].notes?.[0]).toContain('visitor-auth');
  });

  it('unsets a URL with null; nothing when as configured', () => {
    expect(summary(plan({ publishingAuth: { backend: 'custom', logoutURL: 'https://x.test/out' } }, remote({ publishingAuth: read({ backend: 'custom', logoutURL: 'https://x.test/out' }) })))).toEqual([]);
    const p = plan({ publishingAuth: { backend: 'custom', logoutURL: null } }, remote({ publishingAuth: read({ backend: 'custom', logoutURL: 'https://x.test/out' }) }));
    expect(p.publishingAuth.steps[0].requests[0].body).toEqual({ backend: 'custom', logoutURL: null });
  });

  it('a change on a site the config gives another visibility carries a note (the API keeps it; import writes it as it is)', () => {
    const site = { publishingAuth: { backend: 'integration' as const }, visibility: 'public' } as Omit<SiteT, 'id'>;
    const p = plan(site, remote({ publishingAuth: read({ backend: 'custom' }) }));
    expect(p.publishingAuth.problems).toEqual([]);
    expect(p.publishingAuth.steps[0].notes).toEqual([expect.stringContaining('visibility is "public": this publishing auth has no effect')]);
  });

  it('the private key reaches no plan: not in the steps, their JSON or the fingerprints', () => {
    const p = plan({ publishingAuth: { backend: 'integration' } }, remote({ publishingAuth: read({ backend: 'custom' }) }));
    expect(p.publishingAuth.steps).toHaveLength(1);
    expect(JSON.stringify(p)).not.toContain('SECRET-KEY-123');
    expect(JSON.stringify(read({}))).not.toContain('SECRET');
  });
});
