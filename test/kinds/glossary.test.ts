import { describe, expect, it } from 'vitest';
import { sendModeOf } from '../../src/apply/resend.js';
import { baseDifference } from '../../src/plan/base.js';
import type { Step } from '../../src/plan/types.js';
import { loaded, orgConfig, planKind } from '../plan/fixtures.js';
import { glossaryModule, type RemoteGlossaryEntry } from '../../src/kinds/translations/glossary/glossary.js';
import type { GlossaryEntryT } from '../../src/kinds/translations/glossary/schema.js';

const remote: RemoteGlossaryEntry[] = [
  { id: 'g1', translations: { fr: 'Espace', en: 'Workspace' } },
  { id: 'g2', translations: { en: 'API', fr: 'API' } },
  { id: 'g3', translations: { de: 'Eimer' } },
];

const plan = (glossary: GlossaryEntryT[] | undefined) => planKind(glossaryModule, orgConfig(glossary === undefined ? {} : { glossary }), remote);

describe('glossary', () => {
  it('plans nothing when every entry says the same, whatever the order of languages; nothing when absent', () => {
    expect(plan([{ translations: { en: 'Workspace', fr: 'Espace' } }, { translations: { fr: 'API', en: 'API' } }, { translations: { de: 'Eimer' } }]).steps).toEqual([]);
    expect(plan(undefined).steps).toEqual([]);
  });

  it('a second entry with one term (a twin) is deleted in the one batch, named by its term and id; one entry named by id and by term is a plan problem', () => {
    const twins: RemoteGlossaryEntry[] = [...remote, { id: 'g4', translations: { en: 'API', fr: 'Interface' } }];
    const kp = planKind(glossaryModule, orgConfig({ glossary: [{ translations: { en: 'Workspace', fr: 'Espace' } }, { translations: { en: 'API', fr: 'API' } }, { translations: { de: 'Eimer' } }] }), twins);
    expect(kp.steps).toHaveLength(1);
    expect(kp.steps[0].requests[0].body).toEqual({ operations: [{ type: 'delete', id: 'g4' }] });
    expect(Object.keys(kp.steps[0].before ?? {})).toEqual(['en:API#g4']);
    const twice = planKind(glossaryModule, orgConfig({ glossary: [{ id: 'g2', translations: { en: 'API', fr: 'API' } }, { translations: { en: 'API', fr: 'Interface' } }] }), remote);
    expect(twice.steps).toEqual([]);
    expect(twice.problems.map((p) => p.message)).toEqual(['two entries name the glossary entry g2 (en:API): one by id, one by its term en:API; keep one, or the plan would insert a second']);
  });

  it('one PUT for every difference: insert, update (matched by id, whatever its terms), delete', () => {
    const kp = plan([{ id: 'g3', translations: { de: 'Kübel' } }, { translations: { en: 'Workspace', fr: 'Espace de travail' } }, { translations: { en: 'Space' } }]);
    expect(kp.steps).toHaveLength(1);
    expect(kp.steps[0].requests).toEqual([
      {
        method: 'PUT',
        path: '/v1/orgs/org_acme/translations-glossary',
        body: {
          operations: [
            { type: 'update', id: 'g3', translations: { de: 'Kübel' } },
            { type: 'update', id: 'g1', translations: { en: 'Workspace', fr: 'Espace de travail' } },
            { type: 'insert', translations: { en: 'Space' } },
            { type: 'delete', id: 'g2' },
          ],
        },
        // A batch that inserts is not idempotent: never resent blindly after a lost answer; the
        // list of entries tells whether it went through.
        once: true,
        verify: {
          path: '/v1/orgs/org_acme/translations-glossary',
          fields: ['translations'],
          before: remote.map((r) => ({ translations: r.translations })),
          after: [{ translations: { de: 'Kübel' } }, { translations: { en: 'Workspace', fr: 'Espace de travail' } }, { translations: { en: 'Space' } }],
        },
      },
    ]);
    expect(sendModeOf(kp.steps[0] as unknown as Step, kp.steps[0].requests[0])).toBe('verified');
    // Changes per entry, by its name in the config (an entry matched by id shows under its new name).
    expect(kp.steps[0].changes.map((c) => [c.kind, c.path, c.before, c.after])).toEqual([
      ['change', 'de:Kübel.de', 'Eimer', 'Kübel'],
      ['remove', 'en:API', { en: 'API', fr: 'API' }, undefined],
      ['add', 'en:Space', undefined, { en: 'Space' }],
      ['change', 'en:Workspace.fr', 'Espace', 'Espace de travail'],
    ]);
    expect(kp.steps[0].notes).toEqual(['glossary entries: 1 to insert, 2 to update, 1 to delete, in one request']);
    expect(Object.keys(kp.fingerprints)).toEqual(['glossary']);
  });

  it('an empty list deletes every entry', () => {
    const ops = (plan([]).steps[0].requests[0].body as { operations: unknown[] }).operations;
    expect(ops).toEqual([{ type: 'delete', id: 'g1' }, { type: 'delete', id: 'g2' }, { type: 'delete', id: 'g3' }]);
  });
});

describe('glossary under plan --base', () => {
  it('an entry changed, added or removed targets the glossary step; an unchanged glossary none', () => {
    const config = (glossary: GlossaryEntryT[]) => loaded([orgConfig({ glossary })]);
    const base = config([{ translations: { en: 'API' } }, { translations: { en: 'Space', fr: 'Espace' } }]);
    expect(baseDifference(base, config([{ translations: { en: 'API' } }, { translations: { en: 'Space', fr: 'Espace de travail' } }])).targets).toEqual(['org_acme/glossary']);
    expect(baseDifference(base, config([{ translations: { en: 'API' } }])).targets).toEqual(['org_acme/glossary']);
    expect(baseDifference(base, config([{ translations: { en: 'Space', fr: 'Espace' } }, { translations: { en: 'API' } }])).targets).toEqual([]);
  });
});
