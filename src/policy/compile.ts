/**
 * Policies from the config's documents, compiled once: each rule parsed, checked (src/policy/check.ts)
 * and planned by @bufbuild/cel. A rule that does not compile, a name used twice: problems at their
 * place in the config, as every config error is.
 */
import type { CelResult, parse } from '@bufbuild/cel';
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
  /**
   * Runs the rule with `self` bound to `value` (a CEL input: see toCel in src/policy/run.ts), and says
   * what it cost; past `limit` the rule's loops stop and `overrun` is true (the result means nothing then).
   */
  evaluate(value: unknown, limit: number): Evaluation;
}

export interface Evaluation {
  result: CelResult;
  /** The rule's size plus, per loop iteration, 1 and the size of the list or map it accumulates. */
  cost: number;
  overrun: boolean;
}

/** A node of a parsed rule (the type @bufbuild/cel's parse gives). */
type Expr = NonNullable<ReturnType<typeof parse>['expr']>;

/** The name of the function that counts a loop's iterations; a rule cannot call it (it does not type-check). */
const COST_FUNCTION = '__docplane_cost';

/**
 * @bufbuild/cel has no cost model of its own: every comprehension (the macros `all`, `exists`, `map`,
 * `filter`…) gets a call to COST_FUNCTION in its loop condition, which adds the iteration's cost and
 * ends the loop once the budget is spent. Returns the number of nodes of the rule (its base cost).
 */
function meterLoops(expr: Expr | undefined, ids: { next: bigint }): number {
  if (!expr) return 0;
  const k = expr.exprKind;
  const node = (exprKind: Expr['exprKind']): Expr => ({ $typeName: 'cel.expr.Expr', id: ids.next++, exprKind }) as Expr;
  switch (k.case) {
    case 'comprehensionExpr': {
      const c = k.value;
      const n = meterLoops(c.iterRange, ids) + meterLoops(c.accuInit, ids) + meterLoops(c.loopCondition, ids) + meterLoops(c.loopStep, ids) + meterLoops(c.result, ids);
      const accu = node({ case: 'identExpr', value: { $typeName: 'cel.expr.Expr.Ident', name: c.accuVar } });
      const tick = node({ case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: COST_FUNCTION, args: [accu] } as never });
      if (c.loopCondition) c.loopCondition = node({ case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: '_&&_', args: [tick, c.loopCondition] } as never });
      return n + 1;
    }
    case 'callExpr':
      return 1 + meterLoops(k.value.target, ids) + k.value.args.reduce((n, a) => n + meterLoops(a, ids), 0);
    case 'selectExpr':
      return 1 + meterLoops(k.value.operand, ids);
    case 'listExpr':
      return 1 + k.value.elements.reduce((n, e) => n + meterLoops(e, ids), 0);
    case 'structExpr':
      return 1 + k.value.entries.reduce((n, e) => n + meterLoops(e.value, ids) + (e.keyKind.case === 'mapKey' ? meterLoops(e.keyKind.value, ids) : 0), 0);
    default:
      return 1;
  }
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
  const { celEnv, celFunc, CelScalar, isCelList, isCelMap, parse, plan } = await import('@bufbuild/cel');
  const env = celEnv({ variables: { self: CelScalar.DYN } });
  // The meter of the evaluation under way (evaluations run one at a time, synchronously).
  const meter = { cost: 0, limit: 0 };
  const counted = celEnv({
    variables: { self: CelScalar.DYN },
    funcs: [
      celFunc(COST_FUNCTION, [CelScalar.DYN], CelScalar.BOOL, (accu) => {
        meter.cost += 1 + (isCelList(accu) || isCelMap(accu) ? accu.size : 0);
        return meter.cost <= meter.limit;
      }),
    ],
  });
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
      // The checked rule is metered after the check: the cost function is not the rule author's to call.
      const size = meterLoops(parsed.expr, { next: 1n << 40n });
      const run = plan(counted, parsed);
      policies.push({
        name: p.name,
        resource: p.resource,
        rule: p.rule,
        ...(p.message !== undefined ? { message: p.message } : {}),
        severity: p.severity,
        origin,
        evaluate: (value, limit) => {
          meter.cost = size;
          meter.limit = limit;
          const result = run({ self: value as never });
          return { result, cost: meter.cost, overrun: meter.cost > limit };
        },
      });
    });
  }
  return { policies };
}
