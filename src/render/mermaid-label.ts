/**
 * Text inside a quoted Mermaid label (`n1["…"]`), safe for any title a remote object can hold.
 *
 * Mermaid reads more than the quotes: a label that starts with a backtick is a markdown string; a
 * `%%{…}%%` anywhere is a directive; before parsing, its render drops the last `;` of any line where
 * `style` or `classDef` is followed by `:`, `#` and `;`, and turns every `#name;` and `#123;` into an
 * HTML entity; the label is then shown as HTML, so `&amp;` would show as `&`. So every ASCII
 * character other than a letter, a digit, a space or plain punctuation (`-._,/'()!?@+~`) is written
 * as Mermaid's numeric entity `#NN;`, which it shows as that very character and which holds no `:`,
 * `%`, backtick, quote or bracket. Letters of other scripts (CJK, right-to-left, emoji) stay as they
 * are; the two characters Mermaid uses as its own entity markers (ﬂ, ¶) are written as entities too.
 * Line breaks and other white space become a space; control characters and the invisible ones that
 * reorder text (bidirectional overrides and isolates) become U+FFFD, so that a title cannot hide or
 * reverse the text around it.
 */

/** Characters written as they are: letters, digits, the space and punctuation Mermaid does not read in a quoted label. */
const PLAIN = /^[A-Za-z0-9 \-._,/'()!?@+~]$/;
/** White space other than the space: a line break ends a Mermaid statement. */
const SPACE_LIKE = /^[\t\n\v\f\r\u0085\u2028\u2029]$/;
/** Controls, and the format characters that reorder or hide text (bidirectional marks, overrides, isolates). */
const HIDDEN = /^(?:[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069])$/u;
/** Mermaid's markers of an encoded entity, which its decoding would turn into `&#` and `;`. */
const MARKERS = /^[\uFB02\u00B6]$/;

const REPLACEMENT = '#65533;';

/** `text` as the content of a double-quoted Mermaid label. */
export function mermaidLabel(text: string): string {
  let out = '';
  for (const ch of text) {
    if (PLAIN.test(ch)) out += ch;
    else if (SPACE_LIKE.test(ch)) out += ' ';
    else if (HIDDEN.test(ch)) out += REPLACEMENT;
    else if (ch.charCodeAt(0) < 0x80 || MARKERS.test(ch)) out += `#${ch.codePointAt(0) as number};`;
    else out += ch;
  }
  return out;
}
