/**
 * The CI recipes in examples/ci/ (GitHub Actions workflows, the GitLab CI file) and the GitHub Action
 * (action.yml): each is strict YAML (no duplicate keys, no warnings, no tabs, no trailing spaces);
 * every `docplane …` (or `npx docplane@VERSION …`) command in a script names a command of the built
 * CLI with only flags that command accepts (long names and `char` aliases, read from the oclif classes
 * in dist/commands/), values where a flag takes one, and a listed value where the flag has options;
 * so does every docplane command the action's script (action/docplane-action.mjs) runs. Every use of
 * the action passes only inputs that action.yml declares, all the required ones, an exact version,
 * and a command the action knows.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const ROOT = new URL('../../', import.meta.url).pathname;
const WORKFLOWS = join(ROOT, 'examples/ci/github-actions');
const GITLAB = join(ROOT, 'examples/ci/gitlab-ci/.gitlab-ci.yml');
const ACTION = join(ROOT, 'action.yml');
const ACTION_SCRIPT = join(ROOT, 'action/docplane-action.mjs');
/** How a workflow names the docplane action: this repository's root, locally or by reference. */
const ACTION_USES = /^(\.\/?|docplane\/docplane@v(\d+\.\d+\.\d+))$/;

interface FlagSpec {
  name: string;
  type: 'option' | 'boolean';
  char?: string;
  options?: readonly string[];
  allowNo?: boolean;
}

interface CommandSpec {
  flags: FlagSpec[];
  /** How many positional arguments it takes. */
  args: number;
}

/** The commands of the built CLI, from the oclif classes' static `flags`, `baseFlags` and `args`. */
async function loadCommands(): Promise<Map<string, CommandSpec>> {
  const dir = join(ROOT, 'dist/commands');
  const sources = readdirSync(join(ROOT, 'src/commands')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const missing = sources.filter((f) => !existsSync(join(dir, f.replace(/\.ts$/, '.js'))));
  if (missing.length > 0) throw new Error(`dist/commands lacks ${missing.join(', ')}: run \`npm run build\` (npm test builds first)`);
  const commands = new Map<string, CommandSpec>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const cls = ((await import(join(dir, file))) as { default: { flags?: object; baseFlags?: object; args?: object } }).default;
    const all = { ...(cls.baseFlags ?? {}), ...(cls.flags ?? {}) } as Record<string, Omit<FlagSpec, 'name'>>;
    commands.set(file.replace(/\.js$/, ''), {
      flags: Object.entries(all).map(([name, f]) => ({ name, type: f.type, char: f.char, options: f.options, allowNo: f.allowNo })),
      args: Object.keys(cls.args ?? {}).length,
    });
  }
  return commands;
}

/**
 * Shell words of a script, good enough for CI recipes: quotes, backslash-newline continuations,
 * `${{ … }}` expressions kept whole, and operators (`;`, `&&`, `||`, `|`, `&`, newlines, redirections)
 * as words of their own.
 */
export function shellWords(script: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  const flush = () => {
    if (started) words.push(word);
    word = '';
    started = false;
  };
  const text = script.replace(/\\\n/g, ' ');
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (text.startsWith('${{', i)) {
      const end = text.indexOf('}}', i);
      const stop = end < 0 ? text.length : end + 2;
      word += text.slice(i, stop);
      started = true;
      i = stop - 1;
    } else if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      const stop = end < 0 ? text.length : end;
      word += text.slice(i + 1, stop);
      started = true;
      i = stop;
    } else if (c === '#' && !started) {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (c === ' ' || c === '\t') flush();
    else if (c === '\n' || c === ';' || c === '|' || c === '&' || c === '>' || c === '<') {
      // `2>&1`, `>>`, `&&`, `||`: an operator word, whatever it is exactly.
      if (c === '>' || c === '<') {
        if (/^\d+$/.test(word)) word = '';
        flush();
      } else flush();
      let op = c;
      while (i + 1 < text.length && /[;|&><]/.test(text[i + 1])) op += text[++i];
      words.push(op === '\n' ? ';' : op);
    } else {
      word += c;
      started = true;
    }
  }
  flush();
  return words;
}

const OPERATOR = /^[;|&><]+$/;

/** The argument lists of every `docplane` command in a script (the words after `docplane`). */
export function docplaneInvocations(script: string): string[][] {
  const words = shellWords(script);
  const out: string[][] = [];
  let atCommandStart = true;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (OPERATOR.test(w)) {
      // A redirection's target is a file, not a command; any other operator starts a command.
      if (/[<>]/.test(w)) i++;
      else atCommandStart = true;
      continue;
    }
    if (atCommandStart && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) continue; // VAR=value before a command
    if (atCommandStart && w === 'npx') {
      // `npx [--yes] docplane[@VERSION] …`: the package may carry a version.
      let j = i + 1;
      while (j < words.length && words[j].startsWith('-')) j++;
      if (j < words.length && /^docplane(@\S+)?$/.test(words[j])) i = j - 1;
      else {
        atCommandStart = false;
        continue;
      }
      atCommandStart = true;
      continue;
    }
    if (atCommandStart && (w === 'docplane' || w.endsWith('/docplane') || /^docplane@\S+$/.test(w))) {
      const args: string[] = [];
      for (i = i + 1; i < words.length; i++) {
        if (OPERATOR.test(words[i])) {
          i--;
          break;
        }
        args.push(words[i]);
      }
      out.push(args);
    }
    atCommandStart = false;
  }
  return out;
}

/** What is wrong with one `docplane` invocation, given the CLI's commands; empty when nothing. */
export function invocationProblems(args: readonly string[], commands: ReadonlyMap<string, CommandSpec>): string[] {
  const [name, ...rest] = args;
  const command = name === undefined ? undefined : commands.get(name);
  if (!command) return [`unknown command "${name ?? ''}" (commands: ${[...commands.keys()].sort().join(', ')})`];
  const problems: string[] = [];
  let positional = 0;
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i];
    if (w === '--') {
      positional += rest.length - i - 1;
      break;
    }
    if (!w.startsWith('-') || w === '-') {
      positional++;
      continue;
    }
    const [flagWord, inlineValue] = w.includes('=') ? [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)] : [w, undefined];
    const long = flagWord.startsWith('--');
    const bare = flagWord.replace(/^--?/, '');
    const flag = long
      ? (command.flags.find((f) => f.name === bare) ?? command.flags.find((f) => f.type === 'boolean' && f.allowNo && `no-${f.name}` === bare))
      : command.flags.find((f) => f.char === bare);
    if (!flag) {
      problems.push(`${name}: unknown flag ${flagWord}`);
      continue;
    }
    if (flag.type === 'boolean') {
      if (inlineValue !== undefined) problems.push(`${name}: ${flagWord} takes no value`);
      continue;
    }
    const value = inlineValue ?? rest[++i];
    if (value === undefined) {
      problems.push(`${name}: ${flagWord} needs a value`);
      continue;
    }
    // A value from the environment or an expression is known only at run time.
    if (flag.options && !value.includes('$') && !flag.options.includes(value)) problems.push(`${name}: ${flagWord} ${value} is not one of ${flag.options.join(', ')}`);
  }
  if (positional > command.args) problems.push(`${name}: ${positional} arguments given, it takes ${command.args}`);
  return problems;
}

/** Every script anywhere in a workflow: GitHub's `run:`, GitLab's `script:` (and before/after). */
function runScripts(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) runScripts(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'run' && typeof v === 'string') out.push(v);
      else if (/^(before_|after_)?script$/.test(k) && (typeof v === 'string' || Array.isArray(v))) out.push([v].flat().join('\n'));
      else runScripts(v, out);
    }
  }
  return out;
}

/** Every step that uses the docplane action, with what it passes. */
function actionUses(value: unknown, out: Array<{ uses: string; with: Record<string, unknown> }> = []): Array<{ uses: string; with: Record<string, unknown> }> {
  if (Array.isArray(value)) for (const v of value) actionUses(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.uses === 'string' && ACTION_USES.test(o.uses)) out.push({ uses: o.uses, with: (o.with ?? {}) as Record<string, unknown> });
    else for (const v of Object.values(o)) actionUses(v, out);
  }
  return out;
}

interface ActionInput {
  required?: boolean;
  default?: unknown;
  description?: string;
}

function loadAction(): { inputs: Record<string, ActionInput>; runs: { using: string; steps: Array<Record<string, unknown>> } } {
  return (parseAllDocuments(readFileSync(ACTION, 'utf8')) as Array<{ toJS(): any }>)[0].toJS();
}

/** What is wrong with one use of the action, given action.yml's inputs; empty when nothing. */
export function actionUseProblems(use: { uses: string; with: Record<string, unknown> }, inputs: Record<string, ActionInput>): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(use.with)) if (!(key in inputs)) problems.push(`unknown input ${key} (inputs: ${Object.keys(inputs).join(', ')})`);
  for (const [name, input] of Object.entries(inputs)) {
    if (input.required && input.default === undefined && !(name in use.with)) problems.push(`missing required input ${name}`);
  }
  const command = String(use.with.command ?? '');
  if (!['plan', 'apply', 'drift'].includes(command)) problems.push(`command ${command} is not one of plan, apply, drift`);
  const version = String(use.with.version ?? '');
  if (!/^\d+\.\d+\.\d+$/.test(version)) problems.push(`version ${version} is not exact`);
  const tag = ACTION_USES.exec(use.uses)?.[2];
  if (tag && tag !== version) problems.push(`the action ${use.uses} installs docplane ${version}: use the same version for both`);
  if ('on-drift' in use.with && !['fail', 'issue'].includes(String(use.with['on-drift']))) problems.push(`on-drift ${String(use.with['on-drift'])} is not one of fail, issue`);
  return problems;
}

/**
 * The docplane commands the action's script runs: the array literals passed to `runDocplane(bin, [...])`,
 * string literals as they are and any other element as a run-time value.
 */
export function scriptInvocations(source: string): string[][] {
  return [...source.matchAll(/runDocplane\(bin, \[([^\]]*)\]/g)].map((m) =>
    m[1]
      .replace(/\([^()]*\)/g, '(…)')
      .split(',')
      .map((e) => e.trim())
      // A spread (`...baseArgs(…)`) adds flags the script makes elsewhere: left out here.
      .filter((e) => e !== '' && !e.startsWith('...'))
      .map((e) => (/^'[^']*'$/.test(e) ? e.slice(1, -1) : '$VALUE')),
  );
}

const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)).sort();
let commands: Map<string, CommandSpec>;

beforeAll(async () => {
  commands = await loadCommands();
});

describe('GitHub Actions recipes', () => {
  it('holds the plan, apply and drift workflows', () => {
    expect(files).toEqual(expect.arrayContaining(['docplane-apply.yml', 'docplane-drift.yml', 'docplane-plan.yml']));
  });

  describe.each(files)('%s', (file) => {
    const text = readFileSync(join(WORKFLOWS, file), 'utf8');

    it('is strict YAML: one document, no errors or warnings, unique keys, no tabs, no trailing spaces', () => {
      const docs = parseAllDocuments(text, { uniqueKeys: true, strict: true, prettyErrors: true });
      expect(Array.isArray(docs)).toBe(true);
      expect(docs).toHaveLength(1);
      const [doc] = docs as Exclude<typeof docs, { empty: true }>;
      expect(doc.errors.map((e) => e.message)).toEqual([]);
      expect(doc.warnings.map((w) => w.message)).toEqual([]);
      const lines = text.split('\n');
      expect(lines.flatMap((l, i) => (l.includes('\t') ? [`line ${i + 1} has a tab`] : []))).toEqual([]);
      expect(lines.flatMap((l, i) => (/[ \t]+$/.test(l) ? [`line ${i + 1} ends in spaces`] : []))).toEqual([]);
      expect(text.endsWith('\n')).toBe(true);
    });

    it('has `on` and `jobs`, and each job has steps', () => {
      const wf = (parseAllDocuments(text) as Array<{ toJS(): Record<string, unknown> }>)[0].toJS();
      expect(wf).toHaveProperty('on');
      expect(wf.jobs).toBeTypeOf('object');
      const jobs = Object.values(wf.jobs as Record<string, { steps?: unknown[] }>);
      expect(jobs.length).toBeGreaterThan(0);
      for (const job of jobs) expect(Array.isArray(job.steps) && job.steps.length > 0).toBe(true);
    });

    it('runs docplane only with commands and flags the CLI has, or the action with inputs it has', () => {
      const wf = (parseAllDocuments(text) as Array<{ toJS(): unknown }>)[0].toJS();
      const invocations = runScripts(wf).flatMap((s) => docplaneInvocations(s));
      const uses = actionUses(wf);
      expect(invocations.length + uses.length).toBeGreaterThan(0);
      expect(invocations.flatMap((args) => invocationProblems(args, commands).map((p) => `docplane ${args.join(' ')}: ${p}`))).toEqual([]);
      const { inputs } = loadAction();
      expect(uses.flatMap((u) => actionUseProblems(u, inputs).map((p) => `${u.uses}: ${p}`))).toEqual([]);
    });
  });

  it('use the action for plan, apply and drift, all with one exact docplane version', () => {
    const uses = files.flatMap((f) => actionUses((parseAllDocuments(readFileSync(join(WORKFLOWS, f), 'utf8')) as Array<{ toJS(): unknown }>)[0].toJS()));
    expect(uses.map((u) => u.with.command).sort()).toEqual(['apply', 'drift', 'plan']);
    expect(new Set(uses.map((u) => u.with.version)).size).toBe(1);
  });

  it('give the apply workflow no concurrency group (GitHub cancels all but one pending run of a group)', () => {
    const wf = (parseAllDocuments(readFileSync(join(WORKFLOWS, 'docplane-apply.yml'), 'utf8')) as Array<{ toJS(): any }>)[0].toJS();
    expect(wf.concurrency).toBeUndefined();
    for (const job of Object.values(wf.jobs as Record<string, { concurrency?: unknown }>)) expect(job.concurrency).toBeUndefined();
  });

});

describe('the GitHub Action (action.yml and its script)', () => {
  const text = readFileSync(ACTION, 'utf8');

  it('is strict YAML, a composite action whose inputs all have descriptions', () => {
    const docs = parseAllDocuments(text, { uniqueKeys: true, strict: true });
    const [doc] = docs as Exclude<typeof docs, { empty: true }>;
    expect(doc.errors.map((e) => e.message)).toEqual([]);
    expect(doc.warnings.map((w) => w.message)).toEqual([]);
    expect(text.split('\n').filter((l) => /[ \t]+$/.test(l) || l.includes('\t'))).toEqual([]);
    const action = loadAction();
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['command', 'version', 'config', 'token', 'api-url', 'on-drift']));
    expect(Object.entries(action.inputs).filter(([, i]) => !i.description)).toEqual([]);
    expect(action.inputs.version.required).toBe(true);
  });

  it('reads in its steps only the inputs it declares, and runs only the steps its script has', () => {
    const { inputs, runs } = loadAction();
    const used = [...text.matchAll(/inputs\.([a-z-]+)/g)].map((m) => m[1]);
    expect(used.filter((u) => !(u in inputs))).toEqual([]);
    const script = readFileSync(ACTION_SCRIPT, 'utf8');
    const steps = runs.steps.flatMap((s) => [...String(s.run ?? '').matchAll(/docplane-action\.mjs" ([a-z-]+)/g)].map((m) => m[1]));
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(script).toContain(`case '${step}':`);
  });

  it('runs docplane from its script only with commands and flags the CLI has: markdown plans, saved plans, the detailed exit code', () => {
    // `docplane --version` is oclif's own flag, not a command.
    const invocations = scriptInvocations(readFileSync(ACTION_SCRIPT, 'utf8')).filter((a) => a.join(' ') !== '--version');
    expect(invocations.length).toBeGreaterThanOrEqual(4);
    expect(invocations.flatMap((args) => invocationProblems(args, commands).map((p) => `docplane ${args.join(' ')}: ${p}`))).toEqual([]);
    const flat = invocations.map((a) => a.join(' '));
    expect(flat.some((a) => a.startsWith('plan ') && a.includes('--format markdown') && a.includes('--out $VALUE') && a.includes('--detailed-exitcode'))).toBe(true);
    expect(flat.some((a) => a.startsWith('apply $VALUE'))).toBe(true);
    expect(flat.some((a) => a.startsWith('apply ') && a.includes('--auto-approve'))).toBe(true);
  });

  it('the checker of uses: unknown and missing inputs, inexact versions, unknown commands', () => {
    const { inputs } = loadAction();
    expect(actionUseProblems({ uses: 'docplane/docplane@v0.1.0', with: { command: 'plan', version: '0.1.0', token: 'x' } }, inputs)).toEqual([]);
    expect(actionUseProblems({ uses: './', with: { command: 'deploy', version: '0.1', tokn: 'x' } }, inputs)).toEqual([
      expect.stringMatching(/^unknown input tokn/),
      'command deploy is not one of plan, apply, drift',
      'version 0.1 is not exact',
    ]);
    expect(actionUseProblems({ uses: './', with: { command: 'plan' } }, inputs)).toEqual(['missing required input version', 'version  is not exact']);
    expect(actionUseProblems({ uses: 'docplane/docplane@v0.2.0', with: { command: 'plan', version: '0.1.0' } }, inputs)).toEqual([
      'the action docplane/docplane@v0.2.0 installs docplane 0.1.0: use the same version for both',
    ]);
  });
});

describe('the GitLab CI recipe', () => {
  const text = readFileSync(GITLAB, 'utf8');

  it('is strict YAML with plan, apply and drift jobs', () => {
    const docs = parseAllDocuments(text, { uniqueKeys: true, strict: true });
    const [doc] = docs as Exclude<typeof docs, { empty: true }>;
    expect(doc.errors.map((e) => e.message)).toEqual([]);
    expect(text.split('\n').filter((l) => /[ \t]+$/.test(l) || l.includes('\t'))).toEqual([]);
    expect(Object.keys(doc.toJS())).toEqual(expect.arrayContaining(['docplane-plan', 'docplane-apply', 'docplane-drift']));
  });

  it('runs `npx docplane@VERSION` only with commands and flags the CLI has, at one exact version', () => {
    const ci = (parseAllDocuments(text) as Array<{ toJS(): any }>)[0].toJS();
    const invocations = runScripts(ci).flatMap(docplaneInvocations);
    expect(invocations.length).toBeGreaterThanOrEqual(4);
    expect(invocations.flatMap((args) => invocationProblems(args, commands).map((p) => `docplane ${args.join(' ')}: ${p}`))).toEqual([]);
    expect(ci.variables.DOCPLANE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    // One variable says where docplane comes from (the registry's release, else a tarball or a git
    // reference before a release), and every npx takes it.
    expect(ci.variables.DOCPLANE_PACKAGE).toBe('docplane@${DOCPLANE_VERSION}');
    const npx = runScripts(ci).flatMap((script: string) => script.split('\n')).filter((l: string) => l.includes('npx'));
    expect(npx.length).toBeGreaterThanOrEqual(4);
    expect(npx.filter((l: string) => !l.includes('npx --yes --package="${DOCPLANE_PACKAGE}" docplane '))).toEqual([]);
    const flat = invocations.map((a) => a.join(' '));
    expect(flat.some((a) => a.startsWith('plan ') && a.includes('--format markdown') && a.includes('--out plan.json'))).toBe(true);
    expect(flat.some((a) => a.startsWith('plan ') && a.includes('--detailed-exitcode'))).toBe(true);
    expect(ci['docplane-apply'].resource_group).toBeTruthy();
  });
});

describe('the invocation checker', () => {
  it('finds docplane commands in scripts: continuations, redirections, env prefixes, several per line', () => {
    const script = [
      'set +e',
      'DOCPLANE_TOKEN=x docplane plan -c docplane/ \\',
      '  --format markdown --out plan.json > plan.md 2>&1; code=$?',
      'echo "docplane plan --nope" && ./node_modules/.bin/docplane apply plan.json --format=text',
      'npm install --global docplane@0.1 # docplane validate --bad',
      'docplane validate -c "${{ github.workspace }}/docplane"',
      'code=0; npx --yes "docplane@${DOCPLANE_VERSION}" plan -c docplane/ > plan.md || code=$?',
      'npx prettier --check docplane/',
    ].join('\n');
    expect(docplaneInvocations(script)).toEqual([
      ['plan', '-c', 'docplane/', '--format', 'markdown', '--out', 'plan.json'],
      ['apply', 'plan.json', '--format=text'],
      ['validate', '-c', '${{ github.workspace }}/docplane'],
      ['plan', '-c', 'docplane/'],
    ]);
  });

  it('reports unknown commands, unknown flags, missing values, values not in the options, extra arguments', () => {
    expect(invocationProblems(['plan', '-c', 'x', '--format', 'markdown', '--detailed-exitcode', '--target', 'teams["A"]'], commands)).toEqual([]);
    expect(invocationProblems(['plan', '--no-color'], commands)).toEqual([]);
    expect(invocationProblems(['frobnicate'], commands)[0]).toMatch(/^unknown command "frobnicate" \(commands: .*apply.*import.*plan/);
    expect(invocationProblems(['plan', '--auto-approve'], commands)).toEqual(['plan: unknown flag --auto-approve']);
    expect(invocationProblems(['plan', '-x'], commands)).toEqual(['plan: unknown flag -x']);
    expect(invocationProblems(['plan', '--out'], commands)).toEqual(['plan: --out needs a value']);
    expect(invocationProblems(['plan', '--format', 'html'], commands)).toEqual(['plan: --format html is not one of text, json, markdown']);
    expect(invocationProblems(['plan', '--detailed-exitcode=yes'], commands)).toEqual(['plan: --detailed-exitcode takes no value']);
    expect(invocationProblems(['plan', 'extra'], commands)).toEqual(['plan: 1 arguments given, it takes 0']);
    expect(invocationProblems(['import', '--org', 'org_acme', '--site', 'site_docs', '--out', '-', '--force'], commands)).toEqual([]);
  });
});
