/**
 * A static check of a parsed CEL rule, through @bufbuild/cel's public API: every name is declared
 * (`self`, the variables of the macros, the standard functions), every call has an overload for the
 * types its arguments are known to have, and the rule gives a bool. `self` is of type dyn (a config
 * entry or a step, whose fields the rule may or may not find), so what depends on it is checked when
 * the rule runs; constants and the results of functions are typed here, as CEL's checker types them.
 */
import type { CelEnv, CelType } from '@bufbuild/cel';
import type { parse } from '@bufbuild/cel';

type Expr = ReturnType<typeof parse>['expr'];

/** A type as the check knows it: a CEL type name (`int`, `string`, `list`, …), or `dyn` for unknown. */
type T = string;

const DYN: T = 'dyn';
const NUMERIC = new Set(['int', 'uint', 'double']);
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

class CheckError extends Error {}

function nameOf(t: CelType): T {
  if (t.kind === 'list') return 'list';
  if (t.kind === 'map') return 'map';
  return t.name;
}

const accepts = (param: T, arg: T) => param === DYN || arg === DYN || param === arg;

/** The first problem of `expr` in `env`, or undefined when it type-checks. */
export function checkRule(env: CelEnv, expr: Expr): string | undefined {
  try {
    const result = typeOf(env, expr, new Map([['self', DYN]]));
    if (result !== DYN && result !== 'bool') return `the rule gives a value of type ${result}, not a bool (true means compliant)`;
    return undefined;
  } catch (e) {
    if (e instanceof CheckError) return e.message;
    throw e;
  }
}

function typeOf(env: CelEnv, expr: Expr, scope: ReadonlyMap<string, T>): T {
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'constExpr': {
      const c = kind.value.constantKind.case;
      return c === 'boolValue' ? 'bool' : c === 'int64Value' ? 'int' : c === 'uint64Value' ? 'uint' : c === 'doubleValue' ? 'double' : c === 'stringValue' ? 'string' : c === 'bytesValue' ? 'bytes' : c === 'nullValue' ? 'null_type' : DYN;
    }
    case 'identExpr': {
      const name = kind.value.name;
      const t = scope.get(name);
      if (t !== undefined) return t;
      if (TYPE_NAMES.has(name)) return 'type';
      throw new CheckError(`undeclared reference to '${name}' (the rule sees \`self\`)`);
    }
    case 'selectExpr': {
      const operand = typeOf(env, kind.value.operand ?? expr, scope);
      if (operand !== DYN && operand !== 'map') throw new CheckError(`type '${operand}' does not support field selection (.${kind.value.field})`);
      return kind.value.testOnly ? 'bool' : DYN;
    }
    case 'callExpr':
      return callType(env, kind.value, scope);
    case 'listExpr':
      for (const e of kind.value.elements) typeOf(env, e, scope);
      return 'list';
    case 'structExpr':
      if (kind.value.messageName !== '') throw new CheckError(`unknown type '${kind.value.messageName}'`);
      for (const entry of kind.value.entries) {
        if (entry.keyKind.case === 'mapKey') typeOf(env, entry.keyKind.value, scope);
        if (entry.value) typeOf(env, entry.value, scope);
      }
      return 'map';
    case 'comprehensionExpr': {
      const c = kind.value;
      const range = c.iterRange ? typeOf(env, c.iterRange, scope) : DYN;
      if (range !== DYN && range !== 'list' && range !== 'map') throw new CheckError(`expression of type '${range}' cannot be the range of a comprehension (must be a list or a map)`);
      const accu = c.accuInit ? typeOf(env, c.accuInit, scope) : DYN;
      const inner = new Map(scope);
      inner.set(c.iterVar, DYN);
      if (c.iterVar2) inner.set(c.iterVar2, DYN);
      inner.set(c.accuVar, accu);
      if (c.loopCondition) typeOf(env, c.loopCondition, inner);
      if (c.loopStep) typeOf(env, c.loopStep, inner);
      const result = c.result ? typeOf(env, c.result, inner) : DYN;
      // A macro's accumulator is typed by its first value; its steps may widen it.
      return result === accu ? accu : DYN;
    }
    default:
      return DYN;
  }
}

type Call = Extract<Expr['exprKind'], { case: 'callExpr' }>['value'];

function callType(env: CelEnv, call: Call, scope: ReadonlyMap<string, T>): T {
  const target = call.target ? typeOf(env, call.target, scope) : undefined;
  const args = call.args.map((a) => typeOf(env, a, scope));
  const fn = call.function;
  const noOverload = () => new CheckError(`found no matching overload for '${fn}' applied to '${target !== undefined ? `${target}.` : ''}(${args.join(', ')})'`);
  switch (fn) {
    case '_&&_':
    case '_||_':
    case '!_':
    case '@not_strictly_false':
      if (args.some((a) => a !== 'bool' && a !== DYN)) throw noOverload();
      return 'bool';
    case '_?_:_':
      if (args[0] !== 'bool' && args[0] !== DYN) throw noOverload();
      return args[1] === args[2] ? args[1] : DYN;
    case '_==_':
    case '_!=_': {
      const [a, b] = args;
      const comparable = a === DYN || b === DYN || a === b || (NUMERIC.has(a) && NUMERIC.has(b)) || a === 'null_type' || b === 'null_type';
      if (!comparable) throw noOverload();
      return 'bool';
    }
    case '_[_]':
    case '_[?_]':
      if (args[0] !== DYN && args[0] !== 'list' && args[0] !== 'map') throw noOverload();
      return DYN;
  }
  const group = env.funcs.find(fn);
  if (group === undefined) throw new CheckError(`undeclared reference to '${fn}'`);
  const results = new Set<T>();
  for (const f of group) {
    if ((f.target === undefined) !== (target === undefined)) continue;
    if (f.target !== undefined && target !== undefined && !accepts(nameOf(f.target), target)) continue;
    if (f.arguments.length !== args.length || !f.arguments.every((p, i) => accepts(nameOf(p), args[i]))) continue;
    results.add(nameOf(f.result));
  }
  if (results.size === 0) throw noOverload();
  return results.size === 1 ? [...results][0] : DYN;
}
