/**
 * `${env:NAME}`, `${env:NAME:-default}` and `${file:PATH}` inside any string of a config, and `$${`
 * for a literal `${`. Every value they bring in is a secret (masked in every output), except a
 * `:-default` written in the config for a variable that is unset and whose name names no secret
 * (`${env:VISIBILITY:-public}` is the literal `public`, which policies see). `${file:…}` is
 * relative to the YAML file and must stay inside the config folder once symlinks are resolved.
 *
 * Refused, at the string's position: the API token (`${env:DOCPLANE_TOKEN}`, or its value anywhere),
 * which docplane sends only in the Authorization header and would otherwise write into the
 * organization; and a secret under 6 characters, which cannot be masked safely where it stands
 * inside other text (`Acme` in `Acme Corp`).
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Secret } from '../core/secrets.js';
import { decodeText } from '../source/yaml.js';

/** A file read through `${file:…}`: part of the config's hash. */
export interface IncludedFile {
  rel: string;
  raw: Buffer;
}

export interface InterpolationContext {
  env: Record<string, string | undefined>;
  /** The config folder, as given (file references may not leave it). */
  root: string;
  /** realpath of the config folder. */
  rootReal: string;
  /** Folder of the YAML file the string is in. */
  dir: string;
  /** Shared across one load: each referenced file is read once. */
  files: Map<string, { text: string } | { problem: string }>;
  included: Map<string, IncludedFile>;
  secrets: Map<string, Secret>;
}

export interface InterpolationProblem {
  path: (string | number)[];
  message: string;
}

/** The environment variable that holds the API token. */
const TOKEN_VARIABLE = 'DOCPLANE_TOKEN';

/** Shorter secrets are refused: masked by value inside other text, they would mask (and tell) too much. */
export const MIN_SECRET_LENGTH = 6;

/** Large enough for any script or certificate; a bigger file is surely a wrong path. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** A variable whose name says it holds a secret: its `:-default` is masked like a value from the environment. */
const SECRET_NAME = /SECRET|TOKEN|PASSWORD|PASSWD|PRIVATE|CREDENTIAL|API_?KEY|(^|_)KEY($|_)|CERT/i;

const ENV = /^env:([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;
const FILE = /^file:([\s\S]+)$/;

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

function readIncluded(ctx: InterpolationContext, ref: string): { text: string; rel: string } | { problem: string } {
  const lexical = path.resolve(ctx.dir, ref);
  const rel = toPosix(path.relative(ctx.root, lexical));
  const cached = ctx.files.get(lexical);
  if (cached) return 'text' in cached ? { text: cached.text, rel } : cached;
  const result = ((): { text: string } | { problem: string } => {
    let real: string;
    try {
      real = realpathSync(lexical);
    } catch {
      return { problem: `file "${ref}" does not exist (paths are relative to the YAML file)` };
    }
    const inside = path.relative(ctx.rootReal, real);
    if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) {
      return { problem: `file "${ref}" is outside the config folder ${ctx.root}; keep referenced files inside it` };
    }
    let raw: Buffer;
    try {
      const st = statSync(real);
      if (!st.isFile()) return { problem: `"${ref}" is not a file` };
      if (st.size > MAX_FILE_BYTES) return { problem: `file "${ref}" is larger than 5 MiB` };
      raw = readFileSync(real);
    } catch (e) {
      return { problem: `file "${ref}" cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    const decoded = decodeText(raw);
    if ('problem' in decoded) return { problem: `file "${ref}" is not UTF-8 text` };
    ctx.included.set(rel, { rel, raw });
    return { text: decoded.text };
  })();
  ctx.files.set(lexical, result);
  return 'text' in result ? { text: result.text, rel } : result;
}

/** Records a secret; a problem when it is too short to mask safely. */
function addSecret(ctx: InterpolationContext, name: string, value: string, shown: string, problems: string[]): void {
  if (value !== '' && value.length < MIN_SECRET_LENGTH) {
    problems.push(
      `the value of ${shown} has ${value.length} ${value.length === 1 ? 'character' : 'characters'}: a secret under ${MIN_SECRET_LENGTH} characters cannot be masked safely in docplane's output; use a longer value, or write this value in the config itself`,
    );
    return;
  }
  if (value !== '' && !ctx.secrets.has(name)) ctx.secrets.set(name, { name, value });
}

/** The token's value, when it is long enough to look for (a shorter one is refused by the client's own checks soon enough). */
function tokenOf(ctx: InterpolationContext): string | undefined {
  const token = ctx.env[TOKEN_VARIABLE]?.trim();
  return token && token.length >= MIN_SECRET_LENGTH ? token : undefined;
}

const TOKEN_PROBLEM = `holds the API token (env ${TOKEN_VARIABLE}): docplane sends the token only in the Authorization header, never in a field; remove it from the config`;

/** One string with its `${…}` replaced; problems are reported at the string. */
export function interpolateString(
  input: string,
  ctx: InterpolationContext,
): { value: string; problems: string[] } {
  if (!input.includes('${')) return { value: input, problems: [] };
  const problems: string[] = [];
  let out = '';
  let i = 0;
  while (i < input.length) {
    if (input.startsWith('$${', i)) {
      out += '${';
      i += 3;
      continue;
    }
    if (!input.startsWith('${', i)) {
      out += input[i];
      i++;
      continue;
    }
    const end = input.indexOf('}', i + 2);
    if (end < 0) {
      problems.push('"${" is not closed by "}" (write "$${" for a literal "${")');
      break;
    }
    const expr = input.slice(i + 2, end);
    i = end + 1;
    const env = ENV.exec(expr);
    const file = FILE.exec(expr);
    if (env) {
      const [, name, fallback] = env;
      const set = ctx.env[name];
      if (name === TOKEN_VARIABLE) {
        problems.push(`\${env:${TOKEN_VARIABLE}} reads the API token into the config: docplane sends the token only in the Authorization header, never in a field`);
      } else if (set !== undefined && !(fallback !== undefined && set === '')) {
        addSecret(ctx, `env:${name}`, set, `\${env:${name}}`, problems);
        out += set;
      } else if (fallback !== undefined) {
        // The default is written in the config itself: a literal, unless the variable names a secret.
        if (SECRET_NAME.test(name)) addSecret(ctx, `env:${name}`, fallback, `\${env:${name}:-…}`, problems);
        out += fallback;
      } else {
        problems.push(`environment variable ${name} is not set (set it, or write \${env:${name}:-default})`);
      }
    } else if (file) {
      const got = readIncluded(ctx, file[1].trim());
      if ('problem' in got) problems.push(got.problem);
      else {
        addSecret(ctx, `file:${got.rel}`, got.text, `\${file:${file[1].trim()}}`, problems);
        out += got.text;
      }
    } else {
      const shown = expr.length > 40 ? `${expr.slice(0, 40)}…` : expr;
      problems.push(`unknown reference "\${${shown}}": use \${env:NAME}, \${env:NAME:-default} or \${file:PATH} (or "$\${" for a literal "\${")`);
    }
  }
  const token = tokenOf(ctx);
  if (token !== undefined && out.includes(token) && problems.length === 0) problems.push(`this string ${TOKEN_PROBLEM}`);
  return { value: out, problems };
}

/** A shallow copy of a plain object, keeping a key named __proto__ an ordinary key. */
function copyOf(source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(source)) Object.defineProperty(out, k, { value: source[k], enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * A parsed YAML value with every string interpolated (lists and mappings holding a changed string
 * are copies, the rest is the value given), the problems, and the paths of the
 * strings that changed (their values may be secret). Only plain objects and lists are walked.
 */
export function interpolateValue(
  value: unknown,
  ctx: InterpolationContext,
): { value: unknown; problems: InterpolationProblem[]; replaced: (string | number)[][] } {
  const problems: InterpolationProblem[] = [];
  const replaced: (string | number)[][] = [];
  const token = tokenOf(ctx);
  // One path, grown and shrunk along the walk; copied only where a problem or a replacement is recorded.
  const at: (string | number)[] = [];
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      // Most strings hold no reference: nothing to copy or record.
      if (!v.includes('${')) {
        if (token !== undefined && v.includes(token)) problems.push({ path: [...at], message: `this string ${TOKEN_PROBLEM}` });
        return v;
      }
      const r = interpolateString(v, ctx);
      for (const message of r.problems) problems.push({ path: [...at], message });
      if (r.value !== v) replaced.push([...at]);
      return r.value;
    }
    // A list or mapping is copied only when something under it changed (copy on write).
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        at.push(i);
        const item = walk(v[i]);
        at.pop();
        if (item !== v[i]) (out ??= [...v])[i] = item;
      }
      return out ?? v;
    }
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      const source = v as Record<string, unknown>;
      let out: Record<string, unknown> | undefined;
      for (const k of Object.keys(source)) {
        at.push(k);
        const item = walk(source[k]);
        at.pop();
        if (item === source[k]) continue;
        out ??= copyOf(source);
        // defineProperty, so that a key named __proto__ stays an ordinary key.
        Object.defineProperty(out, k, { value: item, enumerable: true, writable: true, configurable: true });
      }
      return out ?? v;
    }
    return v;
  };
  return { value: walk(value), problems, replaced };
}
