import { describe, expect, it } from 'vitest';
import { orgConfig, planKind, type OrgConfigInput } from '../plan/fixtures.js';
import { fontsModule } from '../../src/kinds/fonts/fonts.js';
import { customFonts, type RemoteFont } from '../../src/kinds/shared/fonts.js';

const remote: RemoteFont[] = [
  {
    id: 'font_a',
    custom: true,
    fontFamily: 'Acme Sans',
    fontFaces: [
      // A bucket URL with the key percent-encoded, as storage services write them.
      { weight: 400, sources: [{ url: 'https://files.example/v0/b/bucket/o/fonts%2Facme-400.woff2?alt=media', format: 'woff2' }] },
      { weight: 700, sources: [{ url: 'https://files.example/fonts/acme-700.woff2' }] },
    ],
  },
  { id: 'font_b', custom: true, fontFamily: 'Old Serif', fontFaces: [{ weight: 400, sources: [{ url: 'https://files.example/old.woff2' }] }] },
];

type Row = [string, string, ...string[]];
const rows = (kp: ReturnType<typeof planKind>): Row[] =>
  kp.steps.map((s) => [s.address, s.action, ...s.requests.map((r) => `${r.method} ${r.path}${r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`}`)] as Row);

const SANS = { fontFamily: 'Acme Sans', fontFaces: [{ weight: 400, storageKey: 'fonts/acme-400.woff2' }, { weight: 700 }] };

const cases: Array<{ name: string; config: OrgConfigInput; steps: Row[]; unmanaged?: number; problems?: string[] }> = [
  { name: 'plans nothing when every key is in its face’s URL (encoded or not) and a face without key exists', config: { fonts: [SANS] }, steps: [], unmanaged: 1 },
  {
    name: 'creates a font with every face',
    config: { fonts: [SANS, { fontFamily: 'Brand Mono', fontFaces: [{ weight: 400, storageKey: 'fonts/mono.woff2' }] }] },
    steps: [['fonts["Brand Mono"]', 'create', 'PUT /v1/orgs/org_acme/fonts {"fontFamily":"Brand Mono","fontFaces":[{"weight":400,"storageKey":"fonts/mono.woff2"}]}']],
    unmanaged: 1,
  },
  {
    name: 'renames, sends a changed file and removes a weight left out, in one update',
    config: { fonts: [{ renamedFrom: 'Acme Sans', fontFamily: 'Acme Sans 2', fontFaces: [{ weight: 400, storageKey: 'fonts/acme-400-v2.woff2' }] }] },
    steps: [
      [
        'fonts["Acme Sans 2"]',
        'update',
        'POST /v1/orgs/org_acme/fonts/font_a {"fontFamily":"Acme Sans 2","fontFaces":[{"weight":400,"storageKey":"fonts/acme-400-v2.woff2"},{"weight":700,"storageKey":null}]}',
      ],
    ],
    unmanaged: 1,
  },
  {
    name: 'deletes the fonts the config leaves out when pruned',
    config: { fonts: [SANS], prune: ['fonts'] },
    steps: [['fonts["Old Serif"]', 'delete', 'DELETE /v1/orgs/org_acme/fonts/font_b']],
  },
  {
    name: 'a new weight without its file is a problem',
    config: { fonts: [{ ...SANS, fontFaces: [...SANS.fontFaces, { weight: 900 }] }] },
    steps: [],
    unmanaged: 1,
    problems: ['weight 900 is new and has no storageKey: give the storage key of its uploaded file (docs/live-surface.md, "Custom fonts")'],
  },
];

describe('fonts', () => {
  it.each(cases)('$name', (c) => {
    const kp = planKind(fontsModule, orgConfig(c.config), remote);
    expect(rows(kp)).toEqual(c.steps);
    expect(kp.unmanaged).toHaveLength(c.unmanaged ?? 0);
    expect(kp.problems.map((p) => p.message)).toEqual(c.problems ?? []);
    expect(Object.keys(kp.fingerprints).sort()).toEqual(kp.steps.map((s) => s.address).sort());
  });

  it('names a font for a customization: as read when it exists, by refs to its create when the plan makes it', () => {
    const pick = customFonts('org_acme', orgConfig({ fonts: [SANS, { fontFamily: 'New', fontFaces: [{ weight: 400, storageKey: 'k' }] }] }).fonts, remote);
    expect(pick('Acme Sans')).toMatchObject({ id: 'font_a', needs: [], definition: { id: 'font_a', custom: true, fontFamily: 'Acme Sans' } });
    expect(pick('Old Serif')).toMatchObject({ id: 'font_b' });
    expect(pick('New')).toEqual({
      definition: { id: '{{ref:org_acme/fonts["New"]}}', custom: true, fontFamily: 'New', fontFaces: '{{ref:org_acme/fonts["New"]#fontFaces}}' },
      needs: ['fonts["New"]:create'],
    });
    expect(pick('Nope')).toBeUndefined();
  });
});
