/** Suggestions for a misspelt word: config keys, enum values, names of resources. */

/** Edit distance counting a swap of two neighbours as one edit (small strings only: keys, enum values). */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
    }
  }
  return rows[a.length][b.length];
}

/** The closest candidate when it is close enough to be a likely typo (or a longer or shorter form of it). */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  if (word.length > 64 || word.length === 0) return undefined;
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(lower, c.toLowerCase());
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  if (best === undefined) return undefined;
  const limit = best.length <= 4 ? 1 : best.length <= 8 ? 2 : 3;
  if (bestD <= limit) return best;
  // "editor" for "edit", "team" for "teams": one is the start of the other.
  const prefixed = candidates.find((c) => {
    const cl = c.toLowerCase();
    return Math.min(cl.length, lower.length) >= 3 && (cl.startsWith(lower) || lower.startsWith(cl));
  });
  return prefixed;
}

export function didYouMean(word: string, candidates: readonly string[]): string {
  const s = suggest(word, candidates);
  return s === undefined ? '' : ` — did you mean "${s}"?`;
}


/**
 * Text for a terminal: C0 controls (ESC, BEL, CR, backspace…), DEL and C1 controls (CSI, OSC…) shown as
 * escapes such as `\x1b`, so remote text cannot clear the screen, write links or overwrite lines.
 * Tabs stay; line feeds stay when `keepNewlines` (multi-line notes), else they are shown too.
 */
export function terminalText(text: string, options: { keepNewlines?: boolean } = {}): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this matches
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g, (ch) => {
    if (ch === '\n' && options.keepNewlines) return ch;
    return `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}
