/**
 * Policies from the config's documents, compiled once: each rule parsed, checked (src/policy/check.ts)
 * and planned by @bufbuild/cel. A rule that does not compile, a name used twice: problems at their
 * place in the config, as every config error is.
 */
import type { CelResult } from '@bufbuild/cel';
import type { SourceLocation } from '../model/desired.js';
import { child, locationOf, where, type Origin, type Problems } from '../source/origin.js';
import type { SourceDocument } from '../source/yaml.js';
import { checkRule } from './check.js';
import type { PolicyT } from './schema.js';

export interface CompiledPolicy {
  name: string;
  resource: string;
  rule: string;
  message?: string;
  severity: 'error' | 'warning';
  /** Where the policy is defined (its entry in `policies`). */
  origin: Origin;
  /** Runs the rule with `self` bound to `value` (a CEL input: see toCel in src/policy/run.ts). */
  evaluate(value: unknown): CelResult;
}

/** The compiled policies of a config, in the order the documents give them. */
export interface PolicySet {
  policies: CompiledPolicy[];
}

/** Where the policy is defined, as a plain location. */
export function policyLocation(policy: CompiledPolicy): SourceLocation {
  const l = locationOf(policy.origin);
  return { file: l.file, line: l.line, column: l.column };
}

/** A parse error as @bufbuild/cel words it (`<input>:1:8: found = but …`), placed in the rule. */
function parseMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const m = /^<input>:(\d+):(\d+):\s*(.*)$/s.exec(text);
  return m ? `the rule does not compile (at ${m[1]}:${m[2]} of the rule): ${m[3].split('\n')[0]}` : `the rule does not compile: ${text.split('\n')[0]}`;
}

/**
 * Compiles the `policies` of every document; problems (a rule that does not compile or type-check, a
 * name defined twice) go to `problems`. The evaluator is loaded only for a config that has policies.
 */
export async function compilePolicies(docs: readonly { source: SourceDocument; data: { policies?: PolicyT[] } }[], problems: Problems): Promise<PolicySet> {
  if (!docs.some((d) => (d.data.policies ?? []).length > 0)) return { policies: [] };
  const { celEnv, CelScalar, parse, plan } = await import('@bufbuild/cel');
  const env = celEnv({ variables: { self: CelScalar.DYN } });
  const names = new Map<string, Origin>();
  const policies: CompiledPolicy[] = [];
  for (const { source, data } of docs) {
    (data.policies ?? []).forEach((p, i) => {
      const origin: Origin = { source, path: ['policies', i] };
      const earlier = names.get(p.name);
      if (earlier) {
        problems.at(child(origin, 'name'), `policy ${JSON.stringify(p.name)} is also defined at ${where(earlier)}; policy names are unique`);
        return;
      }
      names.set(p.name, origin);
      let parsed;
      try {
        parsed = parse(p.rule);
      } catch (e) {
        problems.at(child(origin, 'rule'), parseMessage(e));
        return;
      }
      const wrong = checkRule(env, parsed.expr);
      if (wrong !== undefined) {
        problems.at(child(origin, 'rule'), `the rule does not type-check: ${wrong}`);
        return;
      }
      const run = plan(env, parsed);
      policies.push({
        name: p.name,
        resource: p.resource,
        rule: p.rule,
        ...(p.message !== undefined ? { message: p.message } : {}),
        severity: p.severity,
        origin,
        evaluate: (value) => run({ self: value as never }),
      });
    });
  }
  return { policies };
}
