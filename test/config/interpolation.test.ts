/** `${env:…}`, `${file:…}`, `$${`, confinement to the config folder, and the secrets they yield. */
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { maskSecrets } from '../../src/core/secrets.js';
import { problemsOf, withFiles } from './helpers.js';

const HEAD = 'version: 1\norganization:\n  id: org_acme\n';

describe('interpolation', () => {
  it('replaces ${env:NAME}, several per string, and marks the values secret', async () => {
    await withFiles({ 'docplane.yaml': `${HEAD}  title: "\${env:PREFIX} Corp \${env:SUFFIX}"\n` }, async (t) => {
      const config = await loadConfig({ cwd: t.dir, env: { PREFIX: 'Acme Holdings', SUFFIX: 'Worldwide' } });
      expect(config.orgs[0].organization.title).toBe('Acme Holdings Corp Worldwide');
      expect(config.secrets).toEqual([
        { name: 'env:PREFIX', value: 'Acme Holdings' },
        { name: 'env:SUFFIX', value: 'Worldwide' },
      ]);
    });
  });

  it('uses the default of ${env:NAME:-default} when the variable is unset or empty', async () => {
    const yaml = `${HEAD}  title: "\${env:TITLE:-Acme Inc}"\n`;
    await withFiles({ 'docplane.yaml': yaml }, async (t) => {
      expect((await loadConfig({ cwd: t.dir, env: {} })).orgs[0].organization.title).toBe('Acme Inc');
      expect((await loadConfig({ cwd: t.dir, env: { TITLE: '' } })).orgs[0].organization.title).toBe('Acme Inc');
      expect((await loadConfig({ cwd: t.dir, env: { TITLE: 'Globex' } })).orgs[0].organization.title).toBe('Globex');
    });
  });

  it('writes a literal ${ for $${ and leaves other dollars alone', async () => {
    await withFiles({ 'docplane.yaml': `${HEAD}  title: "Costs $$5 and $\${env:NOT_READ}"\n` }, async (t) => {
      const config = await loadConfig({ cwd: t.dir, env: {} });
      expect(config.orgs[0].organization.title).toBe('Costs $$5 and ${env:NOT_READ}');
      expect(config.secrets).toEqual([]);
    });
  });

  it('reads ${file:PATH} relative to the YAML file, inside block scalars and flow strings alike', async () => {
    await withFiles(
      {
        'docplane.yaml': `${HEAD}saml:\n  - label: Okta\n    certificate: \${file:certs/okta.pem}\nintegrations:\n  - name: a\n    title: Analytics\n    description: d\n    script: |\n      // header\n      \${file:js/a.js}\n    scopes: [space:content:read]\n`,
        'certs/okta.pem': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
        'js/a.js': 'export default {};\n',
      },
      async (t) => {
        const config = await loadConfig({ cwd: t.dir, env: {} });
        expect(config.orgs[0].saml?.[0].certificate).toBe('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
        expect(config.orgs[0].integrations?.[0].script).toBe('// header\nexport default {};\n\n');
        expect(config.secrets.map((s) => s.name)).toEqual(['file:certs/okta.pem', 'file:js/a.js']);
      },
    );
  });

  it('collects integration secrets and SAML certificates as secrets even when written literally', async () => {
    await withFiles(
      {
        'docplane.yaml': `${HEAD}saml:\n  - { label: Okta, certificate: LITERAL-CERTIFICATE }\nintegrations:\n  - name: a\n    title: Analytics\n    description: d\n    script: x\n    scopes: [space:content:read]\n    secrets: { API_KEY: literal-key-123, FROM_ENV: "\${env:KEY}" }\n`,
      },
      async (t) => {
        const config = await loadConfig({ cwd: t.dir, env: { KEY: 'env-key-456' } });
        expect(config.secrets).toEqual([
          { name: 'env:KEY', value: 'env-key-456' },
          { name: 'value:org_acme/saml["Okta"].certificate', value: 'LITERAL-CERTIFICATE' },
          { name: 'value:org_acme/integrations["a"].secrets.API_KEY', value: 'literal-key-123' },
        ]);
        // What the renderers do with them: nothing of the values is left.
        const masked = JSON.stringify(maskSecrets(config.orgs, config.secrets));
        for (const s of ['LITERAL-CERTIFICATE', 'literal-key-123', 'env-key-456']) expect(masked).not.toContain(s);
      },
    );
  });

  it('reports a missing file, an escape, and a symlink out of the folder, each at its string', async () => {
    await withFiles(
      {
        'outside.txt': 'secret outside',
        'config/docplane.yaml': `${HEAD}  title: "\${file:nothing.txt}"\nsaml:\n  - { label: A, certificate: "\${file:../outside.txt}" }\n  - { label: B, certificate: "\${file:link.txt}" }\n  - { label: C, certificate: "\${file:${'/etc/hostname'}}" }\n`,
      },
      async (t) => {
        symlinkSync(path.join(t.dir, 'outside.txt'), path.join(t.dir, 'config/link.txt'));
        const root = path.join(t.dir, 'config');
        expect(await problemsOf({ path: 'config/docplane.yaml', cwd: t.dir, env: {} })).toEqual([
          'config/docplane.yaml:4:10: organization.title: file "nothing.txt" does not exist (paths are relative to the YAML file)',
          `config/docplane.yaml:6:30: saml[0].certificate: file "../outside.txt" is outside the config folder ${root}; keep referenced files inside it`,
          `config/docplane.yaml:7:30: saml[1].certificate: file "link.txt" is outside the config folder ${root}; keep referenced files inside it`,
          expect.stringMatching(/^config\/docplane\.yaml:8:30: saml\[2\]\.certificate: file "\/etc\/hostname" (is outside the config folder|does not exist)/),
        ]);
      },
    );
  });

  it('follows a symlink that stays inside the config folder', async () => {
    await withFiles({ 'docplane.yaml': `${HEAD}saml:\n  - { label: A, certificate: "\${file:link.pem}" }\n`, 'certs/real.pem': 'PEM DATA' }, async (t) => {
      symlinkSync(path.join(t.dir, 'certs/real.pem'), path.join(t.dir, 'link.pem'));
      const config = await loadConfig({ cwd: t.dir, env: {} });
      expect(config.orgs[0].saml?.[0].certificate).toBe('PEM DATA');
    });
  });

  it('never puts a secret value into a problem message', async () => {
    await withFiles({ 'docplane.yaml': `${HEAD}  title: "\${env:LONG_TITLE}"\n` }, async (t) => {
      const secret = 'TOP-SECRET-'.repeat(30);
      const problems = await problemsOf({ cwd: t.dir, env: { LONG_TITLE: secret } });
      expect(problems).toEqual(["docplane.yaml:4:10: organization.title: must be at most 255 characters (the API's limit)"]);
      expect(problems.join('\n')).not.toContain('TOP-SECRET');
    });
    await withFiles({ 'docplane.yaml': `${HEAD}  sso: "\${env:FLAG}"\nintegrations:\n  - { name: a, title: Ab, description: d, script: x, scopes: [space:content:read], secrets: { K: [hidden-literal] } }\n` }, async (t) => {
      const problems = await problemsOf({ cwd: t.dir, env: { FLAG: 'super-secret-flag' } });
      expect(problems).toEqual([
        'docplane.yaml:4:8: organization.sso: must be true or false, not a string (from ${…}, not shown)',
        'docplane.yaml:6:98: integrations[0].secrets.K: must be a string, not a list',
      ]);
      expect(problems.join('\n')).not.toContain('super-secret-flag');
    });
  });
});

describe('secrets the config may not hold', () => {
  const TOKEN = 'tok-live-9f8e7d6c5b';

  it('refuses ${env:DOCPLANE_TOKEN} at its position, and never shows the token', async () => {
    await withFiles({ 'docplane.yaml': `${HEAD}  title: "Team \${env:DOCPLANE_TOKEN}"\n` }, async (t) => {
      const problems = await problemsOf({ cwd: t.dir, env: { DOCPLANE_TOKEN: TOKEN } });
      expect(problems).toEqual([
        'docplane.yaml:4:10: organization.title: ${env:DOCPLANE_TOKEN} reads the API token into the config: docplane sends the token only in the Authorization header, never in a field',
      ]);
      expect(problems.join('\n')).not.toContain(TOKEN);
    });
  });

  it("refuses the token's value wherever it stands: through another variable, a file, or written out", async () => {
    await withFiles(
      {
        'docplane.yaml': `${HEAD}  title: "\${env:COPY}"\nteams:\n  - title: "x ${TOKEN} y"\n  - title: "\${file:t.txt}"\n`,
        't.txt': `${TOKEN}\n`,
      },
      async (t) => {
        const problems = await problemsOf({ cwd: t.dir, env: { DOCPLANE_TOKEN: TOKEN, COPY: TOKEN } });
        const tail = 'this string holds the API token (env DOCPLANE_TOKEN): docplane sends the token only in the Authorization header, never in a field; remove it from the config';
        expect(problems).toEqual([`docplane.yaml:4:10: organization.title: ${tail}`, `docplane.yaml:6:12: teams[0].title: ${tail}`, `docplane.yaml:7:12: teams[1].title: ${tail}`]);
        expect(problems.join('\n')).not.toContain(TOKEN);
      },
    );
  });

  it('refuses a secret under 6 characters, saying why', async () => {
    await withFiles({ 'docplane.yaml': `${HEAD}  title: "\${env:PREFIX} Corp"\n` }, async (t) => {
      expect(await problemsOf({ cwd: t.dir, env: { PREFIX: 'Acme' } })).toEqual([
        "docplane.yaml:4:10: organization.title: the value of ${env:PREFIX} has 4 characters: a secret under 6 characters cannot be masked safely in docplane's output; use a longer value, or write this value in the config itself",
      ]);
    });
    // A default is written in the config: a secret only when its variable names one.
    await withFiles({ 'docplane.yaml': `${HEAD}  title: "\${env:PREFIX_TOKEN:-Acme} Corp"\n` }, async (t) => {
      expect((await problemsOf({ cwd: t.dir, env: {} }))[0]).toMatch(/the value of \$\{env:PREFIX_TOKEN:-…\} has 4 characters/);
    });
  });
});

