/**
 * The quickest read of a config file: block YAML only, as `docplane import` writes it and as most
 * configs are written (nested mappings and lists by indentation; one-line plain and quoted scalars
 * and flow collections such as `{ user: a@b.c, role: admin }`; literal `|` blocks), in one pass over
 * the text with no tokens in between. A cold plan reads its config this way in well under half of
 * js-yaml's time (docs/benchmarks.md, "What the benchmark found").
 *
 * It must give exactly what the yaml package's toJS gives, or nothing: whatever lies outside that
 * subset, or could read otherwise, declines the whole file, which is then read by js-yaml
 * (src/source/fast-yaml.ts) and, failing that, by the yaml package, which reports every problem.
 * Declined: flow collections over several lines or with an empty entry, a trailing comma or a
 * comment inside; folded `>` blocks; block headers with an indentation digit; escapes in
 * double-quoted strings; scalars that go on past their line; anchors, aliases, tags, directives,
 * explicit keys; several documents; keys the yaml package would read as a number, a boolean or
 * null; a duplicate key; tabs; and characters YAML does not allow.
 *
 * Its strings are slices of the text (V8 keeps a substring as a view into its parent): the loaded
 * config keeps each file's text anyway, for the positions of later problems (SourceFile), so a view
 * costs a few bytes where a copy would cost the string again (1.6 MB more at scale 4).
 */
import { MAX_KEY_LENGTH, maybeNotString, plainValue } from './core-schema.js';

/**
 * Characters YAML does not allow in a stream (js-yaml's list), and some it may read as line breaks
 * (NEL, the Unicode line and paragraph separators) or a byte order mark past the start.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const NOT_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\u2029\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;

const SPACE = 0x20;
const HASH = 0x23;
const DASH = 0x2d;
const COLON = 0x3a;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const PIPE = 0x7c;
const BRACKET = 0x5b;
const BRACE = 0x7b;
const QUESTION = 0x3f;
const COMMA = 0x2c;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/** The flow indicators: in a flow collection, they end a plain scalar. */
const FLOW_INDICATOR = new Set([...',[]{}'].map((c) => c.charCodeAt(0)));

/** Characters a plain scalar or key may not start with (YAML's indicators, but `-`, `?` and `:`, checked apart). */
const INDICATOR = new Set([..."[]{},#&*!|>'\"%@`"].map((c) => c.charCodeAt(0)));

/** Thrown to give up on the file: the caller then reads it with js-yaml. */
class Declined extends Error {}
const decline = (): never => {
  throw new Declined();
};

/**
 * The values of a file's documents as the yaml package's toJS gives them (here always one mapping),
 * or undefined when the text is not of the subset this reads.
 */
export function blockValues(text: string): Record<string, unknown>[] | undefined {
  if (text.includes('\t') || text.includes('\r') || NOT_PRINTABLE.test(text)) return undefined;
  try {
    const doc = new BlockReader(text).document();
    return doc === undefined ? undefined : [doc];
  } catch (err) {
    // Declined, or nesting deeper than the stack: js-yaml and the yaml package say which.
    if (err instanceof Declined || err instanceof RangeError) return undefined;
    throw err;
  }
}

/**
 * One pass over the text, a line at a time. The reader stands on a line that holds something (not
 * blank, not only a comment): `start` is where it starts, `end` where it ends (its line break),
 * `at` its first character and `indent` its column there; `indent` is -1 past the last line.
 */
class BlockReader {
  private start = 0;
  private end = 0;
  private at = 0;
  private indent = 0;

  constructor(private readonly text: string) {}

  document(): Record<string, unknown> | undefined {
    this.moveTo(0);
    const { text } = this;
    if (this.indent !== 0 || this.isEntry(this.at) || text.startsWith('---', this.at)) return undefined;
    const doc = this.mapping(0, this.at);
    return this.indent < 0 ? doc : undefined;
  }

  /** Moves to the first line from `from` on that holds something. */
  private moveTo(from: number): void {
    const { text } = this;
    let p = from;
    while (p < text.length) {
      let end = text.indexOf('\n', p);
      if (end < 0) end = text.length;
      let k = p;
      while (text.charCodeAt(k) === SPACE) k++;
      if (k === end || text.charCodeAt(k) === HASH) {
        p = end + 1;
        continue;
      }
      this.start = p;
      this.end = end;
      this.at = k;
      this.indent = k - p;
      return;
    }
    this.start = this.end = this.at = text.length;
    this.indent = -1;
  }

  /** Whether a list entry (`- `, or `-` ending the line) starts at `k` of the current line. */
  private isEntry(k: number): boolean {
    return this.text.charCodeAt(k) === DASH && (k + 1 === this.end || this.text.charCodeAt(k + 1) === SPACE);
  }

  /** The node under a key with nothing after it on its line: what the next lines hold. */
  private nested(keyIndent: number): unknown {
    this.moveTo(this.end + 1);
    if (this.indent > keyIndent) return this.isEntry(this.at) ? this.sequence(this.indent, this.at) : this.mapping(this.indent, this.at);
    // A list may sit at its key's own column.
    if (this.indent === keyIndent && this.isEntry(this.at)) return this.sequence(keyIndent, this.at);
    return null;
  }

  /** A list whose entries start at column `indent`, the first at `first` on the current line. */
  private sequence(indent: number, first: number): unknown[] {
    const { text } = this;
    const list: unknown[] = [];
    for (let dash = first; ; dash = this.at) {
      let k = dash + 1;
      while (text.charCodeAt(k) === SPACE) k++;
      // An entry with nothing on its line: not read here.
      if (k === this.end || text.charCodeAt(k) === HASH) decline();
      const column = k - this.start;
      list.push(this.isEntry(k) ? this.sequence(column, k) : this.key(k) ? this.mapping(column, k) : this.scalar(k, indent));
      if (this.indent !== indent || !this.isEntry(this.at)) break;
    }
    if (this.indent > indent) decline();
    return list;
  }

  /** A mapping whose keys start at column `indent`, the first at `first` on the current line. */
  private mapping(indent: number, first: number): Record<string, unknown> {
    const { text } = this;
    const map: Record<string, unknown> = {};
    for (let k = first; ; ) {
      const { key, colon } = this.key(k) ?? decline();
      if (Object.hasOwn(map, key)) decline();
      let v = colon + 1;
      while (v < this.end && text.charCodeAt(v) === SPACE) v++;
      map[key] = v === this.end || text.charCodeAt(v) === HASH ? this.nested(indent) : this.scalar(v, indent);
      if (this.indent !== indent) {
        if (this.indent > indent) decline();
        return map;
      }
      if (this.isEntry(this.at)) return map;
      k = this.at;
    }
  }

  /**
   * The key of a mapping entry starting at `k`, plain or quoted, and where its `:` is (before a
   * space or the line's end); undefined when no key starts there. A key the yaml package would read
   * as other than a string, or refuse, declines.
   */
  private key(k: number): { key: string; colon: number } | undefined {
    const { text } = this;
    const c = text.charCodeAt(k);
    let key: string;
    let colon: number;
    if (c === QUOTE || c === APOSTROPHE) {
      const quoted = this.quoted(k);
      colon = quoted.after;
      while (text.charCodeAt(colon) === SPACE) colon++;
      if (text.charCodeAt(colon) !== COLON || (colon + 1 < this.end && text.charCodeAt(colon + 1) !== SPACE)) return undefined;
      key = quoted.value;
    } else {
      if (!this.startsPlain(k)) return undefined;
      colon = text.indexOf(':', k);
      while (colon >= 0 && colon < this.end && colon + 1 < this.end && text.charCodeAt(colon + 1) !== SPACE) colon = text.indexOf(':', colon + 1);
      if (colon < 0 || colon >= this.end) return undefined;
      let end = colon;
      while (text.charCodeAt(end - 1) === SPACE) end--;
      key = text.slice(k, end);
      if (key.includes(' #') || (maybeNotString(key) && plainValue(key) !== key)) decline();
    }
    if (colon - k > MAX_KEY_LENGTH || key === '__proto__') decline();
    return { key, colon };
  }

  /**
   * The quoted string opened at `k`, closed on its line, and where it ends. Escapes are left to the
   * others: a double-quoted string with a `\` declines (a single-quoted one's `''` is read).
   */
  private quoted(k: number): { value: string; after: number } {
    const { text } = this;
    if (text.charCodeAt(k) === QUOTE) {
      const close = text.indexOf('"', k + 1);
      if (close < 0 || close >= this.end) decline();
      const value = text.slice(k + 1, close);
      if (value.includes('\\')) decline();
      return { value, after: close + 1 };
    }
    let value = '';
    for (let from = k + 1; ; ) {
      const close = text.indexOf("'", from);
      if (close < 0 || close >= this.end) decline();
      value += text.slice(from, close);
      if (text.charCodeAt(close + 1) !== APOSTROPHE) return { value, after: close + 1 };
      value += "'";
      from = close + 2;
    }
  }

  /**
   * The scalar starting at `k` of the current line, a value of a node at column `indent`; moves to
   * the next line, which must not be indented more (a scalar going on there is not read here).
   */
  private scalar(k: number, indent: number): unknown {
    const { text } = this;
    const c = text.charCodeAt(k);
    let value: unknown;
    if (c === PIPE) return this.literal(k, indent);
    if (c === QUOTE || c === APOSTROPHE) {
      const quoted = this.quoted(k);
      value = quoted.value;
      this.restIsComment(quoted.after);
    } else if (c === BRACKET || c === BRACE) {
      const flow = { at: k };
      value = this.flowNode(flow);
      this.restIsComment(flow.at);
    } else {
      const s = text.slice(k, this.valueEnd(k));
      if (!this.startsPlain(k)) decline();
      // `a: b: c` is an error; `a: b:` a mapping.
      if (s.includes(': ') || s.charCodeAt(s.length - 1) === COLON) decline();
      value = plainValue(s);
    }
    this.moveTo(this.end + 1);
    if (this.indent > indent) decline();
    return value;
  }

  /** Whether a plain scalar may start at `k`: not at an indicator, nor at `-`, `?` or `:` before a space. */
  private startsPlain(k: number): boolean {
    const c = this.text.charCodeAt(k);
    if (INDICATOR.has(c)) return false;
    if (c !== DASH && c !== COLON && c !== QUESTION) return true;
    const next = this.text.charCodeAt(k + 1);
    return k + 1 < this.end && next !== SPACE && !FLOW_INDICATOR.has(next);
  }

  /**
   * A flow node on the current line at `pos.at` (moved past it and the spaces after it): `[…]` and
   * `{…}` of plain scalars, quoted strings and flow collections, closed on the line. Declined: an
   * empty entry, a trailing comma, a key with no value or one not followed by `: `, a `key: value`
   * pair in a list, a comment inside.
   */
  private flowNode(pos: { at: number }): unknown {
    const { text } = this;
    const c = text.charCodeAt(pos.at);
    if (c === BRACKET || c === BRACE) {
      const close = c === BRACKET ? CLOSE_BRACKET : CLOSE_BRACE;
      const list: unknown[] = [];
      const map: Record<string, unknown> = {};
      pos.at = this.skipSpaces(pos.at + 1);
      if (text.charCodeAt(pos.at) === close) {
        pos.at++;
        return c === BRACKET ? list : map;
      }
      for (;;) {
        if (c === BRACKET) {
          list.push(this.flowNode(pos));
          if (text.charCodeAt(pos.at) === COLON) decline();
        } else {
          const keyAt = pos.at;
          const key = this.flowNode(pos);
          if (typeof key !== 'string' || pos.at - keyAt > MAX_KEY_LENGTH || key === '__proto__') decline();
          if (text.charCodeAt(pos.at) !== COLON || text.charCodeAt(pos.at + 1) !== SPACE) decline();
          pos.at = this.skipSpaces(pos.at + 1);
          const next = text.charCodeAt(pos.at);
          if (next === COMMA || next === close) decline();
          if (Object.hasOwn(map, key as string)) decline();
          map[key as string] = this.flowNode(pos);
        }
        pos.at = this.skipSpaces(pos.at);
        const sep = text.charCodeAt(pos.at);
        if (sep === close) {
          pos.at++;
          return c === BRACKET ? list : map;
        }
        if (sep !== COMMA) decline();
        pos.at = this.skipSpaces(pos.at + 1);
        if (text.charCodeAt(pos.at) === close) decline();
      }
    }
    if (c === QUOTE || c === APOSTROPHE) {
      const quoted = this.quoted(pos.at);
      pos.at = this.skipSpaces(quoted.after);
      return quoted.value;
    }
    if (!this.startsPlain(pos.at)) decline();
    // A plain scalar in a flow ends at a flow indicator, a `:` before a space or an indicator, or a comment.
    const start = pos.at;
    let i = start + 1;
    for (; i < this.end; i++) {
      const x = text.charCodeAt(i);
      if (FLOW_INDICATOR.has(x)) break;
      if (x === COLON && (i + 1 === this.end || text.charCodeAt(i + 1) === SPACE || FLOW_INDICATOR.has(text.charCodeAt(i + 1)))) break;
      if (x === HASH && text.charCodeAt(i - 1) === SPACE) decline();
    }
    if (i === this.end) decline();
    let end = i;
    while (text.charCodeAt(end - 1) === SPACE) end--;
    pos.at = i;
    return plainValue(text.slice(start, end));
  }

  private skipSpaces(k: number): number {
    let i = k;
    while (i < this.end && this.text.charCodeAt(i) === SPACE) i++;
    return i;
  }

  /** Where a plain scalar starting at `k` ends: before a comment (` #`) or the line's end, without trailing spaces. */
  private valueEnd(k: number): number {
    const { text } = this;
    let end = this.end;
    for (let i = k + 1; i < end; i++) {
      if (text.charCodeAt(i) === HASH && text.charCodeAt(i - 1) === SPACE) end = i;
    }
    while (end > k && text.charCodeAt(end - 1) === SPACE) end--;
    return end;
  }

  /** After a quoted string's closing quote: nothing, or spaces and a comment. */
  private restIsComment(k: number): void {
    const { text } = this;
    let i = k;
    while (i < this.end && text.charCodeAt(i) === SPACE) i++;
    if (i === this.end || (i > k && text.charCodeAt(i) === HASH)) return;
    decline();
  }

  /**
   * A literal block (`|`, `|-`, `|+`) whose header is at `k`, under a node at column `indent`: the
   * lines after it indented more, less the first one's indentation; moves to the line after it.
   */
  private literal(k: number, indent: number): string {
    const { text } = this;
    const header = text.slice(k, this.valueEnd(k));
    if (header !== '|' && header !== '|-' && header !== '|+') decline();
    const lines: string[] = [];
    let own = -1;
    let blanks = 0;
    /** The most spaces on a blank line before the first line of text. */
    let leading = 0;
    let p = this.end + 1;
    while (p < text.length) {
      let end = text.indexOf('\n', p);
      if (end < 0) end = text.length;
      let i = p;
      while (text.charCodeAt(i) === SPACE) i++;
      if (i === end) {
        // A blank line with more spaces than the block's indentation: not read here.
        if (own >= 0 && i - p > own) decline();
        leading = Math.max(leading, i - p);
        blanks++;
        p = end + 1;
        continue;
      }
      if (own < 0) {
        if (i - p <= indent || leading > i - p) break;
        own = i - p;
      } else if (i - p < own) break;
      // The last line of the file without a line break: left to the others.
      if (end === text.length) decline();
      for (; blanks > 0; blanks--) lines.push('');
      lines.push(text.slice(p + own, end));
      p = end + 1;
    }
    if (own < 0) decline();
    let value = lines.join('\n');
    if (header === '|') value += '\n';
    else if (header === '|+') value += '\n'.repeat(blanks + 1);
    this.moveTo(p);
    if (this.indent > indent) decline();
    return value;
  }
}
