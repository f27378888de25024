/** The resend policy through applyPlan: lookups before a create is resent, idempotent resends, 429 waits. */
import { describe, expect, it } from 'vitest';
import { applyPlan, type ApplyEvent } from './executor.js';
import { apiError, FakeClient, makePlan, makeStep, ok, teamCreate, type FakeCall } from './fake-client.test-support.js';

const ORG = 'org_t';

/** A small in-memory team store answering the team endpoints; `fail` decides per create call. */
function teamStore(fail: (call: FakeCall, n: number) => 'before' | 'after' | 429 | 400 | undefined = () => undefined) {
  const teams: { id: string; title: string }[] = [];
  let creates = 0;
  const handler = (call: FakeCall) => {
    if (call.method === 'GET' && call.path === `/v1/orgs/${ORG}/teams`) return ok({ items: teams.map((t) => ({ ...t })) });
    if ((call.method === 'PUT' || call.method === 'POST') && call.path === `/v1/orgs/${ORG}/teams`) {
      creates += 1;
      const fault = fail(call, creates);
      if (fault === 'before') throw apiError(call, 503, 'unavailable');
      if (fault === 429) throw Object.assign(apiError(call, 429, 'slow down'), { headers: { 'retry-after': '0.2' } });
      if (fault === 400) throw apiError(call, 400, 'title: is not valid');
      const team = { id: `team_${teams.length + 1}`, title: (call.body as { title: string }).title };
      teams.push(team);
      if (fault === 'after') throw apiError(call, 0, 'connection reset');
      return ok({ ...team, object: 'team' }, 201);
    }
    return ok(undefined, 204);
  };
  return { teams, handler, creates: () => creates };
}

describe('applyPlan: retries of creates', () => {
  const fast = { backoffBaseMs: 1 };

  it('sends POSTs and creates without the client’s retries, other requests with them', async () => {
    const client = new FakeClient(() => ok({ id: 'x' }));
    const steps = [
      teamCreate(ORG, 'A'),
      makeStep(ORG, 'collections["C"]', 'create', [{ method: 'POST', path: '/c', capture: true }], [], 'collections'),
      makeStep(ORG, 'spaces["s"]', 'move', [{ method: 'POST', path: '/v1/spaces/s/move', body: { parent: null } }], [], 'spaces'),
      makeStep(ORG, 'translations["s/fr"]', 'update', [{ method: 'POST', path: '/run' }], [], 'translations'),
      makeStep(ORG, 'teams["B"]', 'update', [{ method: 'PATCH', path: '/b' }]),
      makeStep(ORG, 'teams["D"]', 'delete', [{ method: 'DELETE', path: '/d' }]),
    ];
    await applyPlan(makePlan(steps), client, { concurrency: 1 });
    expect(client.calls.map((c) => [c.method, c.path, c.retry])).toEqual([
      ['PUT', `/v1/orgs/${ORG}/teams`, false],
      ['POST', '/c', false],
      ['POST', '/v1/spaces/s/move', false],
      ['POST', '/run', false],
      ['PATCH', '/b', true],
      ['DELETE', '/d', true],
    ]);
  });

  it('waits between attempts of a create with the client’s backoff: full jitter up to base·2^attempt, capped', async () => {
    const store = teamStore((_call, n) => (n <= 3 ? 'before' : undefined));
    const client = new FakeClient(store.handler);
    const events: ApplyEvent[] = [];
    const result = await applyPlan(makePlan([teamCreate(ORG, 'A')]), client, {
      concurrency: 1,
      backoffBaseMs: 4,
      maxWaitMs: 12,
      random: () => 0.5,
      onEvent: (e) => events.push(e),
    });
    expect(result.applied).toHaveLength(1);
    // Ceilings 8, 16 and 32, each capped at 12; half of each.
    expect(events.filter((e) => e.type === 'retry').map((e) => (e as { waitMs: number }).waitMs)).toEqual([4, 6, 6]);
    expect(store.teams.map((t) => t.title)).toEqual(['A']);
  });

  it('an idempotent POST (a move) is resent after an unclear outcome; refused as pointless then, it is done', async () => {
    let moved = false;
    let attempts = 0;
    const client = new FakeClient((call) => {
      attempts += 1;
      if (moved) throw apiError(call, 400, 'parent: already there (the move would not result in any update)');
      moved = true;
      throw apiError(call, 0, 'connection reset'); // the move happened, its answer was lost
    });
    const events: ApplyEvent[] = [];
    const move = makeStep(ORG, 'spaces["s"]', 'move', [{ method: 'POST', path: '/v1/spaces/s/move', body: { parent: 'c' } }], [], 'spaces');
    const result = await applyPlan(makePlan([move]), client, { ...fast, concurrency: 1, onEvent: (e) => events.push(e) });
    expect(result.applied.map((o) => o.step)).toEqual([move.id]);
    expect(attempts).toBe(2);
    expect(events.map((e) => e.type)).toEqual(['step-start', 'retry', 'taken-as-done', 'step-done']);
  });

  it('an idempotent POST refused at its first attempt fails: only a lost first attempt explains a refusal', async () => {
    const client = new FakeClient((call) => {
      throw apiError(call, 400, 'parent: already there');
    });
    const move = makeStep(ORG, 'spaces["s"]', 'move', [{ method: 'POST', path: '/v1/spaces/s/move', body: { parent: 'c' } }], [], 'spaces');
    const result = await applyPlan(makePlan([move]), client, { ...fast, concurrency: 1 });
    expect(result.failed[0].message).toBe('POST /v1/spaces/s/move → 400: parent: already there');
    expect(client.calls).toHaveLength(1);
  });

  it('a publish whose resend is refused fails: a publish sent again is accepted, so the refusal is real', async () => {
    let calls = 0;
    const client = new FakeClient((call) => {
      calls += 1;
      if (calls === 1) throw apiError(call, 503, 'unavailable');
      throw apiError(call, 400, 'scopes: required');
    });
    const publish = makeStep(ORG, 'integrations["a"]', 'publish', [{ method: 'POST', path: '/v1/integrations/a', body: {} }], [], 'integrations');
    const result = await applyPlan(makePlan([publish]), client, { ...fast, concurrency: 1 });
    expect(result.failed[0].message).toBe('POST /v1/integrations/a → 400: scopes: required');
  });

  it('an idempotent POST that keeps failing unclearly is tried 8 times (the client\'s budget), then fails', async () => {
    const client = new FakeClient((call) => {
      throw apiError(call, 502, 'bad gateway');
    });
    const move = makeStep(ORG, 'spaces["s"]', 'move', [{ method: 'POST', path: '/v1/spaces/s/move', body: { parent: 'c' } }], [], 'spaces');
    const result = await applyPlan(makePlan([move]), client, { ...fast, concurrency: 1 });
    expect(client.calls.map((c) => c.retry)).toEqual(Array(8).fill(false));
    expect(result.failed[0].message).toBe('POST /v1/spaces/s/move → 502: bad gateway');
  });

  it('an unclear create that did happen is found by lookup: no duplicate, and its id flows on', async () => {
    const store = teamStore((_call, n) => (n === 1 ? 'after' : undefined));
    const client = new FakeClient(store.handler);
    const team = teamCreate(ORG, 'Engineering');
    const members = makeStep(ORG, 'teams["Engineering"].members', 'update', [{ method: 'PUT', path: `/v1/orgs/${ORG}/teams/{{ref:${ORG}/teams["Engineering"]}}/members`, body: {} }], [team.id]);
    const events: ApplyEvent[] = [];
    const result = await applyPlan(makePlan([team, members]), client, { ...fast, concurrency: 2, onEvent: (e) => events.push(e) });
    expect(result.failed).toEqual([]);
    expect(store.teams).toEqual([{ id: 'team_1', title: 'Engineering' }]);
    expect(store.creates()).toBe(1);
    expect(client.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `PUT /v1/orgs/${ORG}/teams`,
      `GET /v1/orgs/${ORG}/teams`,
      `PUT /v1/orgs/${ORG}/teams/team_1/members`,
    ]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'lookup-found', id: 'team_1' }));
    expect(result.applied[0].requests).toBe(2);
  });

  it('an unclear create that did not happen is looked up, then sent again', async () => {
    const store = teamStore((_call, n) => (n <= 2 ? 'before' : undefined));
    const client = new FakeClient(store.handler);
    const events: ApplyEvent[] = [];
    const result = await applyPlan(makePlan([teamCreate(ORG, 'Support')]), client, { ...fast, concurrency: 1, onEvent: (e) => events.push(e) });
    expect(result.applied).toHaveLength(1);
    expect(store.teams).toEqual([{ id: 'team_1', title: 'Support' }]);
    expect(client.calls.map((c) => c.method)).toEqual(['PUT', 'GET', 'PUT', 'GET', 'PUT']);
    expect(events.filter((e) => e.type === 'retry').map((e) => (e as { attempt: number }).attempt)).toEqual([2, 3]);
  });

  it('gives up after 8 attempts, with the last error, when nothing is ever found', async () => {
    const store = teamStore(() => 'before');
    const client = new FakeClient(store.handler);
    const result = await applyPlan(makePlan([teamCreate(ORG, 'Never')]), client, { ...fast, concurrency: 1 });
    expect(store.creates()).toBe(8);
    expect(client.count('GET')).toBe(8);
    expect(result.failed[0].message).toBe(`PUT /v1/orgs/${ORG}/teams → 503: unavailable`);
    expect(store.teams).toEqual([]);
  });

  it('a clear refusal (400) of a create is not retried and not looked up', async () => {
    const store = teamStore(() => 400);
    const client = new FakeClient(store.handler);
    const result = await applyPlan(makePlan([teamCreate(ORG, 'Bad')]), client, { ...fast, concurrency: 1 });
    expect(client.calls).toHaveLength(1);
    expect(result.failed[0].message).toMatch(/400: title: is not valid/);
  });

  it('a 429 on a create waits as the API asks, then sends again', async () => {
    const store = teamStore((_call, n) => (n === 1 ? 429 : undefined));
    const client = new FakeClient(store.handler);
    const events: ApplyEvent[] = [];
    const began = performance.now();
    const result = await applyPlan(makePlan([teamCreate(ORG, 'Rate')]), client, { ...fast, concurrency: 1, onEvent: (e) => events.push(e) });
    expect(performance.now() - began).toBeGreaterThanOrEqual(190);
    expect(result.applied).toHaveLength(1);
    expect(client.calls.map((c) => c.method)).toEqual(['PUT', 'PUT']); // no lookup: a 429 means it did not act
    expect(store.teams).toHaveLength(1);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ reason: 'rate limited (429)', waitMs: 200 });
  });

  it('lookup matches every dotted field of `match`, with refs resolved', async () => {
    const items = [
      { id: 'sec_other', title: 'Guides', site: { id: 'site_x' } },
      { id: 'sec_ok', title: 'Guides', site: { id: 'site_1' } },
    ];
    let created = 0;
    const client = new FakeClient((call) => {
      if (call.method === 'GET' && call.path === '/sites') return ok({ items });
      if (call.method === 'GET') return ok({ items });
      if (call.path === '/site') return ok({ id: 'site_1' });
      if (call.method !== 'POST') return ok({});
      created += 1;
      throw apiError(call, 502, 'bad gateway');
    });
    const site = makeStep(ORG, 'sites["s"]', 'create', [{ method: 'POST', path: '/site', capture: true }], [], 'sections');
    const section = makeStep(ORG, 'sites["s"].sections["guides"]', 'create', [
      {
        method: 'POST',
        path: '/sections',
        body: { title: 'Guides' },
        capture: true,
        lookup: { path: '/sections', match: { title: 'Guides', 'site.id': `{{ref:${ORG}/sites["s"]}}` } },
      },
    ], [site.id], 'sections');
    const after = makeStep(ORG, 'sites["s"].sections["guides"]', 'update', [{ method: 'PATCH', path: `/sections/{{ref:${ORG}/sites["s"].sections["guides"]}}` }], [section.id], 'sections');
    const result = await applyPlan(makePlan([site, section, after]), client, { ...fast, concurrency: 1 });
    expect(result.failed).toEqual([]);
    expect(created).toBe(1);
    expect(client.calls.at(-1)?.path).toBe('/sections/sec_ok');
  });

  it('lookup: a field absent from an item matches null (top-level items have no parent)', async () => {
    const items = [
      { id: 'col_nested', title: 'API', parent: 'col_product' },
      { id: 'col_top', title: 'API' },
    ];
    const client = new FakeClient((call) => {
      if (call.method === 'GET') return ok({ items });
      throw apiError(call, 0, 'connection reset');
    });
    const create = makeStep(ORG, 'collections["API"]', 'create', [
      { method: 'POST', path: '/cols', body: { title: 'API' }, capture: true, lookup: { path: '/cols', match: { title: 'API', parent: null } } },
    ], [], 'collections');
    const after = makeStep(ORG, 'collections["API"]', 'update', [{ method: 'PATCH', path: `/c/{{ref:${ORG}/collections["API"]}}` }], [create.id], 'collections');
    const result = await applyPlan(makePlan([create, after]), client, { ...fast, concurrency: 1 });
    expect(result.failed.map((o) => o.step)).toEqual([after.id]); // the fake resets every write
    expect(client.calls.map((c) => c.path)).toEqual(['/cols', '/cols', '/c/col_top']);
  });

  it('lookup: a field of `refs` matches the id, or an object with that id; another shape is the API\'s mismatch', async () => {
    const answers: unknown[][] = [
      [{ space: 'space_other' }, { space: 'space_api' }],
      [{ space: { object: 'space', id: 'space_other' } }, { space: { object: 'space', id: 'space_api' } }],
      [{ space: 42 }],
    ];
    const run = async (items: unknown[]) => {
      const client = new FakeClient((call) => {
        if (call.method === 'GET') return ok({ items });
        throw apiError(call, 0, 'connection reset');
      });
      const enable = makeStep(ORG, 'things["t"].spaces["space_api"]', 'create', [
        { method: 'POST', path: '/things/spaces', body: { space: 'space_api' }, lookup: { path: '/things/spaces', match: { space: 'space_api' }, refs: ['space'] } },
      ], [], 'sections');
      const result = await applyPlan(makePlan([enable]), client, { ...fast, concurrency: 1 });
      return { result, posts: client.calls.filter((c) => c.method === 'POST').length };
    };
    for (const items of answers.slice(0, 2)) {
      const { result, posts } = await run(items);
      expect(result.failed).toEqual([]);
      expect(posts).toBe(1); // found by the lookup: not sent twice
    }
    const bad = await run(answers[2]);
    expect(bad.result.failed.map((f) => f.message)).toEqual(['GET /things/spaces answered 200 with an unexpected body: items[0].space: expected an id or an object with an id, got a number']);
  });

  it('lookup of a list answered in one piece (`reads: one`): one GET without limit nor page', async () => {
    const client = new FakeClient((call) => {
      if (call.method === 'GET') return ok({ items: [{ id: 'font_1', fontFamily: 'Acme Sans' }] });
      throw apiError(call, 0, 'connection reset');
    });
    const create = makeStep(ORG, 'fonts["Acme Sans"]', 'create', [
      { method: 'PUT', path: '/fonts', body: { fontFamily: 'Acme Sans' }, capture: true, lookup: { path: '/fonts', reads: 'one', match: { fontFamily: 'Acme Sans' } } },
    ], [], 'fonts');
    const result = await applyPlan(makePlan([create]), client, { ...fast, concurrency: 1 });
    expect(result.failed).toEqual([]);
    expect(client.calls.map((c) => `${c.method} ${c.path} ${JSON.stringify(c.query ?? {})}`)).toEqual(['PUT /fonts {}', 'GET /fonts {}']);
  });

  it('a lookup whose find holds a credential (`secrets: [id]`) makes it a secret of the run and never shows it', async () => {
    const client = new FakeClient((call) => {
      if (call.method === 'GET') return ok({ items: [{ id: 'k9', space: 's1', role: 'read' }] });
      throw apiError(call, 0, 'connection reset');
    });
    const concealed: string[] = [];
    Object.assign(client, { conceal: (s: { value: string }) => concealed.push(s.value) });
    const events: ApplyEvent[] = [];
    const create = makeStep(ORG, 'inviteLinks["space:s1#1"]', 'create', [
      { method: 'POST', path: '/links', body: { role: 'read' }, capture: true, lookup: { path: '/links', match: { space: 's1', role: 'read' }, secrets: ['id'] } },
    ], [], 'inviteLinks');
    const result = await applyPlan(makePlan([create]), client, { ...fast, concurrency: 1, onEvent: (e) => events.push(e) });
    expect(result.failed).toEqual([]);
    expect(concealed).toEqual(['k9']);
    const found = events.find((e) => e.type === 'lookup-found');
    expect(found).toBeDefined();
    expect(JSON.stringify(found)).not.toContain('"id":"k9"');
  });

  describe('a batch sent once that says how to check it (`verify`)', () => {
    /** A glossary answering its list, whose batch PUT fails as `fault` says for the nth PUT. */
    const glossary = (fault: (n: number) => 'before' | 'after' | 'elsewhere' | undefined) => {
      let entries = [{ id: 'g1', translations: { en: 'Old' } }];
      let puts = 0;
      const client = new FakeClient((call) => {
        if (call.method === 'GET') return ok({ items: entries });
        puts += 1;
        const f = fault(puts);
        if (f === 'before') throw apiError(call, 503, 'unavailable');
        entries = f === 'elsewhere' ? [{ id: 'g9', translations: { en: 'Someone else' } }] : [{ id: 'g2', translations: { en: 'New' } }];
        if (f !== undefined) throw apiError(call, 0, 'connection reset');
        return ok({}, 200);
      });
      const step = makeStep(ORG, 'glossary', 'update', [
        {
          method: 'PUT',
          path: '/glossary',
          body: { operations: [{ type: 'delete', id: 'g1' }, { type: 'insert', translations: { en: 'New' } }] },
          once: true,
          verify: { path: '/glossary', fields: ['translations'], before: [{ translations: { en: 'Old' } }], after: [{ translations: { en: 'New' } }] },
        },
      ], [], 'glossary');
      return { client, step, puts: () => puts };
    };

    it('an answer lost after the batch went through: the list shows its outcome, the step is done, nothing sent twice', async () => {
      const g = glossary((n) => (n === 1 ? 'after' : undefined));
      const events: ApplyEvent[] = [];
      const result = await applyPlan(makePlan([g.step]), g.client, { ...fast, concurrency: 1, onEvent: (e) => events.push(e) });
      expect(result.failed).toEqual([]);
      expect(g.puts()).toBe(1);
      expect(events.filter((e) => e.type === 'taken-as-done')).toHaveLength(1);
    });

    it('a batch that was not acted on (the list as before) is sent again', async () => {
      const g = glossary((n) => (n === 1 ? 'before' : undefined));
      const result = await applyPlan(makePlan([g.step]), g.client, { ...fast, concurrency: 1 });
      expect(result.failed).toEqual([]);
      expect(g.puts()).toBe(2);
    });

    it('a list in another state fails the step with the unclear answer, without sending again', async () => {
      const g = glossary((n) => (n === 1 ? 'elsewhere' : undefined));
      const result = await applyPlan(makePlan([g.step]), g.client, { ...fast, concurrency: 1 });
      expect(result.failed.map((f) => f.message)).toEqual([expect.stringContaining('connection reset')]);
      expect(g.puts()).toBe(1);
    });
  });
});
