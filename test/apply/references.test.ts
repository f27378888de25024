/**
 * References to what the same plan creates or invites: for every reference field the registry
 * declares (KindUnit.references), a config that creates the referenced object and names it in the
 * same change; then everyday changes made of several related parts. Each one plans with no problem,
 * applies with no failed or skipped step, and plans again to no changes, against the emulator over
 * HTTP on loopback.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { applyPlan } from '../../src/apply/executor.js';
import { outcomeError, runApply } from '../../src/apply/run.js';
import { convergenceLine } from '../../src/apply/summary.js';
import { loadConfig } from '../../src/config/load.js';
import { acceptInvitations } from '../../src/emulator/kinds/members.js';
import { startEmulator, type EmulatorState } from '../../src/emulator/server.js';
import { UNITS } from '../../src/kinds/index.js';
import { planOrgs } from '../../src/plan/run.js';
import type { Plan } from '../../src/plan/types.js';
import { PendingRefError, resolveString, resolveValue } from '../../src/apply/tokens.js';
import { quietApply } from './in-process.js';

const STATE = {
  tokens: [{ token: 'dev-token', access: 'write' }],
  users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      members: [{ user: 'u_alice', role: 'admin' }],
      collections: [{ title: 'Archive' }, { title: 'Product' }],
      spaces: [
        { id: 'space_old', title: 'Old' },
        { id: 'space_moved', title: 'Moved', collection: 'Archive' },
      ],
      sites: [{ id: 'site_docs', title: 'Docs' }],
      teams: [{ title: 'Writers' }],
    },
  ],
} as unknown as EmulatorState;

const HEAD = 'version: 1\norganization: { id: org_acme }\n';

/** The plan of a config against the base state, without applying it. */
async function planOf(yaml: string, state: EmulatorState = STATE): Promise<Plan> {
  const dir = mkdtempSync(join(tmpdir(), 'docplane-refs-'));
  const emulator = await startEmulator({ port: 0, state });
  const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 1 });
  try {
    writeFileSync(join(dir, 'docplane.yaml'), HEAD + yaml, 'utf8');
    const config = await loadConfig({ path: join(dir, 'docplane.yaml'), cwd: dir, env: {} });
    return await planOrgs(config, client, { toolVersion: 'test' });
  } finally {
    await client.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Plan, apply, plan again: the first plan's steps, and what is left after. */
async function roundTrip(yaml: string): Promise<{ plan: Plan; failed: string[]; skipped: string[]; left: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'docplane-refs-'));
  const emulator = await startEmulator({ port: 0, state: STATE });
  const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 1 });
  try {
    writeFileSync(join(dir, 'docplane.yaml'), HEAD + yaml, 'utf8');
    const config = await loadConfig({ path: join(dir, 'docplane.yaml'), cwd: dir, env: {} });
    const plan = await planOrgs(config, client, { toolVersion: 'test' });
    expect(plan.problems.map((p) => `${p.address}: ${p.message}`)).toEqual([]);
    const result = await applyPlan(plan, client, { concurrency: 4 });
    const again = await planOrgs(config, client, { toolVersion: 'test' });
    return {
      plan,
      failed: result.failed.map((f) => `${f.step}: ${f.message}`),
      skipped: result.skipped.map((f) => `${f.step}: ${f.message}`),
      left: again.steps.map((s) => `${s.id} ${JSON.stringify(s.changes)}`),
    };
  } finally {
    await client.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function converges(yaml: string): Promise<Plan> {
  const r = await roundTrip(yaml);
  expect(r.failed).toEqual([]);
  expect(r.skipped).toEqual([]);
  expect(r.left).toEqual([]);
  return r.plan;
}

const INVITE = 'members:\n  - { user: zoe@acme.com, role: read }\n';
const TEAM = 'teams:\n  - title: Legal\n';
const SPACE = 'collections:\n  - title: Policies\nspaces:\n  - { title: Terms, collection: Policies }\n';

/**
 * Per reference field (`configKey field`), a config that creates what it names in the same plan.
 * Every reference field the registry declares must have one: a new field fails the test below until
 * it gets its scenario.
 */
const BY_FIELD: Record<string, string> = {
  'teams members': `${INVITE}teams:\n  - title: Legal\n    members: [zoe@acme.com, { user: yan@acme.com, role: owner }]\n`.replace(INVITE, `${INVITE}  - { user: yan@acme.com, role: read }\n`),
  'collections access.teams': `${TEAM}collections:\n  - title: Policies\n    access: { teams: { Legal: edit } }\n`,
  'collections access.users': `${INVITE}collections:\n  - title: Policies\n    access: { users: { zoe@acme.com: edit } }\n`,
  'spaces collection': SPACE,
  'spaces access.teams': `${TEAM}spaces:\n  - title: Terms\n    access: { teams: { Legal: admin } }\n`,
  'spaces access.users': `${INVITE}spaces:\n  - title: Terms\n    access: { users: { zoe@acme.com: admin } }\n`,
  'sites sections[].space': `${SPACE}sites:\n  - id: site_docs\n    sections:\n      - { path: terms, title: Terms, space: Policies/Terms }\n`,
  'sites sections[].siteSpaces[].space': `${SPACE}sites:\n  - id: site_docs\n    sections:\n      - path: guides\n        title: Guides\n        space: space_old\n        siteSpaces: [{ space: space_old, path: guides }, { space: Policies/Terms, path: terms }]\n`,
  'sites siteSpaces[].space': `${SPACE}sites:\n  - title: Handbook\n    siteSpaces: [{ space: Policies/Terms, path: terms }]\n`,
  'sites sectionGroups[].sections': `sites:\n  - id: site_docs\n    sections:\n      - { path: guides, title: Guides, space: space_old }\n    sectionGroups:\n      - { title: Products, sections: [guides] }\n`,
  'sites access.teams': `${TEAM}sites:\n  - title: Handbook\n    access: { teams: { Legal: admin } }\n`,
  'sites access.users': `${INVITE}sites:\n  - title: Handbook\n    access: { users: { zoe@acme.com: admin } }\n`,
  'saml defaultTeam': `${TEAM}saml:\n  - { label: Okta, entityID: "urn:okta", ssoURL: "https://idp.example/sso", defaultTeam: Legal }\n`,
  'translations source.space': `${SPACE}translations:\n  - { source: { space: Policies/Terms, language: en }, language: fr }\n`,
  'inviteLinks space': `${SPACE}inviteLinks:\n  - { space: Policies/Terms, level: comment }\n`,
  'inviteLinks collection': `${SPACE}inviteLinks:\n  - { collection: Policies, level: read }\n`,
};

const FIELDS = UNITS.flatMap((u) => (u.references ?? []).map((r) => `${u.configKey} ${r.field}`));

describe('a reference may name what the same plan creates or invites', () => {
  it('every reference field the registry declares has its scenario', () => {
    expect(FIELDS.filter((f) => !(f in BY_FIELD))).toEqual([]);
  });

  it.each(FIELDS.filter((f) => f in BY_FIELD))('%s', async (field) => {
    await converges(BY_FIELD[field]);
  });
});

describe('everyday changes in one plan', () => {
  it('onboarding: an invite, a team membership, space and collection access, in order', async () => {
    const plan = await converges(
      `${INVITE}teams:\n  - title: Writers\n    members: [alice@acme.com, zoe@acme.com]\ncollections:\n  - title: Product\n    access: { users: { zoe@acme.com: read } }\nspaces:\n  - id: space_old\n    access: { users: { zoe@acme.com: edit, alice@acme.com: admin } }\n`,
    );
    const invite = plan.steps.findIndex((s) => s.address === 'members["zoe@acme.com"]');
    const after = plan.steps.filter((s) => s.dependsOn.includes(plan.steps[invite].id)).map((s) => s.address);
    expect(after.sort()).toEqual(['collections["Product"].access.users["zoe@acme.com"]', 'spaces["space_old"].access.users["zoe@acme.com"]', 'teams["Writers"].members']);
    expect(plan.steps[invite].notes?.join(' ')).toContain('take the user id the invite answers');
  });

  it('a new team used at once by access and by SAML', async () => {
    await converges(
      `${TEAM}spaces:\n  - id: space_old\n    access: { teams: { Legal: read }, users: { alice@acme.com: admin } }\nsaml:\n  - { label: Okta, entityID: "urn:okta", ssoURL: "https://idp.example/sso", defaultTeam: Legal }\n`,
    );
  });

  it('a collection, a space in it and a site section showing it: the section waits for the space and says so', async () => {
    const plan = await converges(`${SPACE}sites:\n  - id: site_docs\n    sections:\n      - { path: terms, title: Terms, space: Policies/Terms }\n`);
    const section = plan.steps.find((s) => s.address === 'sites["site_docs"].sections["terms"]');
    expect(section?.notes).toContain('space: (created by this plan) Policies/Terms');
    expect(section?.dependsOn).toContain('org_acme/spaces["Policies/Terms"]:create');
    expect(section?.requests[0].body).toMatchObject({ spaceId: '{{ref:org_acme/spaces["Policies/Terms"]}}' });
  });

  it('a team renamed while access and SAML name it by its new title', async () => {
    await converges(
      `teams:\n  - { title: Authors, renamedFrom: Writers }\nspaces:\n  - id: space_old\n    access: { teams: { Authors: edit }, users: { alice@acme.com: admin } }\nsaml:\n  - { label: Okta, entityID: "urn:okta", ssoURL: "https://idp.example/sso", defaultTeam: Authors }\n`,
    );
  });

  it('a new site with sections, a group, share links and access', async () => {
    await converges(
      `${INVITE}${TEAM}sites:\n  - title: Handbook\n    sections:\n      - { path: guides, title: Guides, space: space_old }\n      - { path: moved, title: Moved, space: space_moved }\n    sectionGroups:\n      - { title: All, sections: [guides, moved] }\n    shareLinks:\n      - { name: partner, active: true }\n    access: { teams: { Legal: read }, users: { zoe@acme.com: admin } }\n`,
    );
  });

  it('a space moved to another collection, with new access', async () => {
    await converges(`${INVITE}${TEAM}spaces:\n  - id: space_moved\n    collection: Product\n    access: { teams: { Legal: edit }, users: { zoe@acme.com: admin } }\n`);
  });

  it('a space moved into a collection this plan creates, named there by a section', async () => {
    await converges(`collections:\n  - title: Policies\nspaces:\n  - { id: space_moved, collection: Policies }\n  - { title: Terms, collection: Policies }\nsites:\n  - id: site_docs\n    sections:\n      - { path: terms, title: Terms, space: Policies/Terms, siteSpaces: [{ space: Policies/Terms }, { space: space_moved, path: moved }] }\n`);
  });
});

describe('what the organization settles, the plan settles', () => {
  it('a misspelt team under access is a plan problem at its file:line, with the closest name of the config and the organization', async () => {
    const plan = await planOf('spaces:\n  - id: space_old\n    access: { teams: { Writer: read } }\n');
    expect(plan.problems.map((p) => `${p.location?.line}:${p.location?.column} ${p.address}.${p.field}: ${p.message}`)).toEqual([
      '5:24 spaces["space_old"].access.teams: "Writer" names a team that exists neither in the config nor in organization org_acme — did you mean "Writers"?',
    ]);
  });

  it('a space or site named by id that exists neither in the config nor in the organization is a plan problem at file:line, with the closest id', async () => {
    const plan = await planOf(
      'sites:\n  - id: site_docs\n    sections:\n      - { path: old, title: Old, space: space_olf }\n' +
        'translations:\n  - { source: { space: Old, language: en }, language: fr }\n' +
        'installations:\n  - integration: slack\n    sites: [{ site: site_doc }]\n    spaces: [{ space: space_old }]\n',
    );
    expect(plan.problems.map((p) => `${p.location?.line}:${p.location?.column} ${p.address}.${p.field}: ${p.message}`).sort()).toEqual([
      '11:21 installations["slack"].sites["site_doc"].site: "site_doc" names no site, neither in the config nor in organization org_acme — did you mean "site_docs" (Docs)?',
      '6:41 sites["site_docs"].sections["old"].space: "space_olf" names no space, neither in the config nor in organization org_acme — did you mean "space_old" (Old)?',
      '8:24 translations["Old/fr"].source.space: "Old" names no space, neither in the config nor in organization org_acme — it is the title of space space_old; name it by id',
    ]);
  });

  it('a space named by id that the config lists is not read for: its own entry checks it', async () => {
    const plan = await planOf('spaces:\n  - { id: space_nope }\nsites:\n  - id: site_docs\n    sections:\n      - { path: x, title: Nope, space: space_nope }\n');
    expect(plan.problems.map((p) => `${p.address}: ${p.message}`)).toEqual(['spaces["space_nope"]: space space_nope does not exist (check the id, or leave it out to create a space by title)']);
  });

  it('a person neither invited nor a member is a plan problem at file:line, with the closest member', async () => {
    const plan = await planOf('spaces:\n  - id: space_old\n    access: { users: { alise@acme.com: read } }\n');
    expect(plan.problems.map((p) => `${p.location?.line} ${p.field}: ${p.message}`)).toEqual([
      '5 users: "alise@acme.com" is not a member of organization org_acme: list their email under members (this plan then invites them and grants this access at once), or remove them from this access — did you mean "alice@acme.com"?',
    ]);
  });

  it('a new title that looks like an existing one is a warning naming both', async () => {
    const plan = await planOf('teams:\n  - title: "Wr\u0456ters"\nspaces:\n  - { title: "Old\u200b" }\n');
    const notes = plan.steps.flatMap((s) => s.notes ?? []).filter((n) => n.startsWith('warning:'));
    expect(notes).toEqual([
      'warning: team "Wrіters" is new, but looks the same as the existing team "Writers": they differ only by invisible or look-alike characters or whitespace; check the title is not a copy with a stray character',
      'warning: space "Old\u200b" is new, but looks the same as the existing space "Old": they differ only by invisible or look-alike characters or whitespace; check the title is not a copy with a stray character',
    ]);
  });

  it('a new collection, site, section, group, link, share link or SAML provider that looks like an existing one of its scope warns, naming both', async () => {
    const state = structuredClone(STATE) as unknown as { organizations: Array<Record<string, unknown>> };
    const org = state.organizations[0]!;
    org.sites = [{
      id: 'site_docs',
      title: 'Docs',
      sections: [{ title: 'Guides', path: 'guides', siteSpaces: [{ space: 'space_old', path: 'old' }] }],
      sectionGroups: [{ title: 'Products', sections: ['guides'] }],
      externalLinks: [{ title: 'Status', url: 'https://status.example.com' }],
      shareLinks: [{ name: 'partner', active: true }],
    }];
    org.saml = [{ label: 'Okta', entityID: 'urn:okta', ssoURL: 'https://idp.example/sso', certificate: 'x' }];
    const plan = await planOf(
      'collections:\n  - title: "Arch\u0456ve"\n  - title: Product\n    collections: [{ title: Archive }]\n' +
        'sites:\n  - title: "Docs "\n  - id: site_docs\n    sections: [{ path: guides2, title: "Guid\u0435s", space: space_moved }]\n' +
        '    sectionGroups: [{ title: "Products\u200b", sections: [guides2] }]\n    externalLinks: [{ title: "Status ", url: "https://status.example.org" }]\n' +
        '    shareLinks: [{ name: "partner\u200b" }]\n' +
        'saml:\n  - { label: "\u041Ekta", entityID: "urn:new", ssoURL: "https://idp.example/sso2", certificate: "y" }\n',
      state as unknown as EmulatorState,
    );
    const warned = plan.steps.flatMap((s) => (s.notes ?? []).filter((n) => n.startsWith('warning:')).map((n) => `${s.address} ${n.slice(0, n.indexOf(':', 9))}`));
    expect(warned.sort()).toEqual([
      'collections["Arch\u0456ve"] warning: collection "Arch\u0456ve" is new, but looks the same as the existing collection "Archive"',
      'saml["\u041Ekta"] warning: SAML provider "\u041Ekta" is new, but looks the same as the existing SAML provider "Okta"',
      'sites["Docs "] warning: site "Docs " is new, but looks the same as the existing site "Docs"',
      'sites["site_docs"].externalLinks["Status "] warning: external link "Status " is new, but looks the same as the existing external link "Status"',
      'sites["site_docs"].sectionGroups["Products\u200b"] warning: section group "Products\u200b" is new, but looks the same as the existing section group "Products"',
      'sites["site_docs"].sections["guides2"] warning: section "Guid\u0435s" is new, but looks the same as the existing section "Guides"',
      'sites["site_docs"].shareLinks["partner\u200b"] warning: share link "partner\u200b" is new, but looks the same as the existing share link "partner"',
    ].sort());
  });

  it('safety.keepSsoMembers keeping what prune: [members] would remove is said in the plan, naming the rule', async () => {
    const state = structuredClone(STATE) as unknown as { users: object[]; organizations: Array<{ members: object[] }> };
    state.users.push({ id: 'u_sam', email: 'sam@acme.com', displayName: 'Sam' });
    state.organizations[0].members.push({ user: 'u_sam', role: 'read', sso: true });
    const plan = await planOf('prune: [members]\nmembers:\n  - { user: alice@acme.com, role: admin }\n', state as unknown as EmulatorState);
    expect(plan.steps.filter((s) => s.kind === 'members')).toEqual([]);
    expect(plan.notes).toContain('org_acme: safety.keepSsoMembers keeps 1 SSO member that prune: [members] would remove (sam@acme.com); set safety.keepSsoMembers: false to remove them');
  });
});

describe('an invitation the API leaves pending', () => {
  it('the steps that need the invited user say so and are not sent; once accepted, the next apply completes them', async () => {
    const state = structuredClone(STATE) as unknown as { organizations: Array<Record<string, unknown>> };
    state.organizations[0]!.invitations = 'pending';
    const dir = mkdtempSync(join(tmpdir(), 'docplane-refs-'));
    const emulator = await startEmulator({ port: 0, state: state as unknown as EmulatorState });
    const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 1 });
    try {
      writeFileSync(join(dir, 'docplane.yaml'), `${HEAD}${INVITE}teams:\n  - title: Writers\n    members: [alice@acme.com, zoe@acme.com]\nspaces:\n  - id: space_old\n    access: { users: { zoe@acme.com: edit, alice@acme.com: admin } }\n`, 'utf8');
      const config = await loadConfig({ path: join(dir, 'docplane.yaml'), cwd: dir, env: {} });
      // The apply as the command runs it: the steps that need Zoe are skipped, saying why; the run
      // succeeds, and what is left is said to wait for the invitation.
      const report = await runApply(quietApply(join(dir, 'docplane.yaml'), async () => createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 1 }), { toolVersion: 'test' }));
      expect(outcomeError(report)).toBeUndefined();
      expect(report.convergence).toMatchObject({ converged: false, waiting: true, remaining: 3 });
      expect(convergenceLine(report.convergence!)).toBe('3 changes wait for invitations to be accepted: the next apply after that completes them');
      const first = report.result!;
      expect(first.failed).toEqual([]);
      expect(first.skipped.map((s) => `${s.step}: ${s.message}`).sort()).toEqual([
        expect.stringMatching(/^org_acme\/spaces\["space_old"\]\.access\.users\["zoe@acme\.com"\]:create: not sent: .*invitation left pending\); the next apply completes this step$/),
        expect.stringMatching(/^org_acme\/teams\["Writers"\]\.members:update: not sent: .*the next apply completes this step$/),
      ]);

      // Zoe accepts the invitation: the next plan finds her a member, and its apply completes the steps.
      const org = emulator.world.orgs.get('org_acme')!;
      expect(acceptInvitations(emulator.world, org)).toHaveLength(1);
      const next = await planOrgs(config, client, { toolVersion: 'test' });
      expect(next.problems).toEqual([]);
      expect(next.steps.map((s) => s.address).sort()).toEqual(['spaces["space_old"].access.users["zoe@acme.com"]', 'teams["Writers"].members']);
      const second = await applyPlan(next, client, { concurrency: 4 });
      expect([...second.failed, ...second.skipped]).toEqual([]);
      expect((await planOrgs(config, client, { toolVersion: 'test' })).steps).toEqual([]);
    } finally {
      await client.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the id an invite answers', () => {
  const target = 'org_acme/members["zoe@acme.com"]';
  const token = `{{ref:${target}#users.0|id}}`;
  const captures = (answer: unknown) => ({ known: new Set([target]), values: new Map([[target, answer]]) });

  it('is the invite\'s user, or the member its lookup found after an unclear answer', () => {
    expect(resolveString(token, captures({ users: { 0: 'u_zoe' }, invited: 1 }))).toBe('u_zoe');
    expect(resolveString(token, captures({ id: 'u_zoe', user: { email: 'zoe@acme.com' } }))).toBe('u_zoe');
    // Keys are resolved too: a team's memberships are keyed by user id.
    expect(resolveValue({ memberships: { [token]: { role: 'owner' } } }, captures({ users: ['u_zoe'] }))).toEqual({ memberships: { u_zoe: { role: 'owner' } } });
  });

  it('is pending when the API names no user: the step is not sent, and says the next apply completes it', () => {
    expect(() => resolveString(token, captures({ users: [], invited: 0 }))).toThrow(PendingRefError);
    expect(() => resolveString(token, captures({ users: [], invited: 0 }))).toThrow(/the next apply completes this step/);
  });
});
