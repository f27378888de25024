/**
 * One reader for every file: what the yaml package reads is what the config holds, and what it
 * refuses is refused, at the line it names.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { problemsOf, withFiles } from './helpers.js';

const org = 'version: 1\norganization:\n  id: org_a\n';

describe('reading YAML', () => {
  it('refuses a document marker followed by a key on its line, at that line', async () => {
    await withFiles({ 'docplane.yaml': `${org}--- teams:\n  - title: Eng\n` }, async (t) => {
      const problems = await problemsOf({ cwd: t.dir, env: {} });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^docplane\.yaml:4:\d+: .*YAML syntax error/);
      expect(problems[0]).not.toMatch(/unknown|"--- teams"/);
    });
  });

  it('reads a keep-chomping block at the end of a file whose last line is only spaces (fewer than the block\'s indentation) as the yaml package does', async () => {
    const text = `${org}  agentInstructions: |+\n    Be brief.\n\n  `;
    await withFiles({ 'docplane.yaml': text }, async (t) => {
      const config = await loadConfig({ cwd: t.dir, env: {} });
      const expected = (parse(text) as { organization: { agentInstructions: string } }).organization.agentInstructions;
      expect(expected).toBe('Be brief.\n\n');
      expect(config.orgs[0].organization?.agentInstructions).toBe(expected);
    });
  });

  it('reads `---a:` as a key named "---a" (not a document marker), as the yaml package does', async () => {
    await withFiles({ 'docplane.yaml': '---a:\n' }, async (t) => {
      const problems = await problemsOf({ cwd: t.dir, env: {} });
      expect(problems).toContainEqual(expect.stringMatching(/^docplane\.yaml:1:1: .*unknown key "---a"/));
      expect(problems.join('\n')).not.toMatch(/unknown key "a"/);
    });
  });
});
