/** The pieces of drift from the audit log: --since's time, targets to addresses, events to steps, the words. */
import { describe, expect, it } from 'vitest';
import { orgConfig } from '../../test/plan/fixtures.js';
import { byWhom } from './attribute.js';
import type { AuditEvent } from './audit.js';
import { parseSince, shortUtc } from './since.js';
import { mapTarget, objectOfPath, touches } from './targets.js';
import { changedByText } from './words.js';

const now = new Date('2026-11-28T12:00:00Z');

describe('parseSince', () => {
  it('reads an RFC 3339 time or a duration back from now', () => {
    expect(parseSince('2026-11-27T09:00:00Z', now).toISOString()).toBe('2026-11-27T09:00:00.000Z');
    expect(parseSince('2026-11-27T10:00:00+01:00', now).toISOString()).toBe('2026-11-27T09:00:00.000Z');
    expect(parseSince('70m', now).toISOString()).toBe('2026-11-28T10:50:00.000Z');
    expect(parseSince('1h30m', now).toISOString()).toBe('2026-11-28T10:30:00.000Z');
    expect(parseSince('7d', now).toISOString()).toBe('2026-11-21T12:00:00.000Z');
  });

  it('refuses what is neither, and the future, in one line', () => {
    expect(() => parseSince('yesterday', now)).toThrow('--since yesterday: not an RFC 3339 time (2026-11-27T09:00:00Z) nor a duration (70m, 2h, 7d)');
    expect(() => parseSince('2026-11-27', now)).toThrow(/not an RFC 3339 time/);
    expect(() => parseSince('2026-12-01T00:00:00Z', now)).toThrow('--since 2026-12-01T00:00:00Z: 2026-12-01T00:00:00.000Z is in the future');
    expect(shortUtc('2026-11-27T10:32:59Z')).toBe('2026-11-27 10:32 UTC');
  });
});

describe('mapTarget', () => {
  const desired = orgConfig({ teams: [{ title: 'Writers', members: [] }, { title: 'Ops', id: 'team_ops' }] as never });

  it('maps spaces and sites by id, teams by id or label, and site parts to every site', () => {
    expect(mapTarget(desired, { type: 'space', id: 'space_api' })).toEqual({ addresses: ['spaces["space_api"]'] });
    expect(mapTarget(desired, { type: 'site', id: 'site_docs' })).toEqual({ addresses: ['sites["site_docs"]'] });
    expect(mapTarget(desired, { type: 'team', id: 'team_w', label: 'Writers' })).toEqual({ addresses: ['teams["Writers"]'] });
    expect(mapTarget(desired, { type: 'team', id: 'team_ops', label: 'Operations' })).toEqual({ addresses: ['teams["Ops"]'] });
    // A team renamed or made in the app: the whole kind.
    expect(mapTarget(desired, { type: 'team', id: 'team_x', label: 'New' })).toEqual({ addresses: ['teams'] });
    expect(mapTarget(desired, { type: 'site-section', id: 'sitesc_1' })).toEqual({ addresses: ['sites'] });
    expect(mapTarget(desired, { type: 'member', id: 'u_1' })).toEqual({ addresses: ['members'] });
  });

  it('says so for a type docplane does not know', () => {
    expect(mapTarget(desired, { type: 'change-request', id: 'cr_1' })).toEqual({ unknown: "an event's target (change-request cr_1) maps to nothing docplane knows" });
  });
});

describe('events and steps', () => {
  const step = (address: string, path: string, remoteId?: string) => ({ address, requests: [{ path }], ...(remoteId ? { remoteId } : {}) });

  it('finds the object of a request path: the innermost, not past permissions or a team\'s members', () => {
    expect(objectOfPath('/v1/orgs/o/teams/team_1/members')).toEqual({ type: 'team', id: 'team_1' });
    expect(objectOfPath('/v1/orgs/o/sites/s1/sections/sec_2')).toEqual({ type: 'site-section', id: 'sec_2' });
    expect(objectOfPath('/v1/orgs/o/sites/s1/structure/sort')).toEqual({ type: 'site', id: 's1' });
    expect(objectOfPath('/v1/spaces/space_a/permissions/teams/t1')).toEqual({ type: 'space', id: 'space_a' });
    expect(objectOfPath('/v1/orgs/o/teams/{{ref:o/teams["W"]}}/members')).toEqual({ type: 'organization', id: 'o' });
  });

  it('matches an event to the step whose object it names', () => {
    expect(touches(step('teams["W"].members', '/v1/orgs/o/teams/team_1/members'), { type: 'team', id: 'team_1' })).toBe(true);
    expect(touches(step('teams["X"].members', '/v1/orgs/o/teams/team_2/members'), { type: 'team', id: 'team_1' })).toBe(false);
    expect(touches(step('spaces["space_a"]', '/v1/spaces/space_a'), { type: 'space', id: 'space_a' })).toBe(true);
    expect(touches(step('members["a@x.io"]', '/v1/orgs/o/members/u_1', 'u_1'), { type: 'member', id: 'u_1' })).toBe(true);
    // The organization's event is the organization's settings', not every step under its path.
    expect(touches(step('teams["W"]', '/v1/orgs/o/teams/t'), { type: 'organization', id: 'o' })).toBe(false);
    expect(touches(step('organization', '/v1/orgs/o'), { type: 'organization', id: 'o' })).toBe(true);
  });

  it('tells docplane\'s own changes from people\'s and integrations\'', () => {
    const event = (source: string, type: string, id: string): AuditEvent => ({ id: 'e', occurredAt: '2026-11-27T10:32:00Z', action: 'a', source, actor: { type, id, label: 'Ana Lima' }, target: { type: 'team', id: 't' } });
    expect(byWhom(event('api', 'user', 'u_me'), 'u_me')).toBe('docplane');
    expect(byWhom(event('api', 'user', 'u_ana'), 'u_me')).toBe('person');
    expect(byWhom(event('ui', 'user', 'u_me'), 'u_me')).toBe('person');
    expect(byWhom(event('integration', 'integration', 'i_1'), 'u_me')).toBe('integration');
    expect(byWhom(event('workflow', 'user', 'u_ana'), 'u_me')).toBe('integration');
  });

  it('words who changed it, with a label kept on one line', () => {
    const base = { at: '2026-11-27T10:32:00Z', action: 'a', source: 'ui', by: 'person' as const };
    expect(changedByText({ ...base, actor: { type: 'user', id: 'u', label: 'Ana Lima' } })).toBe('changed in the app by Ana Lima, 2026-11-27 10:32 UTC');
    expect(changedByText({ ...base, actor: { type: 'user', id: 'u', label: 'Ana\nLima' } })).toBe('changed in the app by Ana Lima, 2026-11-27 10:32 UTC');
    expect(changedByText({ ...base, by: 'docplane', source: 'api', actor: { type: 'user', id: 'u_ci' } })).toBe('applied by docplane (as u_ci), 2026-11-27 10:32 UTC');
  });
});
