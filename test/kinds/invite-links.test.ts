/**
 * Invite links through the emulator, in process: created (to the organization, to a space and a
 * collection the same plan creates), applied and planned again to no changes; drift restored (a link
 * deleted behind docplane's back is made again, a level changed is set back); a second link to one
 * target; import round trip; prune; the reads; bad configs at file:line; and every exchange of these
 * endpoints against the live description. The links' ids never show in a plan.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { applyPlan } from '../../src/apply/executor.js';
import { loadConfig } from '../../src/config/load.js';
import { runValidate } from '../../src/config/validate.js';
import { formatConfigIssue } from '../../src/core/errors.js';
import { parseEmulatorState, startEmulator } from '../../src/emulator/server.js';
import { convertOrg, fileNamer } from '../../src/import/convert.js';
import { readOrgState } from '../../src/import/read.js';
import { configYaml } from '../../src/import/yaml.js';
import { planOrgs, runSecrets } from '../../src/plan/run.js';
import { serializePlan } from '../../src/plan/file.js';
import { renderPlan } from '../../src/render/index.js';
import { client as testClient } from '../emulator/helpers.js';
import { INVITE_LINKS_STATE as STATE } from './invite-links-state.js';
import { emulatorScenario } from './scenario.js';
import { inviteLinksModule, linkHandle } from '../../src/kinds/invite-links/invite-links.js';
import { orgConfig, planKind } from '../plan/fixtures.js';


const HEAD = 'version: 1\norganization: { id: org_acme }\n';
const STAGE_1 = `${HEAD}collections:
  - title: Archive
  - title: Engineering
spaces:
  - id: space_guides
  - { title: Handbook, collection: Engineering }
inviteLinks:
  - role: read
  - { space: space_guides, level: comment }
  - { space: Engineering/Handbook, level: edit }
  - { collection: Engineering, level: read }
`;

describe('invite links through the emulator', () => {
  const sc = emulatorScenario(STATE, 'invites');
  const { recorder } = sc;

  async function planFor(yaml: string) {
    const { config, plan } = await sc.planFor(yaml);
    return { config, plan, secrets: runSecrets(config, sc.client) };
  }

  const rowsOf = (plan: Awaited<ReturnType<typeof planFor>>['plan']) => plan.steps.map((s) => `${s.action} ${s.address}`);

  async function converge(yaml: string) {
    const planned = await planFor(yaml);
    expect(planned.plan.problems).toEqual([]);
    const result = await applyPlan(planned.plan, sc.client, { concurrency: 8, backoffBaseMs: 2 });
    expect(result.failed).toEqual([]);
    expect(result.skipped).toEqual([]);
    const again = await planFor(yaml);
    expect(rowsOf(again.plan)).toEqual([]);
    return planned;
  }

  const links = () => [...sc.emulator.world.orgs.get('org_acme')!.linkInvites.values()];
  const ids = () => links().map((l) => l.id);
  const linkTo = (where: { space?: string; collection?: string }) =>
    links().find((l) => (where.space ? l.space === where.space : where.collection ? l.collection === where.collection : l.space === undefined && l.collection === undefined));
  const collectionId = (title: string) => [...sc.emulator.world.collections.values()].find((c) => c.title === title)!.id;

  it('creates links to the organization, a space, and a space and collection the same plan creates; keeps the others', async () => {
    const { plan } = await converge(STAGE_1);
    expect(rowsOf(plan)).toEqual(
      expect.arrayContaining([
        'create inviteLinks["space:space_guides"]',
        'create inviteLinks["space:Engineering/Handbook"]',
        'create inviteLinks["collection:Engineering"]',
      ]),
    );
    expect(rowsOf(plan)).not.toContain('create inviteLinks["organization"]');
    const handbook = plan.steps.find((s) => s.address === 'inviteLinks["space:Engineering/Handbook"]')!;
    expect(handbook.dependsOn).toContain('org_acme/spaces["Engineering/Handbook"]:create');
    expect(handbook.requests[0].body).toEqual({ level: 'edit', space: '{{ref:org_acme/spaces["Engineering/Handbook"]}}' });
    expect(plan.steps.find((s) => s.address === 'inviteLinks["collection:Engineering"]')!.dependsOn).toContain('org_acme/collections["Engineering"]:create');
    // Not pruned: the link to space_old stays, counted as unmanaged.
    expect(plan.unmanaged.org_acme?.inviteLinks).toEqual(['inviteLinks["space:space_old"]']);
    expect(linkTo({ space: 'space_old' })).toBeDefined();
    expect(linkTo({ collection: collectionId('Engineering') })).toMatchObject({ level: 'read' });
  });

  it('restores a link deleted behind its back, and a level or role changed', async () => {
    const api = testClient(sc.emulator);
    const guides = linkTo({ space: 'space_guides' })!;
    expect((await api.del(`/v1/orgs/org_acme/link-invites/${guides.id}`)).status).toBe(205);
    const org = linkTo({})!;
    expect((await api.patch(`/v1/orgs/org_acme/link-invites/${org.id}`, { role: 'admin' })).status).toBe(200);
    const coll = linkTo({ collection: collectionId('Engineering') })!;
    expect((await api.patch(`/v1/orgs/org_acme/link-invites/${coll.id}`, { level: null })).status).toBe(200);
    const { plan } = await planFor(STAGE_1);
    expect(plan.steps.map((s) => [s.action, s.address, s.before, s.after]).sort((a, b) => String(a[1]).localeCompare(String(b[1])))).toEqual([
      ['update', 'inviteLinks["collection:Engineering"]', { collection: 'Engineering', level: null }, { collection: 'Engineering', level: 'read' }],
      ['update', 'inviteLinks["organization"]', { role: 'admin' }, { role: 'read' }],
      ['create', 'inviteLinks["space:space_guides"]', null, { space: 'space_guides', level: 'comment' }],
    ]);
    await converge(STAGE_1);
    expect(linkTo({})).toMatchObject({ id: org.id, role: 'read' });
    expect(linkTo({ collection: collectionId('Engineering') })).toMatchObject({ id: coll.id, level: 'read' });
  });

  it('plans one link with --target, reading no more than its kind needs', async () => {
    const org = linkTo({})!;
    await testClient(sc.emulator).patch(`/v1/orgs/org_acme/link-invites/${org.id}`, { role: 'comment' });
    const path = join(sc.dir, 'docplane.yaml');
    writeFileSync(path, STAGE_1);
    const config = await loadConfig({ path });
    const from = recorder.exchanges.length;
    const plan = await planOrgs(config, sc.client, { toolVersion: 'test', targets: ['inviteLinks["organization"]'] });
    expect(rowsOf(plan)).toEqual(['update inviteLinks["organization"]']);
    expect(recorder.exchanges.slice(from).filter((e) => e.path.includes('/link-invites'))).toHaveLength(1);
    await converge(STAGE_1);
  });

  it('never shows an id: not in the rendered plan, its JSON, the saved plan, nor its addresses', async () => {
    const org = linkTo({})!;
    await testClient(sc.emulator).patch(`/v1/orgs/org_acme/link-invites/${org.id}`, { role: 'edit' });
    const { plan, secrets } = await planFor(`${STAGE_1}prune: [inviteLinks]\n`);
    expect(rowsOf(plan)).toEqual(['update inviteLinks["organization"]', 'delete inviteLinks["space:space_old"]']);
    // In memory, the requests hold the ids (apply sends them); every output hides them.
    expect(plan.steps[0].requests[0].path).toBe(`/v1/orgs/org_acme/link-invites/${org.id}`);
    const outputs = [
      renderPlan(plan, { format: 'text', color: false, secrets, requests: true }),
      renderPlan(plan, { format: 'json', color: false, secrets }),
      renderPlan(plan, { format: 'markdown', color: false, secrets }),
      serializePlan(plan, secrets),
    ];
    for (const out of outputs) for (const id of ids()) expect(out).not.toContain(id);
    const saved = JSON.parse(serializePlan(plan, secrets)) as { steps: Array<{ requests: Array<{ path: string }> }> };
    expect(saved.steps[0].requests[0].path).toMatch(/^\/v1\/orgs\/org_acme\/link-invites\/\{\{secret:invite-link:org_acme\/organization#[0-9a-f]{8}\}\}$/);
    expect(renderPlan(plan, { format: 'json', color: false, secrets })).toContain('/link-invites/(sensitive)');
    await converge(STAGE_1);
  });

  it('a second link to one target: unmanaged and named by a hash, or deleted when pruned', async () => {
    const api = testClient(sc.emulator);
    const answer = await api.post('/v1/orgs/org_acme/link-invites', { level: 'read', space: 'space_guides' });
    expect(answer.status).toBe(201);
    const twin = answer.body.id as string;
    let { plan } = await planFor(STAGE_1);
    expect(rowsOf(plan)).toEqual([]);
    const at = plan.duplicates?.find((d) => d.startsWith('org_acme/inviteLinks["space:space_guides#'));
    expect(at).toMatch(/#[0-9a-f]{8}"\]$/);
    expect(JSON.stringify(plan.duplicates)).not.toContain(twin);
    expect(plan.notes?.join('\n')).toContain('has a second invite link');
    ({ plan } = await planFor(`${STAGE_1}prune: [inviteLinks]\n`));
    expect(rowsOf(plan)).toEqual([`delete ${at!.slice('org_acme/'.length)}`, 'delete inviteLinks["space:space_old"]']);
    await converge(`${STAGE_1}prune: [inviteLinks]\n`);
    expect(ids()).not.toContain(twin);
    expect(linkTo({ space: 'space_old' })).toBeUndefined();
  });

  it('imports the links by target, without ids; the import plans no changes, and two links to a target are one entry and a warning', async () => {
    await testClient(sc.emulator).post('/v1/orgs/org_acme/link-invites', { role: 'admin' });
    const written = convertOrg(await readOrgState(sc.client, 'org_acme', []), fileNamer());
    const doc = written.document as Record<string, unknown> & { inviteLinks: unknown[] };
    expect(doc.inviteLinks).toEqual(
      expect.arrayContaining([
        { collection: 'Engineering', level: 'read' },
        { role: expect.any(String) },
        { space: 'space_guides', level: 'comment' },
      ]),
    );
    expect(doc.inviteLinks).toHaveLength(4);
    const yaml = configYaml('org_acme', written.document);
    for (const id of ids()) expect(yaml).not.toContain(id);
    expect(written.warnings.join('\n')).toContain('inviteLinks["organization"]: the organization has 2 invite links to this target');
    const { plan } = await planFor(yaml);
    expect(plan.problems).toEqual([]);
    expect(rowsOf(plan)).toEqual([]);
    expect(plan.duplicates).toEqual([expect.stringMatching(/^org_acme\/inviteLinks\["organization#[0-9a-f]{8}"\]$/)]);
  });

  it('a link to a space of the organization by id, one to a space the config does not know, and to a collection nowhere', async () => {
    const { plan } = await planFor(`${HEAD}inviteLinks:\n  - { space: space_nope, level: read }\n  - { collection: Nowhere, level: read }\n`);
    expect(plan.problems.map((p) => `${p.location?.line}:${p.location?.column} ${p.address}: ${p.message}`).sort()).toEqual([
      '4:14 inviteLinks["space:space_nope"]: "space_nope" names no space, neither in the config nor in organization org_acme — did you mean "space_old" (Old)?',
      '5:19 inviteLinks["collection:Nowhere"]: "Nowhere" exists neither in the config nor in organization org_acme',
    ]);
  });

  it('reads the links only when the config names them; one list otherwise', async () => {
    let from = recorder.exchanges.length;
    await planFor(`${HEAD}spaces:\n  - id: space_guides\n`);
    expect(recorder.exchanges.slice(from).filter((e) => e.path.includes('/link-invites'))).toEqual([]);
    from = recorder.exchanges.length;
    await planFor(`${HEAD}inviteLinks:\n  - role: read\n  - { space: space_guides, level: comment }\n`);
    const reads = recorder.exchanges.slice(from).map((e) => `${e.method} ${e.path.split('?')[0]}`);
    // Besides the organization (every plan checks it exists): the links; the spaces, to check the id
    // of a space the config does not list; the collections, whose paths name the organization's link to one.
    expect(reads.filter((r) => !r.endsWith('/orgs/org_acme')).sort()).toEqual(['GET /v1/orgs/org_acme/collections', 'GET /v1/orgs/org_acme/link-invites', 'GET /v1/orgs/org_acme/spaces']);
  });

  const OWN = /link-invites/;

  it('sent and received only what the live description allows', () => {
    const own = recorder.problemCounts({ collapseIndices: true }).filter((p) => OWN.test(p.endpoint));
    expect(own.map((p) => `${p.endpoint}: ${p.problem.message}`)).toEqual([]);
    expect(recorder.summary().unknown).toBe(0);
    expect(recorder.exchanges.filter((e) => OWN.test(e.path)).length).toBeGreaterThan(10);
  });
});

describe('a concealed value in the client', () => {
  it('is masked in its log lines and in the errors it raises, as the token is', async () => {
    const emulator = await startEmulator({ port: 0, state: parseEmulatorState(STATE) });
    const lines: string[] = [];
    const c = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 1, maxAttempts: 1, log: (l) => lines.push(l) });
    try {
      c.conceal?.({ name: 'invite-link:test', value: 'invite_seededOrgLink0001' });
      c.conceal?.({ name: 'invite-link:gone', value: 'invite_goneLinkSecret99' });
      await c.request('GET', '/v1/orgs/org_acme/link-invites/invite_seededOrgLink0001');
      const err = await c.request('PATCH', '/v1/orgs/org_acme/link-invites/invite_goneLinkSecret99', { body: { role: 'read' } }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toBe('PATCH /v1/orgs/org_acme/link-invites/(sensitive) → 404: no invite link (sensitive) in organization org_acme');
      expect(lines.join('\n')).toContain('GET /v1/orgs/org_acme/link-invites/(sensitive) → 200');
      expect(lines.join('\n')).not.toMatch(/invite_seeded|invite_gone/);
      expect(c.concealed?.().map((x) => x.name)).toEqual(['invite-link:test', 'invite-link:gone']);
    } finally {
      await c.close();
      await emulator.close();
    }
  });
});

describe('bad invite links are config errors at file:line', () => {
  async function errorsOf(links: string, extra = ''): Promise<string[]> {
    const d = mkdtempSync(join(tmpdir(), 'docplane-invites-bad-'));
    try {
      writeFileSync(join(d, 'docplane.yaml'), `${HEAD}${extra}inviteLinks:\n${links}`);
      const result = await runValidate({ path: join(d, 'docplane.yaml') });
      if (result.valid) return [];
      const issues = (result.error as { issues?: Parameters<typeof formatConfigIssue>[0][] }).issues ?? [];
      return issues.map((i) => formatConfigIssue({ ...i, file: 'docplane.yaml', message: i.message.replaceAll(`${d}/`, '') }));
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  }

  it.each([
    ['the organization without role', '  - {}\n', 'docplane.yaml:4:5: inviteLinks[0]: role is missing'],
    ['level on the organization', '  - { role: read, level: edit }\n', 'docplane.yaml:4:26: inviteLinks[0].level: the organization\'s invite link takes role, not level'],
    ['a space without level', '  - { space: space_guides }\n', 'docplane.yaml:4:5: inviteLinks[0]: level is missing'],
    ['role on a space', '  - { space: space_guides, role: read, level: read }\n', 'docplane.yaml:4:34: inviteLinks[0].role: a space\'s invite link takes level, not role'],
    ['two targets', '  - { space: space_guides, collection: Archive, level: read }\n', 'docplane.yaml:4:40: inviteLinks[0].collection: an invite link has one target'],
    ['an unknown role', '  - { role: owner }\n', 'docplane.yaml:4:13: inviteLinks[0].role'],
    ['two entries for one target', '  - { role: read }\n  - { role: edit }\n', 'docplane.yaml:5:5: inviteLinks[1]: the invite link to the organization is defined twice: here and at docplane.yaml:4:5'],
    ['a space the config does not list by Collection/Title', '  - { space: Product/Intro, level: read }\n', 'docplane.yaml:4:14: inviteLinks[0].space: "Product/Intro" names no space in this config'],
  ])('%s', async (_what, links, expected) => {
    const errors = await errorsOf(links);
    expect(errors.some((e) => e.startsWith(expected)), errors.join('\n')).toBe(true);
  });

  it('a collection the config does not list, when it lists its collections', async () => {
    const errors = await errorsOf('  - { collection: Engneering, level: read }\n', 'collections:\n  - title: Engineering\n');
    expect(errors).toEqual([
      'docplane.yaml:6:19: inviteLinks[0].collection: "Engneering" names no collection in this config: the config lists its collections (collections are named by their path of titles, like "Product/API") — did you mean "Engineering"?',
    ]);
  });
});

describe('the link the config manages among several to one target', () => {
  // Ids whose hashes sort one way, then the other: the link that gives the wanted role is managed
  // whichever comes first.
  const [a, b] = ['invite_first', 'invite_second'].sort((x, y) => (linkHandle(x) < linkHandle(y) ? -1 : 1));
  for (const [wanted, other] of [[a, b], [b, a]]) {
    it(`is the one that gives what the config wants (${wanted === a ? 'first' : 'second'} by hash): no update, the other a twin`, () => {
      const links = [{ id: other, role: 'edit' }, { id: wanted, role: 'read' }];
      const kp = planKind(inviteLinksModule, orgConfig({ inviteLinks: [{ role: 'read' }] }), { links });
      expect(kp.steps).toEqual([]);
      expect(kp.duplicates).toEqual([`inviteLinks["organization#${linkHandle(other)}"]`]);
      expect(JSON.stringify(kp)).not.toContain(other);
      expect(kp.observed).toEqual({ 'inviteLinks["organization"]': { role: 'read' } });
    });
  }
});
