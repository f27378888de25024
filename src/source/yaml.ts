/**
 * Reading config files into their documents' values, and pointing at file:line:column for every
 * later problem (schema, interpolation, merge, cross-reference). One library reads every file: the
 * yaml package gives the documents, their values (`toJS`) and their node ranges. Once a file's
 * values are taken, its parse is let go (`forgetParse`); a position asked for later parses the file
 * again, so a large config does not keep its syntax tree alive while it is planned.
 */
import { isUtf8 } from 'node:buffer';
import * as yaml from 'yaml';
import type { Document, LineCounter, Node, Pair } from 'yaml';

/** A path inside a document, as zod reports it: keys and list indexes. */
export type DocPath = ReadonlyArray<string | number>;

/** One YAML file, decoded and split into documents. */
export interface SourceFile {
  /** Absolute path. */
  abs: string;
  /** How messages show it: relative to the working folder when inside it, else absolute. */
  display: string;
  /** Path relative to the config folder, with `/` (for the config hash). */
  rel: string;
  raw: Buffer;
  text: string;
  /** Line starts, filled when the file's YAML documents are parsed (see `yamlDocuments`). */
  lines?: LineCounter;
  /** The file's YAML documents with node ranges, while parsed. */
  documents?: Document.Parsed[];
}

export interface SourceDocument {
  file: SourceFile;
  /** Index of the document in its file, from 0. */
  index: number;
}

/** A file's YAML documents with their node ranges, parsed once (filling the file's line counter). */
function yamlDocuments(file: SourceFile): Document.Parsed[] {
  if (!file.documents) {
    file.lines = new yaml.LineCounter();
    // Duplicate keys are found by parseFile, in one pass per mapping: the yaml package's own check
    // compares each key with every earlier one, which takes minutes on a mapping of many keys.
    const docs = yaml.parseAllDocuments(file.text, { lineCounter: file.lines, uniqueKeys: false, prettyErrors: false, logLevel: 'error' });
    // An empty stream comes back as an EmptyStream (an array with no documents).
    file.documents = Array.isArray(docs) ? (docs as Document.Parsed[]) : [];
  }
  return file.documents;
}

/** The YAML document of a source, parsed from its file's text again if its parse was let go. */
export function documentOf(source: SourceDocument): Document.Parsed {
  return yamlDocuments(source.file)[source.index];
}

/** Lets go of a file's parse once its values are taken (positions asked for later parse it again). */
export function forgetParse(file: SourceFile): void {
  file.documents = undefined;
  file.lines = undefined;
}

/**
 * Lets go of a file's decoded text once its value is taken (a large config's text is one string of
 * twice its size when it holds any character past Latin-1); a position asked for later decodes the
 * file's bytes again, once.
 */
export function releaseText(file: SourceFile): void {
  let text: string | undefined;
  Object.defineProperty(file, 'text', {
    configurable: true,
    enumerable: true,
    get: () => (text ??= (decodeText(file.raw) as { text: string }).text),
  });
}

/** A problem found before the documents were merged: a place in one document and a message. */
export interface RawIssue {
  file: SourceFile;
  line: number;
  column: number;
  path: string;
  message: string;
}

export type LocateMode = 'value' | 'key' | 'parent';

export function position(file: SourceFile, offset: number): { line: number; column: number } {
  // The line starts are counted by the yaml package's parse of the file: parsed here if not yet.
  if (!file.lines) yamlDocuments(file);
  const { line, col } = (file.lines as LineCounter).linePos(Math.max(0, Math.min(offset, file.text.length)));
  // linePos answers line 0 when the counter knows no newline before the offset.
  return { line: Math.max(1, line), column: Math.max(1, col) };
}

/** `teams[0].members[2]`, with keys that are not plain names quoted: `secrets["API-KEY"]`. */
export function formatPath(path: DocPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Offset of the first byte that does not start a valid UTF-8 sequence, or -1. */
function firstInvalidUtf8(buf: Buffer): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i];
    let need = 0;
    let min = 0;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= buf.length) return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** Line and column (1-based, in characters) of a byte offset in a buffer whose prefix is valid UTF-8. */
function bytePosition(buf: Buffer, offset: number): { line: number; column: number } {
  const before = buf.subarray(0, offset).toString('utf8');
  const lastNl = before.lastIndexOf('\n');
  const line = before.split('\n').length;
  return { line, column: [...before.slice(lastNl + 1)].length + 1 };
}

/**
 * Decodes a file's bytes as UTF-8 text, or tells why it cannot: a binary file, UTF-16, invalid
 * UTF-8 (with the place of the first bad byte).
 */
export function decodeText(raw: Buffer): { text: string } | { problem: string; line: number; column: number } {
  if ((raw[0] === 0xff && raw[1] === 0xfe) || (raw[0] === 0xfe && raw[1] === 0xff)) {
    return { problem: 'the file is UTF-16 text; save it as UTF-8', line: 1, column: 1 };
  }
  const nul = raw.indexOf(0);
  if (nul >= 0) {
    const invalidBefore = firstInvalidUtf8(raw.subarray(0, nul));
    const at = invalidBefore >= 0 ? invalidBefore : nul;
    return { problem: 'the file is binary, not YAML text (it holds a NUL byte)', ...bytePosition(raw, at) };
  }
  // Node's own check first: the loop below takes ~5 ms on a 400 KB config on a cold engine, and is
  // needed only to say where the first bad byte is.
  const valid = isUtf8(raw);
  const bad = valid ? -1 : firstInvalidUtf8(raw);
  if (bad >= 0) {
    return {
      problem: `the file is not valid UTF-8 (byte 0x${raw[bad].toString(16).padStart(2, '0')}); save it as UTF-8`,
      ...bytePosition(raw, bad),
    };
  }
  let text = valid ? raw.toString('utf8') : UTF8.decode(raw);
  // A byte order mark is allowed but means nothing; dropping it keeps columns of line 1 right.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { text };
}

const YAML_MESSAGES: Record<string, string> = {
  TAB_AS_INDENT: 'tabs are not allowed for indentation in YAML; indent with spaces',
  DUPLICATE_KEY: 'this key appears twice in the same mapping',
  MISSING_CHAR: 'YAML syntax error',
  BAD_INDENT: 'YAML syntax error: bad indentation',
  MULTILINE_IMPLICIT_KEY: 'YAML syntax error: a key must stay on one line (is a ":" missing on the line before?)',
  BLOCK_AS_IMPLICIT_KEY: 'YAML syntax error: a nested mapping cannot start on the line of its key',
  KEY_OVER_1024_CHARS: 'YAML syntax error: a key is longer than 1024 characters',
  TAG_RESOLVE_FAILED: 'unknown YAML tag',
};

/** The yaml package's message without its own "at line L, column C:" and source excerpt. */
function yamlMessage(code: string, message: string): string {
  if (/call stack/i.test(message)) return 'the YAML is nested too deeply to read';
  const own = message.split('\n')[0].replace(/ at line \d+, column \d+:?\s*$/, '');
  const base = YAML_MESSAGES[code];
  if (!base) return `YAML syntax error: ${own.charAt(0).toLowerCase()}${own.slice(1)}`;
  if (code === 'MISSING_CHAR' || code === 'TAG_RESOLVE_FAILED') return `${base}: ${own.charAt(0).toLowerCase()}${own.slice(1)}`;
  return base;
}

export interface ParsedFile {
  documents: SourceDocument[];
  issues: RawIssue[];
}

/**
 * Parses a decoded file into its documents. A document with YAML errors is reported and left out;
 * empty documents are skipped, and a file with no document at all is an error.
 */
export function parseFile(file: SourceFile): ParsedFile {
  const issues: RawIssue[] = [];
  const at = (offset: number, message: string) => issues.push({ file, ...position(file, offset), path: '', message });
  const all = yamlDocuments(file);
  const documents: SourceDocument[] = [];
  all.forEach((doc, index) => {
    const found = [...doc.errors, ...doc.warnings];
    // A parser out of stack may leave further errors behind it, which only follow from it.
    const overflow = found.find((e) => /call stack/i.test(e.message));
    const problems = overflow ? [overflow] : found;
    const duplicates = problems.length === 0 ? duplicateKeys(doc) : [];
    for (const offset of duplicates) at(offset, YAML_MESSAGES.DUPLICATE_KEY);
    if (duplicates.length > 0) return;
    for (const e of problems) {
      const quote = e.code === 'MISSING_CHAR' ? /closing (["'])quote/.exec(e.message)?.[1] : undefined;
      if (quote) {
        // The parser notices at the end of the input; the opening quote is where the fix goes.
        const opening = file.text.lastIndexOf(quote, e.pos[0] - 1);
        at(opening >= 0 ? opening : e.pos[0], `YAML syntax error: this quoted string is not closed (a closing ${quote} is missing)`);
      } else at(e.pos[0], yamlMessage(e.code, e.message));
    }
    if (problems.length > 0) return;
    if (doc.contents === null || (yaml.isScalar(doc.contents) && doc.contents.value === null && !doc.contents.source)) return;
    documents.push({ file, index });
  });
  if (issues.length === 0 && documents.length === 0) {
    at(0, 'the file is empty: a config document starts with "version: 1" and an "organization"');
  }
  return { documents, issues };
}

/**
 * Offsets of the keys that repeat an earlier key of the same mapping (as the yaml package's
 * `uniqueKeys` compares them: scalars with equal values), in one pass per mapping.
 */
function duplicateKeys(doc: Document.Parsed): number[] {
  const offsets: number[] = [];
  // A plain walk: the yaml package's visit() costs several times more on a large document.
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (yaml.isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (yaml.isScalar(pair.key)) {
          const value = pair.key.value;
          if (seen.has(value)) offsets.push(pair.key.range?.[0] ?? 0);
          else seen.add(value);
        } else if (pair.key) stack.push(pair.key);
        if (pair.value) stack.push(pair.value);
      }
    } else if (yaml.isSeq(node)) {
      for (const item of node.items) stack.push(item);
    }
  }
  return offsets.sort((a, b) => a - b);
}

/** The first alias node of a document (where an alias problem is reported). */
export function firstAlias(doc: Document.Parsed): Node | undefined {
  let found: Node | undefined;
  const { visit } = yaml;
  visit(doc, {
    Alias(_key, node) {
      found = node;
      return visit.BREAK;
    },
  });
  return found;
}

/** Start offset of a node, or undefined. */
function start(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? range[0] : undefined;
}

function resolveAlias(doc: Document.Parsed, node: unknown): unknown {
  // Follow aliases (a bounded number of times, so that a cycle cannot hang) to the anchored node.
  let current = node;
  for (let i = 0; i < 16 && yaml.isAlias(current); i++) current = current.resolve(doc);
  return current;
}

function childPair(doc: Document.Parsed, node: unknown, seg: string | number): { pair?: Pair; value?: unknown } {
  const target = resolveAlias(doc, node);
  if (yaml.isMap(target)) {
    for (const item of target.items) {
      if (!yaml.isPair(item)) continue;
      const k = yaml.isScalar(item.key) ? item.key.value : undefined;
      if (k !== undefined && k !== null && typeof k !== 'object' && String(k) === String(seg)) {
        return { pair: item, value: item.value };
      }
    }
    return {};
  }
  if (yaml.isSeq(target) && typeof seg === 'number') return { value: target.items[seg] };
  return {};
}

/**
 * The offset to report for a path: the value's node (`value`), the key of the pair holding it
 * (`key`, for unknown keys), or the mapping that should have held it (`parent`, for missing keys).
 * Falls back to the deepest node that exists.
 */
export function locateOffset(doc: Document.Parsed, path: DocPath, mode: LocateMode): number {
  const target = mode === 'parent' ? path.slice(0, -1) : path;
  let node: unknown = doc.contents;
  let best = start(node) ?? 0;
  for (let i = 0; i < target.length; i++) {
    const { pair, value } = childPair(doc, node, target[i]);
    if (!pair && value === undefined) return best;
    node = value;
    // `key:` with nothing after it holds an empty scalar at the end of the line: point at the key.
    const implicitNull = yaml.isScalar(node) && node.value === null && !node.source;
    const s = (implicitNull ? undefined : start(node)) ?? start(pair?.key);
    if (s !== undefined) best = s;
    if (i === target.length - 1 && mode === 'key' && pair) {
      const ks = start(pair.key);
      if (ks !== undefined) return ks;
    }
    if (value === null || value === undefined) {
      // `key:` with nothing after it: point at the key.
      const ks = start(pair?.key);
      if (ks !== undefined) best = ks;
      if (i < target.length - 1) return best;
    }
  }
  return best;
}

export function locate(source: SourceDocument, path: DocPath, mode: LocateMode = 'value'): { line: number; column: number } {
  return position(source.file, locateOffset(documentOf(source), path, mode));
}

/** A file at least this large is read in pieces (valueInPieces) when it can be. */
export const PIECES_FROM_CHARS = 1 << 20;

/** About this many characters of list entries make one piece. */
const PIECE_CHARS = 1 << 16;

/**
 * Anything that may make a piece read otherwise than the whole file: a second document or a
 * directive (`---`, `...`, `%` at a line's start), or an anchor, alias or tag (`&`, `*`, `!` where a
 * token starts). Found where it need not be (`Q & A` is text), it only costs the whole-file read.
 */
const WHOLE_FILE_ONLY = /^(?:---|\.\.\.|%)|(?:^|[\s,[{:])[&*!]/m;

/** A top-level key written alone on its line (`members:`, maybe a comment): its value follows, indented. */
const BARE_KEY = /^([A-Za-z_][\w-]*):[ \t]*(?:#.*)?$/;

/**
 * The value of a large file of one document, read one top-level key, or one run of a top-level
 * list's entries, at a time: the yaml package's syntax tree of a whole file (about 50 bytes per
 * character of it) is never alive at once, only one piece's. Undefined when the file must be read
 * whole — it holds something a piece could read otherwise than the whole file would (see
 * WHOLE_FILE_ONLY; a top-level key written twice; a line this splitting does not expect), or a
 * piece has any error, warning or duplicate key: the whole-file read then finds and places every
 * problem as it always does. A piece cut inside a quoted or flow value is left unterminated, which
 * is an error, so a cut in the wrong place never yields a different value.
 *
 * `wanted`: the top-level keys to read (default: all). A key written alone on its line (`name:`)
 * that is not wanted is skipped unread, so a problem inside it is not seen.
 */
export function valueInPieces(text: string, wanted: (key: string) => boolean = () => true): Record<string, unknown> | undefined {
  if (WHOLE_FILE_ONLY.test(text) || /\r(?!\n)/.test(text)) return undefined;
  const out: Record<string, unknown> = {};
  /** Every top-level key met, read or skipped: one written twice makes the file a whole read. */
  const seen = new Set<string>();
  // The lines are taken one at a time (as text.split('\n') would give them): only a part that is
  // read keeps its lines, so a skipped part costs no more than a look at each of its lines.
  let at = 0;
  const nextLine = (): string | undefined => {
    if (at < 0) return undefined;
    const nl = text.indexOf('\n', at);
    const line = text.slice(at, nl < 0 ? text.length : nl);
    at = nl < 0 ? -1 : nl + 1;
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  };
  let line = nextLine();
  while (line !== undefined) {
    if (blankLine(line)) {
      line = nextLine();
      continue;
    }
    // Each top-level part starts at column 0 with its key.
    if (indentOf(line) > 0 || line.startsWith('-')) return undefined;
    const key = BARE_KEY.exec(line)?.[1];
    const skipped = key !== undefined && !wanted(key);
    const part = [line];
    line = nextLine();
    while (line !== undefined && (blankLine(line) || indentOf(line) > 0 || line.startsWith('-'))) {
      if (!skipped) part.push(line);
      line = nextLine();
    }
    if (skipped) {
      if (seen.has(key)) return undefined;
      seen.add(key);
    } else if (!readPart(part, key, seen, wanted, out)) return undefined;
  }
  return seen.size > 0 ? ownStrings(out) : undefined;
}

const blankLine = (l: string) => /^\s*(?:#.*)?$/.test(l);
const indentOf = (l: string) => l.length - l.trimStart().length;

/**
 * One top-level part of valueInPieces (its key's line and the lines under it) into `out`; false
 * when the file must be read whole. `key`: the key when it is written alone on its line.
 */
function readPart(lines: readonly string[], key: string | undefined, seen: Set<string>, wanted: (key: string) => boolean, out: Record<string, unknown>): boolean {
  const end = lines.length;
  const first = lines.slice(1).findIndex((l) => !blankLine(l)) + 1;
  const entries = key !== undefined && first > 0 && /^\s*-(?:\s|$)/.test(lines[first]) ? indentOf(lines[first]) : undefined;
  if (key !== undefined && entries !== undefined) {
    // A list: runs of whole entries, each read as a document of its own.
    if (seen.has(key)) return false;
    seen.add(key);
    const list: unknown[] = [];
    let start = first;
    let size = 0;
    for (let j = first; j <= end; j++) {
      const atEntry = j === end || (indentOf(lines[j]) === entries && /^\s*-(?:\s|$)/.test(lines[j]));
      if (j < end && !blankLine(lines[j]) && indentOf(lines[j]) < entries) return false;
      if (atEntry && j > start && (j === end || size >= PIECE_CHARS)) {
        const value = pieceValue(lines.slice(start, j).join('\n'));
        if (!Array.isArray(value)) return false;
        for (const v of value) list.push(v);
        start = j;
        size = 0;
      }
      if (j < end) size += lines[j].length + 1;
    }
    out[key] = list;
    return true;
  }
  const value = pieceValue(lines.join('\n'));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const [k, v] of Object.entries(value)) {
    if (seen.has(k)) return false;
    seen.add(k);
    if (wanted(k)) out[k] = v;
  }
  return true;
}

/**
 * A string as one flat string of its own: V8 keeps a substring as a slice of the text it came from
 * (a kept key would keep a whole file's text alive) and a concatenation as a tree of its parts.
 */
export function ownCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/**
 * The value with each string its own copy: V8 keeps a substring as a slice of the text it came
 * from, so one kept value (an email of each entry) would keep every piece's whole text alive.
 */
function ownStrings<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (const [k, x] of entries) {
      if (typeof x === 'string') (v as Record<string | number, unknown>)[k] = ownCopy(x);
      else stack.push(x);
    }
  }
  return value;
}

/** One piece's value, or undefined when it has any error, warning or duplicate key, or is not one document. */
function pieceValue(text: string): unknown {
  const docs = yaml.parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false, logLevel: 'error' });
  if (!Array.isArray(docs) || docs.length !== 1) return undefined;
  const doc = docs[0] as Document.Parsed;
  if (doc.errors.length > 0 || doc.warnings.length > 0 || duplicateKeys(doc).length > 0) return undefined;
  return doc.toJS();
}
