// The live service's published description is the contract (docs/conformance.md): every exchange
// docplane sends and the emulator answers is checked against
// node_modules/@gitbook/api/spec/openapi.json, pinned in package.json.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isAllowed, type AllowEntry } from './allow.js';

/** One request and its answer, as the emulator's `onExchange` callback and its `--log` lines give it. */
export interface Exchange {
  method: string;
  /** May carry the `/v1` prefix and a query string. */
  path: string;
  requestHeaders?: Record<string, string>;
  /** `undefined`, `null` and `''` all mean "no body" (the emulator's log writes `null`). */
  requestBody?: unknown;
  /** 0: the connection was reset, nothing was answered. */
  status: number;
  responseHeaders?: Record<string, string>;
  responseBody?: unknown;
  /** The emulator's log tags injected faults (`error-before`, `reset-after`…). */
  fault?: string;
}

export type ProblemWhere = 'path' | 'query' | 'request' | 'status' | 'response';

export interface ConformanceProblem {
  /** The operationId, or `METHOD /template` (`METHOD /path` for an operation the description lacks). */
  operation: string;
  where: ProblemWhere;
  /** A JSON pointer: into the body for request/response, `/name` for a parameter, `/<status>` for a status. */
  pointer: string;
  message: string;
}

export interface Conformance {
  check(exchange: Exchange): ConformanceProblem[];
  /** The operation an exchange is routed to, or undefined if the description has none. */
  operationFor(method: string, path: string): OperationRef | undefined;
}

export interface OperationRef {
  /** The operationId, or `METHOD /template`. */
  id: string;
  method: string;
  /** The description's path template, without `/v1`. */
  template: string;
}

export interface ConformanceOptions {
  /** The OpenAPI document; defaults to the pinned `@gitbook/api` description. */
  description?: OpenApiDocument;
  /** Documented differences to drop from the results (see allow.ts). None by default. */
  allow?: readonly AllowEntry[];
}

export type OpenApiDocument = {
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
} & Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  /** JSON pointer (without `#`) to the parameter's schema inside the description. */
  schemaPointer?: string;
}

interface Operation {
  id: string;
  method: string;
  template: string;
  /** JSON pointer to the operation object. */
  pointer: string;
  op: Record<string, any>;
  pathParams: Parameter[];
  queryParams: Map<string, Parameter>;
  route: Route;
}

interface Route {
  template: string;
  segments: string[];
  /** Per segment: literal (true) or a `{parameter}` (false); ranks matches. */
  literal: boolean[];
  operations: Map<string, Operation>;
}

const DESCRIPTION_ID = 'openapi.json';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Reads the pinned description from node_modules. Synchronous, called only when asked. */
export function loadDescription(): OpenApiDocument {
  const require = createRequire(import.meta.url);
  return JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as OpenApiDocument;
}

export function formatProblem(p: ConformanceProblem): string {
  return `${p.operation} ${p.where} ${p.pointer || '(root)'}: ${p.message}`;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Follows a local `$ref` (`#/components/...`) to the object and its pointer. */
function deref(doc: OpenApiDocument, value: any, pointer: string): { value: any; pointer: string } {
  let current = value;
  let at = pointer;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 10; hops++) {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) break;
    at = ref.slice(1);
    current = at
      .split('/')
      .slice(1)
      .reduce<any>((node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return { value: current, pointer: at };
}

function buildRoutes(doc: OpenApiDocument): Route[] {
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const segments = template.split('/').slice(1);
    const route: Route = { template, segments, literal: segments.map((s) => !/^\{.*\}$/.test(s)), operations: new Map() };
    for (const method of HTTP_METHODS) {
      const op = item[method] as Record<string, any> | undefined;
      if (!op) continue;
      const pointer = `/paths/${escapePointer(template)}/${method}`;
      const params: Parameter[] = [];
      // Path-item parameters first; the operation's own override them by name and location.
      const lists: Array<[unknown[] | undefined, string]> = [
        [item.parameters as unknown[] | undefined, `/paths/${escapePointer(template)}/parameters`],
        [op.parameters as unknown[] | undefined, `${pointer}/parameters`],
      ];
      for (const [list, listPointer] of lists) {
        (list ?? []).forEach((raw, i) => {
          const { value, pointer: at } = deref(doc, raw, `${listPointer}/${i}`);
          if (!value || typeof value !== 'object') return;
          const p: Parameter = { name: value.name, in: value.in, required: value.required === true, schemaPointer: value.schema ? `${at}/schema` : undefined };
          const existing = params.findIndex((q) => q.name === p.name && q.in === p.in);
          if (existing >= 0) params[existing] = p;
          else params.push(p);
        });
      }
      route.operations.set(method.toUpperCase(), {
        id: typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        template,
        pointer,
        op,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: new Map(params.filter((p) => p.in === 'query').map((p) => [p.name, p])),
        route,
      });
    }
    routes.push(route);
  }
  // Most specific first: at the first segment where two templates differ in kind, the literal wins.
  routes.sort((a, b) => {
    const n = Math.min(a.literal.length, b.literal.length);
    for (let i = 0; i < n; i++) if (a.literal[i] !== b.literal[i]) return a.literal[i] ? -1 : 1;
    return 0;
  });
  return routes;
}

function splitPath(raw: string): { segments: string[]; query: URLSearchParams; pathname: string } {
  const q = raw.indexOf('?');
  let pathname = q >= 0 ? raw.slice(0, q) : raw;
  const query = new URLSearchParams(q >= 0 ? raw.slice(q + 1) : '');
  if (pathname === '/v1' || pathname.startsWith('/v1/')) pathname = pathname.slice(3) || '/';
  if (pathname.length > 1 && pathname.endsWith('/')) pathname = pathname.slice(0, -1);
  return { segments: pathname.split('/').slice(1), query, pathname };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function describeError(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') return `${e.message} ('${String(p.additionalProperty)}')`;
  if (e.keyword === 'unevaluatedProperties') return `${e.message} ('${String(p.unevaluatedProperty)}')`;
  if (e.keyword === 'enum') return `${e.message}: ${JSON.stringify(p.allowedValues)}`;
  if (e.keyword === 'const') return `${e.message}: ${JSON.stringify(p.allowedValue)}`;
  return e.message ?? e.keyword;
}

interface BodyError {
  pointer: string;
  message: string;
}

const underPointer = (pointer: string, base: string) => pointer === base || pointer.startsWith(`${base}/`);

function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  return pointer
    .split('/')
    .slice(1)
    .reduce<any>((node, part) => (node == null ? undefined : node[part.replace(/~1/g, '/').replace(/~0/g, '~')]), data);
}

/**
 * ajv's errors as one message per failing place. A failed oneOf/anyOf makes every branch fail for
 * its own reason, which reads as noise ("/children/0 must have required property 'url'" from the
 * external-link branch of a section). So its branch errors are dropped and, when the value names
 * its branch (an `object` property whose value one branch's `object` enum holds — the
 * description's objects all carry one), the value is checked against that branch alone.
 */
function explainErrors(errors: ErrorObject[] | null | undefined, data: unknown, branchErrors: (branch: unknown, value: unknown) => BodyError[] | undefined): BodyError[] {
  const out: Array<BodyError & { at: string }> = [];
  for (const e of errors ?? []) {
    if (e.keyword === 'if') continue;
    if (e.keyword !== 'oneOf' && e.keyword !== 'anyOf') {
      out.push({ at: e.instancePath, pointer: e.instancePath, message: describeError(e) });
      continue;
    }
    // ajv reports a failed combinator after the errors of its branches, all at or under its place.
    while (out.length > 0 && underPointer(out[out.length - 1].at, e.instancePath)) out.pop();
    const value = valueAt(data, e.instancePath);
    const branches = Array.isArray(e.schema) ? (e.schema as unknown[]) : [];
    let explained: BodyError[] | undefined;
    for (const branch of branches) {
      explained = branchErrors(branch, value);
      if (explained) break;
    }
    if (explained && explained.length > 0) {
      for (const x of explained) out.push({ at: e.instancePath, pointer: `${e.instancePath}${x.pointer}`, message: x.message });
    } else {
      const named =
        value && typeof value === 'object' && typeof (value as any).object === 'string'
          ? ` (object '${(value as any).object}')`
          : ` (value ${JSON.stringify(value)?.slice(0, 40) ?? 'absent'})`;
      out.push({ at: e.instancePath, pointer: e.instancePath, message: `${describeError(e)}${named}` });
    }
  }
  const seen = new Set<string>();
  return out
    .map(({ pointer, message }) => ({ pointer, message }))
    .filter((x) => {
      const key = `${x.pointer} ${x.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

const isEmptyBody = (b: unknown) => b === undefined || b === null || b === '';

/** The response object documented for a status: exact code, then `2XX`-style range, then `default`. */
function documentedResponse(responses: Record<string, unknown> | undefined, status: number): string | undefined {
  if (!responses) return undefined;
  const code = String(status);
  if (code in responses) return code;
  const range = `${code[0]}XX`;
  for (const key of Object.keys(responses)) if (key.toUpperCase() === range) return key;
  if ('default' in responses) return 'default';
  return undefined;
}

export function createConformance(options: ConformanceOptions = {}): Conformance {
  const doc = options.description ?? loadDescription();
  const allow = options.allow ?? [];
  const routes = buildRoutes(doc);
  // verbose: a failed oneOf's error carries its branches (see explainErrors). Without ajv's pass
  // that tidies the generated code, compiling takes about half the time; the checks are the same.
  const ajvOptions = { strict: false, allErrors: true, verbose: true, validateSchema: false, logger: false as const, code: { optimize: false } };
  const bodies = new Ajv2020(ajvOptions);
  // Parameters arrive as strings: coerce to the declared type ('array' also wraps a single value).
  const params = new Ajv2020({ ...ajvOptions, coerceTypes: 'array' });
  const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
  for (const ajv of [bodies, params]) {
    addFormats(ajv);
    // Formats the description uses that ajv-formats does not know: names only, nothing to check.
    for (const name of ['emoji', 'icon']) ajv.addFormat(name, true);
    ajv.addSchema(doc, DESCRIPTION_ID);
  }
  // Compiling is most of a check's cost. Validators are compiled on first use, and once per distinct
  // schema: operations that share a parameter or a component share its validator.
  const compiled = new Map<string, ValidateFunction>();
  const bySchema = new Map<Ajv2020, Map<string, ValidateFunction>>([
    [bodies, new Map()],
    [params, new Map()],
  ]);
  const compile = (ajv: Ajv2020, key: string, schema: () => object): ValidateFunction => {
    let fn = compiled.get(key);
    if (!fn) {
      const built = schema();
      const same = bySchema.get(ajv)!;
      const text = JSON.stringify(built);
      fn = same.get(text);
      if (!fn) {
        fn = ajv.compile(built);
        same.set(text, fn);
      }
      compiled.set(key, fn);
    }
    return fn;
  };
  // `pointer` is already JSON-pointer escaped; the fragment of a URI percent-encodes it too.
  const refTo = (pointer: string) => ({ $ref: `${DESCRIPTION_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
  /** A reference to the schema at `pointer`, or to the component it only refers to. */
  const refToTarget = (pointer: string) => refTo(deref(doc, valueAt(doc, pointer), pointer).pointer);

  // Routes are sorted most specific first (buildRoutes): the first with this method wins.
  // A path is routed once: the same paths come again and again.
  const routed = new Map<string, { operation: Operation } | undefined>();
  const route = (method: string, segments: string[]): { operation: Operation } | undefined => {
    const m = method.toUpperCase();
    const key = `${m} ${segments.join('/')}`;
    if (routed.has(key)) return routed.get(key);
    let found: { operation: Operation } | undefined;
    for (const r of routes) {
      if (r.segments.length !== segments.length) continue;
      if (!r.segments.every((s, i) => !r.literal[i] || s === segments[i])) continue;
      const operation = r.operations.get(m);
      if (operation) {
        found = { operation };
        break;
      }
    }
    routed.set(key, found);
    return found;
  };

  const checkParams = (operation: Operation, kind: 'path' | 'query', values: Record<string, string | string[]>, declared: Parameter[]): ConformanceProblem[] => {
    const out: ConformanceProblem[] = [];
    for (const p of declared) {
      if (p.required && !(p.name in values)) out.push({ operation: operation.id, where: kind, pointer: `/${escapePointer(p.name)}`, message: `required ${kind} parameter '${p.name}' is missing` });
    }
    const withSchema = declared.filter((p) => p.schemaPointer && p.name in values);
    if (withSchema.length === 0) return out;
    const validate = compile(params, `${operation.pointer} ${kind} ${withSchema.map((p) => p.name).join(',')}`, () => ({
      type: 'object',
      properties: Object.fromEntries(withSchema.map((p) => [p.name, refTo(p.schemaPointer!)])),
    }));
    // Coercion rewrites the values in place: a copy (of the lists too) keeps the caller's.
    const data = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, Array.isArray(value) ? [...value] : value]));
    if (!validate(data)) {
      for (const x of explainErrors(validate.errors, data, () => undefined)) out.push({ operation: operation.id, where: kind, ...x });
    }
    return out;
  };

  const checkBody = (operation: Operation, where: 'request' | 'response', key: string, pointer: string, body: unknown): ConformanceProblem[] => {
    const validate = compile(bodies, `${operation.pointer} ${key}`, () => refToTarget(pointer));
    if (validate(body)) return [];
    return explainErrors(validate.errors, body, branchErrors).map((x) => ({ operation: operation.id, where, ...x }));
  };

  /** The errors of a value against the oneOf branch it names by its `object`, or undefined if it names another. */
  const branchErrors = (branch: unknown, value: unknown): BodyError[] | undefined => {
    if (!branch || typeof branch !== 'object' || typeof (branch as any).$ref !== 'string') return undefined;
    const ref: string = (branch as any).$ref;
    if (!ref.startsWith('#/')) return undefined;
    const target = deref(doc, branch, '').value as Record<string, any> | undefined;
    const tag = target?.properties?.object;
    const name = value && typeof value === 'object' ? (value as any).object : undefined;
    if (typeof name !== 'string' || !tag) return undefined;
    const names: unknown[] = Array.isArray(tag.enum) ? tag.enum : 'const' in tag ? [tag.const] : [];
    if (!names.includes(name)) return undefined;
    const validate = compile(bodies, `branch ${ref}`, () => refToTarget(ref.slice(1)));
    if (validate(value)) return [];
    return explainErrors(validate.errors, value, branchErrors);
  };

  const check = (exchange: Exchange): ConformanceProblem[] => {
    const { segments, query, pathname } = splitPath(exchange.path);
    const method = exchange.method.toUpperCase();
    const found = route(method, segments);
    if (!found) {
      return [{ operation: `${method} ${pathname}`, where: 'path', pointer: '', message: `the description has no operation ${method} for this path` }];
    }
    const { operation } = found;
    const problems: ConformanceProblem[] = [];

    // Path parameters, by position in the template.
    const pathValues: Record<string, string> = {};
    const r = operation.route;
    r.segments.forEach((s, i) => {
      if (!r.literal[i]) pathValues[s.slice(1, -1)] = safeDecode(segments[i]);
    });
    problems.push(...checkParams(operation, 'path', pathValues, operation.pathParams));

    // Query parameters: each declared, and valid once coerced.
    const queryValues: Record<string, string | string[]> = {};
    for (const name of new Set(query.keys())) {
      if (!operation.queryParams.has(name)) {
        problems.push({ operation: operation.id, where: 'query', pointer: `/${escapePointer(name)}`, message: `query parameter '${name}' is not documented` });
        continue;
      }
      const all = query.getAll(name);
      queryValues[name] = all.length === 1 ? all[0] : all;
    }
    problems.push(...checkParams(operation, 'query', queryValues, [...operation.queryParams.values()]));

    // Request body.
    const requestBody = deref(doc, operation.op.requestBody, `${operation.pointer}/requestBody`);
    const hasRequestBody = !isEmptyBody(exchange.requestBody);
    if (!requestBody.value) {
      if (hasRequestBody) problems.push({ operation: operation.id, where: 'request', pointer: '', message: 'a body was sent but the operation documents none' });
    } else if (!hasRequestBody) {
      if (requestBody.value.required === true) problems.push({ operation: operation.id, where: 'request', pointer: '', message: 'the operation requires a body and none was sent' });
    } else if (requestBody.value.content?.['application/json']?.schema !== undefined) {
      problems.push(...checkBody(operation, 'request', 'request', `${requestBody.pointer}/content/application~1json/schema`, exchange.requestBody));
    } else {
      problems.push({ operation: operation.id, where: 'request', pointer: '', message: `a JSON body was sent but the operation documents only ${Object.keys(requestBody.value.content ?? {}).join(', ') || 'no content'}` });
    }

    // Status and response body. A reset has no answer; a 429 or 5xx may be injected by the
    // transport or the rate limit, not by the operation: their body is checked only if documented.
    const status = exchange.status;
    if (status === 0) return problems;
    const transport = status === 429 || status >= 500;
    const key = documentedResponse(operation.op.responses, status);
    if (!key) {
      if (!transport) {
        const documented = Object.keys(operation.op.responses ?? {}).join(', ');
        problems.push({ operation: operation.id, where: 'status', pointer: `/${status}`, message: `status ${status} is not documented (documented: ${documented})` });
      }
      return problems;
    }
    const response = deref(doc, operation.op.responses[key], `${operation.pointer}/responses/${key}`);
    const content = response.value?.content as Record<string, any> | undefined;
    const hasResponseBody = !isEmptyBody(exchange.responseBody);
    if (!content || Object.keys(content).length === 0) {
      if (hasResponseBody) problems.push({ operation: operation.id, where: 'response', pointer: '', message: `status ${status} documents no body but one was answered` });
      return problems;
    }
    const json = content['application/json'];
    if (!json) {
      if (hasResponseBody) problems.push({ operation: operation.id, where: 'response', pointer: '', message: `status ${status} documents only ${Object.keys(content).join(', ')} but a JSON body was answered` });
      return problems;
    }
    if (json.schema === undefined) return problems;
    if (!hasResponseBody) {
      problems.push({ operation: operation.id, where: 'response', pointer: '', message: `status ${status} documents a JSON body but none was answered` });
      return problems;
    }
    problems.push(...checkBody(operation, 'response', `response ${key}`, `${response.pointer}/content/application~1json/schema`, exchange.responseBody));
    return problems;
  };

  return {
    check: (exchange) => {
      const problems = check(exchange);
      return allow.length === 0 ? problems : problems.filter((p) => !isAllowed(p, allow));
    },
    operationFor: (method, path) => {
      const operation = route(method, splitPath(path).segments)?.operation;
      return operation && { id: operation.id, method: operation.method, template: operation.template };
    },
  };
}
