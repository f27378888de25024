/** The audit log: every accepted write recorded, the three audit operations, 403 without an Enterprise plan. */
import { describe, expect, it } from 'vitest';
import { ORG, demoState, useEmulator, client } from './helpers.js';
import { refusedRequestsExpected } from '../conformance/session.js';

refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const start = useEmulator();

/** The demo world with a person in the app (Bob, source ui) and an integration's token. */
function stateWithPeople() {
  const state = demoState();
  return {
    ...state,
    tokens: [...(state.tokens ?? []), { token: 'bob-app', access: 'write' as const, user: 'u_bob', source: 'ui' as const }, { token: 'bot', access: 'write' as const, user: 'u_bob', source: 'integration' as const }],
  };
}

describe('audit log', () => {
  it('records each write with actor, source, target and an action, newest first', async () => {
    const api = await start({ state: stateWithPeople() });
    const bob = client(api.emu, 'bob-app');
    const team = (await api.put(`${ORG}/teams`, { title: 'Writers' })).body;
    expect((await bob.put(`${ORG}/teams/${team.id}/members`, { add: ['u_heidi'] })).status).toBeLessThan(300);
    expect((await bob.patch('/v1/spaces/space_api', { title: 'API' })).status).toBe(200);
    const events = (await api.get(`${ORG}/audit-events?limit=100`)).body.items;
    expect(events.map((e: any) => [e.action, e.source, e.actor.id, e.target.type, e.target.id, e.target.label])).toEqual([
      ['space.updated', 'ui', 'u_bob', 'space', 'space_api', 'API'],
      ['team.members.updated', 'ui', 'u_bob', 'team', team.id, 'Writers'],
      ['team.created', 'api', 'u_alice', 'team', team.id, 'Writers'],
    ]);
    expect(events[0]).toMatchObject({ object: 'audit-event', actor: { type: 'user', label: 'Bob' }, urls: { location: expect.stringContaining('/audit-events/') } });
    // Filters: target, actor, action, a window.
    expect((await api.get(`${ORG}/audit-events?target=${team.id}`)).body.items).toHaveLength(2);
    expect((await api.get(`${ORG}/audit-events?actor=u_alice`)).body.items).toHaveLength(1);
    expect((await api.get(`${ORG}/audit-events?action=space.updated`)).body.items).toHaveLength(1);
    expect((await api.get(`${ORG}/audit-events?to=2000-01-01T00:00:00Z`)).body.items).toHaveLength(0);
    expect((await api.get(`${ORG}/audit-events?from=${encodeURIComponent(events[0].occurredAt)}`)).body.items.length).toBeGreaterThanOrEqual(1);
    // One event, with its details; the actions known.
    const one = (await api.get(`${ORG}/audit-events/${events[0].id}`)).body;
    expect(one).toMatchObject({ id: events[0].id, schemaVersion: 1, payload: { fields: ['title'] } });
    expect(typeof one.correlationId).toBe('string');
    const actions = (await api.get(`${ORG}/audit-event-actions`)).body.items.map((a: any) => a.id);
    expect(actions).toEqual(['space.updated', 'team.created', 'team.members.updated']);
  });

  it('pages up to 100 events, and refuses more', async () => {
    const api = await start();
    for (let i = 0; i < 5; i++) await api.patch('/v1/spaces/space_api', { title: `API ${i}` });
    const first = (await api.get(`${ORG}/audit-events?limit=2`)).body;
    expect(first.items.map((e: any) => e.target.label)).toEqual(['API 4', 'API 3']);
    const second = (await api.get(`${ORG}/audit-events?limit=2&page=${first.next.page}`)).body;
    expect(second.items.map((e: any) => e.target.label)).toEqual(['API 2', 'API 1']);
    expect((await api.get(`${ORG}/audit-events?limit=101`)).status).toBe(400);
    expect((await api.get(`${ORG}/audit-events?from=yesterday`)).status).toBe(400);
    // Twenty by default.
    expect((await api.get(`${ORG}/audit-events`)).body.items).toHaveLength(5);
  });

  it('records an integration\'s change as the integration\'s, and nothing for a refused write', async () => {
    const api = await start({ state: stateWithPeople() });
    const bot = client(api.emu, 'bot');
    await bot.patch('/v1/spaces/space_api', { title: 'By the bot' });
    expect((await api.patch('/v1/spaces/space_api', { title: '' })).status).toBe(400);
    const events = (await api.get(`${ORG}/audit-events`)).body.items;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ source: 'integration', actor: { type: 'integration', id: 'u_bob' } });
  });

  it('answers 403 for an organization without the audit log, and GET /user names the token\'s user', async () => {
    const state = demoState();
    const api = await start({ state: { ...state, organizations: state.organizations!.map((o, i) => (i === 0 ? { ...o, auditLog: false } : o)) } });
    const refused = await api.get(`${ORG}/audit-events`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('Enterprise');
    expect((await api.get(`${ORG}/audit-event-actions`)).status).toBe(403);
    expect((await api.get('/v1/user')).body).toMatchObject({ object: 'user', id: 'u_alice', displayName: 'Alice Admin' });
  });
});
