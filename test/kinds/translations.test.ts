import { describe, expect, it } from 'vitest';
import { textToDocument } from '../../src/core/richtext.js';
import { orgConfig, planKind, type OrgConfigInput } from '../plan/fixtures.js';
import { translationsModule, type RemoteTranslation } from '../../src/kinds/translations/translations.js';

/** As the API returns it: block keys added. */
const withKeys = (text: string) => {
  const doc = textToDocument(text);
  return { ...doc, nodes: doc.nodes.map((n, i) => ({ ...n, key: `k${i}` })) };
};
const remote: RemoteTranslation[] = [
  { id: 'tr_fr', language: 'fr', source: { space: 'space_guides', language: 'en' }, instructions: withKeys('Be formal.') },
  { id: 'tr_de', language: 'de', source: { space: 'space_guides', language: 'en' } },
];

type Row = [string, string, string, unknown?];
const rows = (kp: ReturnType<typeof planKind>): Row[] =>
  kp.steps.map((s) => [s.address, s.action, `${s.requests[0].method} ${s.requests[0].path}`, ...(s.requests[0].body === undefined ? [] : [s.requests[0].body])] as Row);
const src = { space: 'space_guides', language: 'en' } as const;

const cases: Array<{ name: string; config: OrgConfigInput; steps: Row[]; problems?: string[]; unmanaged: number }> = [
  {
    name: 'plans nothing when instructions say the same (generated keys aside) or are absent',
    config: { translations: [{ source: src, language: 'fr', instructions: 'Be formal.' }, { source: src, language: 'de' }] },
    steps: [],
    unmanaged: 0,
  },
  {
    name: 'creates a translation, with its instructions as a document',
    config: { translations: [{ source: src, language: 'es', instructions: 'Usted.' }] },
    steps: [['translations["space_guides/es"]', 'create', 'POST /v1/orgs/org_acme/translations', { language: 'es', source: src, instructions: textToDocument('Usted.') }]],
    unmanaged: 2,
  },
  {
    name: 'replaces instructions that differ with PUT',
    config: { translations: [{ source: src, language: 'fr', instructions: 'Be casual.' }] },
    steps: [['translations["space_guides/fr"]', 'update', 'PUT /v1/orgs/org_acme/translations/tr_fr', { instructions: textToDocument('Be casual.') }]],
    unmanaged: 1,
  },
  {
    name: 'deletes translations the config leaves out when pruned',
    config: { translations: [{ source: src, language: 'fr' }], prune: ['translations'] },
    steps: [['translations["space_guides/de"]', 'delete', 'DELETE /v1/orgs/org_acme/translations/tr_de']],
    unmanaged: 0,
  },
  {
    name: 'reports a change of source language, which the API cannot make',
    config: { translations: [{ id: 'tr_fr', source: { space: 'space_guides', language: 'de' }, language: 'fr' }] },
    steps: [],
    problems: [
      'translations["space_guides/fr"]: translation tr_fr translates space_guides from en to fr; the API cannot change the source or the language of a translation (remove its id to create a new one)',
    ],
    unmanaged: 1,
  },
];

describe('translations', () => {
  it.each(cases)('$name', (c) => {
    const kp = planKind(translationsModule, orgConfig(c.config), { list: remote });
    expect(rows(kp)).toEqual(c.steps);
    expect(kp.problems.map((p) => `${p.address}: ${p.message}`)).toEqual(c.problems ?? []);
    expect(kp.unmanaged).toHaveLength(c.unmanaged);
    expect(Object.keys(kp.fingerprints).sort()).toEqual(kp.steps.map((s) => s.address).sort());
  });

  it('looks a create up by language and source space, and waits for the source space when the config names it', () => {
    const kp = planKind(translationsModule, orgConfig({ spaces: [{ id: 'space_guides' }], translations: [{ source: src, language: 'it' }] }), { list: remote });
    expect(kp.steps[0].requests[0]).toMatchObject({ capture: true, lookup: { path: '/v1/orgs/org_acme/translations', match: { language: 'it', 'source.space': 'space_guides' } } });
    expect(kp.steps[0].needs).toEqual(['spaces["space_guides"]']);
    expect(kp.steps[0].after).toEqual({ language: 'it', source: src });
  });
});
