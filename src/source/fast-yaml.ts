/**
 * A quick read of a config file's values, without the node ranges the yaml package keeps for every
 * node (src/source/yaml.ts): by the block read (src/source/block-yaml.ts) when the file is of its
 * subset, else by js-yaml, which reads a config several times faster than the yaml package and keeps
 * only the values; positions are then computed only when a problem needs one, by parsing the file
 * again with the yaml package (SourceFile.positions).
 *
 * The quick read must give exactly what the yaml package's toJS gives, or nothing (the file is then
 * read the slow way, which reports every problem as before). So it declines whatever the two
 * packages could read differently: aliases and anchors, tags, directives, complex keys, keys the
 * yaml package would refuse or name otherwise, documents that are not mappings, and any file
 * js-yaml refuses (a duplicate key, a syntax error). Plain scalars resolve by the yaml package's
 * YAML 1.2 core schema, with its own patterns.
 */
import { createRequire } from 'node:module';
import type { Schema } from 'js-yaml';
import { blockValues } from './block-yaml.js';
import { BOOL, constructFloat, constructInt, FLOAT, FLOAT_EXP, FLOAT_NAN, INT, INT_HEX, INT_OCT, MAX_KEY_LENGTH, maybeNotString as maybe, NULL } from './core-schema.js';

type JsYaml = typeof import('js-yaml');
let jsYaml: { loadAll: JsYaml['loadAll']; schema: Schema } | undefined;

/**
 * js-yaml with the yaml package's core schema, loaded when first needed: a config that the block
 * read takes (src/source/block-yaml.ts) never needs it.
 */
function jsYamlReader(): { loadAll: JsYaml['loadAll']; schema: Schema } {
  if (jsYaml) return jsYaml;
  const { FAILSAFE_SCHEMA, loadAll, Type } = createRequire(import.meta.url)('js-yaml') as JsYaml;
  const schema = FAILSAFE_SCHEMA.extend({
    implicit: [
      new Type('tag:yaml.org,2002:null', { kind: 'scalar', resolve: (s: string | null) => s === null || s === '' || (maybe(s) && NULL.test(s)), construct: () => null }),
      new Type('tag:yaml.org,2002:bool', { kind: 'scalar', resolve: (s: string | null) => maybe(s) && BOOL.test(s), construct: (s: string) => s[0] === 't' || s[0] === 'T' }),
      new Type('tag:yaml.org,2002:int', { kind: 'scalar', resolve: (s: string | null) => maybe(s) && (INT_OCT.test(s) || INT.test(s) || INT_HEX.test(s)), construct: constructInt }),
      new Type('tag:yaml.org,2002:float', { kind: 'scalar', resolve: (s: string | null) => maybe(s) && (FLOAT_NAN.test(s) || FLOAT_EXP.test(s) || FLOAT.test(s)), construct: constructFloat }),
    ],
  });
  jsYaml = { loadAll, schema };
  return jsYaml;
}

/**
 * What the quick read leaves to the yaml package, found in the text: an anchor or alias (`&a`, `*a`),
 * a tag (`!x`, `!!str`), a directive (`%YAML`), an explicit key (`? `), a flow collection as a key
 * (`[a]: b`), a comment right after a flow collection or a closing quote (`[a]#`, `"a"#`: the yaml package
 * wants a space before it; a quote that opens a string, as in `'#0B5FFF'`, is not one), a `#` right
 * after a flow indicator (`{#x`, `[#x`, `,#x`: js-yaml starts a comment there and reads on past the
 * line's closing bracket, the yaml package refuses it), a list entry with nothing on its line (js-yaml may give it the entries
 * of an outer list that follow). A match inside a string (`**bold**`) declines too, only one inside
 * a comment does not.
 */
const DECLINED = /(?:^|[\s[{,])[&*!?]|^%|[\]}][ \t]*:(?:\s|$)|[\]}]#|[[{,]#|[^\s:[{,]["']#|(?:^|\s)-[ ]*(?:#.*)?$/gm;

/**
 * Whether the match at `index` is inside a comment: after a `#` that starts one (at the line's start
 * or after a space), on a line with no quote (a quote could open or close a string holding the `#`).
 */
function inComment(text: string, index: number): boolean {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  const lineEnd = text.indexOf('\n', index);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  return /(?:^|\s)#/.test(text.slice(lineStart, index)) && !/["']/.test(line);
}

/**
 * Whether a flow collection (`{…}`, `[…]`) may go on past the end of a line: the yaml package wants
 * its lines indented more than the block around it, js-yaml does not. Counted roughly (brackets in
 * strings count too): a line with more openings than closings declines the file. A comment ends the
 * count of its line (`{ # x }` leaves the mapping open), from a `#` after a space or a flow indicator
 * (a `#` inside a string may then decline a file the two read alike: the slow read takes it).
 */
function multiLineFlow(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x23 && (i === 0 || /[\s[{,]/.test(text[i - 1]))) {
      const end = text.indexOf('\n', i);
      if (end < 0) break;
      i = end - 1;
    } else if (c === 0x0a || c === 0x0d) {
      if (depth > 0) return true;
      depth = 0;
    }
  }
  return depth > 0;
}

/**
 * The lines of `text` in which `pattern` (global) matches, in order. A config has few lines with a
 * quote or a brace: splitting a 400 KB file into its 15,000 lines to look at two dozen of them cost
 * more than the rest of these checks.
 */
function* linesWith(text: string, pattern: RegExp): Generator<string> {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const start = text.lastIndexOf('\n', m.index - 1) + 1;
    const newline = text.indexOf('\n', m.index);
    const end = newline < 0 ? text.length : newline;
    yield text.slice(start, end);
    if (newline < 0) return;
    pattern.lastIndex = newline + 1;
  }
}

/** Where the quoted string opened at `open` closes on its line (`''` and `\"` escape), or -1. */
function closingQuote(line: string, open: number): number {
  const q = line[open];
  for (let i = open + 1; i < line.length; i++) {
    if (q === '"' && line[i] === '\\') i++;
    else if (line[i] === q) {
      if (q === "'" && line[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}

/**
 * Whether a quoted string may go on past the end of its line: the yaml package wants its next lines
 * indented more than the block around it, js-yaml does not. A quote that starts a token (at the
 * line's start or after a space, `[`, `{` or `,`) must close on its line.
 */
function multiLineQuote(text: string): boolean {
  const opening = /(?:^|[\s[{,])["']/g;
  for (const line of linesWith(text, /["']/g)) {
    opening.lastIndex = 0;
    let from = 0;
    for (let m = opening.exec(line); m !== null; m = opening.exec(line)) {
      const open = m.index + m[0].length - 1;
      // A comment started since the last string: the rest of the line is in it.
      if (/(?:^|\s)#/.test(line.slice(from, open))) break;
      const close = closingQuote(line, open);
      if (close < 0) return true;
      from = close + 1;
      opening.lastIndex = from;
    }
  }
  return false;
}

/**
 * Whether a flow mapping has a collection as a key (`{ a: 1, [b, c] }`): js-yaml names it `b,c`, the
 * yaml package `[ b, c ]`. Flow collections are on one line here (multiLineFlow); quoted strings
 * are skipped, a comment ends the line.
 */
function flowCollectionKey(text: string): boolean {
  for (const line of linesWith(text, /\{/g)) {
    const open: string[] = [];
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if ((c === '"' || c === "'") && (i === 0 || /[\s[{,:]/.test(line[i - 1]))) {
        const close = closingQuote(line, i);
        if (close < 0) return true;
        i = close;
      } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) break;
      else if (c === '[') open.push(c);
      else if (c === ']' || c === '}') open.pop();
      if ((c === '{' || (c === ',' && open[open.length - 1] === '{')) && /^\s*[[{]/.test(line.slice(i + 1))) return true;
      if (c === '{') open.push(c);
    }
  }
  return false;
}

function declined(text: string): boolean {
  if (multiLineFlow(text) || multiLineQuote(text) || flowCollectionKey(text)) return true;
  DECLINED.lastIndex = 0;
  for (let m = DECLINED.exec(text); m !== null; m = DECLINED.exec(text)) {
    if (!inComment(text, m.index + (m[0].length > 1 && /\s|[[{,]/.test(m[0][0]) ? 1 : 0))) return true;
  }
  return false;
}

/** V8 makes a substring this long or longer a view into its parent string (a "sliced string"). */
const SLICED_MIN = 13;

/**
 * A copy of a string that does not hold on to the text it was cut from: js-yaml cuts every scalar
 * out of its own copy of the file, and a view into it keeps that copy (megabytes at scale) alive for
 * as long as any value of the config is.
 */
function detached(s: string): string {
  return s.length < SLICED_MIN ? s : `${s} `.slice(0, -1);
}

/**
 * Whether every key is one the yaml package's toJS gives alike: not `null` (`null:` is `""` there,
 * `"null"` here), not longer than it accepts. (Shared objects, which an alias would make, cannot
 * occur: the text has no alias, see DECLINED.) On the way, string values are detached from the
 * text js-yaml read (keys are copied by V8 already).
 */
function plainKeys(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'string') v[i] = detached(x);
        else stack.push(x);
      }
      continue;
    }
    const o = v as Record<string, unknown>;
    for (const k in o) {
      if (k === 'null' || k.length > MAX_KEY_LENGTH) return false;
      const x = o[k];
      if (typeof x === 'string') o[k] = detached(x);
      else stack.push(x);
    }
  }
  return true;
}

/**
 * The values of a file's documents, each a mapping, as the yaml package's toJS gives them; undefined
 * when the quick read declines (then the file is read by parseFile, which reports what is wrong).
 */
export function quickValues(source: string): Record<string, unknown>[] | undefined {
  // js-yaml misreads some CRLF line ends (a `-` alone on a line before a blank one); every YAML line
  // break reads as LF, so LF is read instead. A lone CR is left to the yaml package.
  const text = source.includes('\r') ? source.replace(/\r\n/g, '\n') : source;
  const block = blockValues(text);
  if (block) return block;
  // Tabs: the yaml package refuses them as indentation where js-yaml may not.
  if (text.includes('\r') || text.includes('\t') || declined(text)) return undefined;
  let docs: unknown[];
  try {
    const { loadAll, schema } = jsYamlReader();
    docs = loadAll(text, undefined, { schema }) as unknown[];
  } catch {
    // A syntax error, a duplicate key, nesting deeper than the stack: the slow read says which.
    return undefined;
  }
  if (docs.length === 0) return undefined;
  for (const doc of docs) {
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || Object.getPrototypeOf(doc) !== Object.prototype) return undefined;
    if (Object.keys(doc).length === 0) return undefined;
  }
  return plainKeys(docs) ? (docs as Record<string, unknown>[]) : undefined;
}
