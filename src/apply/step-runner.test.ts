/** The step runner through applyPlan: ids of created resources flow into later requests. */
import { describe, expect, it } from 'vitest';
import { applyPlan } from './executor.js';
import { FakeClient, makePlan, makeStep, ok, teamCreate } from './fake-client.test-support.js';
import { keepFields, referencedFields } from './tokens.js';

const ORG = 'org_t';

describe('applyPlan: ids flow through refs', () => {
  it('fills ids, other fields (#path) and a step’s own id into paths, queries and bodies', async () => {
    const client = new FakeClient((call) => {
      if (call.method === 'PUT' && call.path === `/v1/orgs/${ORG}/teams`) {
        return ok({ id: 'team/1 x', title: 'Eng}}#ineering', urls: { location: 'https://x/t' }, tags: [{ n: 7 }] }, 201);
      }
      if (call.method === 'POST' && call.path === `/v1/orgs/${ORG}/collections`) return ok({ id: 'col_9' }, 201);
      return ok({});
    });
    const team = teamCreate(ORG, 'Eng}}#ineering');
    const teamRef = `{{ref:${ORG}/${team.address}}}`;
    const members = makeStep(ORG, `${team.address}.members`, 'update', [
      {
        method: 'PUT',
        path: `/v1/orgs/${ORG}/teams/${teamRef}/members`,
        query: { team: teamRef },
        body: { id: teamRef, link: `see ${`{{ref:${ORG}/${team.address}#urls.location}}`}`, n: `{{ref:${ORG}/${team.address}#tags.0.n}}` },
      },
    ], [team.id], 'teamMembers');
    const collection = makeStep(ORG, 'collections["Product"]', 'create', [
      { method: 'POST', path: `/v1/orgs/${ORG}/collections`, body: { title: 'Product' }, capture: true, lookup: { path: `/v1/orgs/${ORG}/collections`, match: { title: 'Product' } } },
      { method: 'PATCH', path: `/v1/collections/{{ref:${ORG}/collections["Product"]}}`, body: { description: 'd' } },
    ], [], 'collections');
    const result = await applyPlan(makePlan([team, members, collection]), client, { concurrency: 2 });
    expect(result.failed).toEqual([]);
    const put = client.calls.find((c) => c.path.endsWith('/members'))!;
    expect(put.path).toBe(`/v1/orgs/${ORG}/teams/team%2F1%20x/members`);
    expect(put.query).toEqual({ team: 'team/1 x' });
    expect(put.body).toEqual({ id: 'team/1 x', link: 'see https://x/t', n: 7 });
    expect(client.calls.map((c) => c.path)).toContain('/v1/collections/col_9');
  });

  it('takes the id from the Location header when the create answers without a body', async () => {
    const client = new FakeClient((call) => {
      if (call.method === 'PUT') return ok(undefined, 201, { location: `https://api.example/v1/orgs/${ORG}/teams/team_loc` });
      return ok(undefined, 204);
    });
    const team = teamCreate(ORG, 'Eng');
    const members = makeStep(ORG, 'teams["Eng"].members', 'update', [{ method: 'PUT', path: `/v1/orgs/${ORG}/teams/{{ref:${ORG}/teams["Eng"]}}/members`, body: {} }], [team.id]);
    const result = await applyPlan(makePlan([team, members]), client, { concurrency: 2 });
    expect(result.failed).toEqual([]);
    expect(client.calls[1].path).toBe(`/v1/orgs/${ORG}/teams/team_loc/members`);
  });

  it('fails a step whose ref cannot be resolved with a clear message, and the others go on', async () => {
    const client = new FakeClient(() => ok({}));
    const bad = makeStep(ORG, 'teams["X"].members', 'update', [{ method: 'PUT', path: `/v1/orgs/${ORG}/teams/{{ref:${ORG}/teams["Nope"]}}/members` }]);
    const noId = makeStep(ORG, 'teams["Y"]', 'create', [{ method: 'POST', path: '/y', capture: true }]);
    const needsY = makeStep(ORG, 'teams["Y"].members', 'update', [{ method: 'PUT', path: `/y/{{ref:${ORG}/teams["Y"]}}` }], [noId.id]);
    const fine = makeStep(ORG, 'teams["Z"]', 'update', [{ method: 'PATCH', path: '/z' }]);
    const result = await applyPlan(makePlan([bad, noId, needsY, fine]), client, { concurrency: 2 });
    expect(result.failed.map((o) => [o.step, o.message])).toEqual([
      [bad.id, `cannot resolve {{ref:${ORG}/teams["Nope"]}}: no step of the plan creates ${ORG}/teams["Nope"]`],
      [needsY.id, `cannot resolve {{ref:${ORG}/teams["Y"]}}: the API's answer for ${ORG}/teams["Y"] has no id`],
    ]);
    expect(result.applied.map((o) => o.step)).toEqual([noId.id, fine.id]);
    expect(client.calls.some((c) => c.path.includes('{{'))).toBe(false);
  });

  it('never fills a {{secret:NAME}} text in: apply sends the values its steps hold', async () => {
    const client = new FakeClient(() => ok({}));
    const a = makeStep(ORG, 'integrations["a"]', 'publish', [{ method: 'POST', path: '/v1/integrations/a', body: { title: '{{secret:env:KEY}}' } }], [], 'integrations');
    const result = await applyPlan(makePlan([a]), client, { concurrency: 1 });
    expect(client.calls.map((c) => c.body)).toEqual([{ title: '{{secret:env:KEY}}' }]);
    expect(result.applied.map((o) => o.step)).toEqual([a.id]);
  });
});

describe('captured answers keep only what later requests refer to', () => {
  it('finds the fields each capturing step is referred to for, in paths, queries, bodies and lookups', () => {
    const a = `${ORG}/teams["A}}#x"]`;
    const b = `${ORG}/collections["B"]`;
    const steps = [
      { requests: [{ method: 'PUT' as const, path: `/t/{{ref:${a}}}/m`, query: { q: `{{ref:${b}#urls.app}}` } }] },
      { requests: [{ method: 'POST' as const, path: '/x', body: { n: [`{{ref:${a}#tags.0.n}}`], s: `see {{ref:${b}}} and {{ref:${b}#title}}` }, lookup: { path: '/l', match: { parent: `{{ref:${a}}}` } } }] },
    ];
    const fields = referencedFields(steps, new Set([a, b, `${ORG}/teams["C"]`]));
    expect(Object.fromEntries([...fields].map(([k, v]) => [k, [...v].sort()]))).toEqual({ [a]: ['id', 'tags.0.n'], [b]: ['id', 'title', 'urls.app'] });
  });

  it('keeps those fields of an answer, nested as they were, and nothing else', () => {
    const answer = { id: 'c1', title: 'B', urls: { app: 'https://a', published: 'https://p' }, tags: [{ n: 7, m: 8 }], big: 'x'.repeat(1000) };
    expect(keepFields(answer, new Set(['id', 'urls.app', 'tags.0.n', 'missing.field']))).toEqual({ id: 'c1', urls: { app: 'https://a' }, tags: { 0: { n: 7 } } });
    expect(keepFields(answer, undefined)).toEqual({});
    expect(keepFields('plain', new Set(['id']))).toBe('plain');
  });
});

