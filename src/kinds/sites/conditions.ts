/**
 * The claims an adaptive condition names, checked against the site's adaptive schema. A condition is
 * a JavaScript-like expression over `visitor.claims` (`visitor.claims.plan == "pro"`,
 * `visitor.claims.unsigned.bucket.isBeta`); each dotted path after `visitor.claims` must follow the
 * schema's claims: a name the schema lacks is reported, with the closest name it has. A path that
 * reaches a claim that is not an object (`visitor.claims.roles.includes("admin")`) ends there: what
 * follows is a method or property of the value. Text in string literals is not read, nor bracketed
 * access (`visitor.claims["x"]`), which the schema cannot be checked for.
 *
 * A claim compared with a literal (`visitor.claims.plan == "gold"`, with `==`, `===`, `!=` or `!==`,
 * the claim first) is checked against the claim's type, and a string against its `enum` when it has
 * one: such a condition could never hold as written (or always would).
 */
import { didYouMean } from '../../core/text.js';
import type { ClaimT } from './ai-read.js';

/** The condition with its string literals blanked out (same length), so that quoted text is never read as a path. */
function withoutStrings(text: string): string {
  return text.replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1?/g, (m) => ' '.repeat(m.length));
}

const ROOT = /\bvisitor\s*\.\s*claims\b/g;
const SEGMENT = /^\s*\??\.\s*([A-Za-z_$][\w$]*)/;

const COMPARED = /^\s*(?:===?|!==?)\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?\b|true\b|false\b)/;

/** What a literal is, in the schema's words, and its value when a string. */
function literal(text: string): { type: 'string' | 'number' | 'boolean'; value?: string } {
  if (text === 'true' || text === 'false') return { type: 'boolean' };
  if (/^-?\d/.test(text)) return { type: 'number' };
  return { type: 'string', value: text.slice(1, -1).replace(/\\(.)/g, '$1') };
}

/** The mismatch of a claim with the literal it is compared with, if any. */
function comparedWith(claim: ClaimT, path: string[], rest: string): string | undefined {
  const m = COMPARED.exec(rest);
  if (!m || claim.type === 'object' || claim.type === 'array') return undefined;
  const lit = literal(m[1]);
  const name = `claim ${path.slice(2).join('.')} (${path.join('.')})`;
  if (lit.type !== claim.type) return `compares ${name}, a ${claim.type} in the site's adaptiveSchema, with a ${lit.type} (${m[1]})`;
  if (claim.type === 'string' && claim.enum !== undefined && lit.value !== undefined && !claim.enum.includes(lit.value)) {
    return `compares ${name} with ${m[1]}, which is not one of its values in the site's adaptiveSchema (${claim.enum.join(', ')})${didYouMean(lit.value, claim.enum)}`;
  }
  return undefined;
}

/** One message per unknown claim the condition names, or claim compared with a literal it cannot equal (empty when every path follows the schema). */
export function unknownClaims(condition: string, claims: Readonly<Record<string, ClaimT>>): string[] {
  const text = withoutStrings(condition);
  const out: string[] = [];
  for (const root of text.matchAll(ROOT)) {
    let rest = text.slice((root.index ?? 0) + root[0].length);
    let level: Readonly<Record<string, ClaimT>> | undefined = claims;
    const path = ['visitor', 'claims'];
    for (let m = SEGMENT.exec(rest); m && level; m = SEGMENT.exec(rest)) {
      const name = m[1];
      rest = rest.slice(m[0].length);
      const claim: ClaimT | undefined = Object.hasOwn(level, name) ? level[name] : undefined;
      if (claim === undefined) {
        const where = path.length > 2 ? `claim ${path.slice(2).join('.')} has no claim "${name}"` : `names claim "${name}"`;
        out.push(`${where} (${[...path, name].join('.')}), which the site's adaptiveSchema does not define${didYouMean(name, Object.keys(level))}`);
        break;
      }
      path.push(name);
      level = claim.type === 'object' ? claim.properties : undefined;
      if (level === undefined) {
        // The literal is read from the condition itself (the blanked text has spaces where it was).
        const mismatch = comparedWith(claim, path, condition.slice(text.length - rest.length));
        if (mismatch) out.push(mismatch);
      }
    }
  }
  return [...new Set(out)];
}
