/**
 * Addresses of the resources of a config (COMMON "Addresses"), and the syntax check of `protect`
 * entries, which are addresses or globs (`*` within a key, `**` anything), optionally qualified by
 * an organization (`org_acme/teams["Legacy"]`) — matched by src/plan/address.ts.
 */
import { didYouMean } from './messages.js';

/** First segments of an address. */
export const TOP_LEVEL = ['organization', 'members', 'teams', 'collections', 'spaces', 'sites', 'saml', 'integrations', 'translations'] as const;
/** Names that may follow a key or another name. */
const INNER = ['agentInstructions', 'members', 'sections', 'siteSpaces', 'sectionGroups', 'shareLinks', 'structure'];

const QUALIFIED = /^([^[\]"./]+)\/(.+)$/;

/** Why a `protect` entry is not an address or glob, or undefined when it is one. */
export function addressSyntaxProblem(pattern: string): string | undefined {
  const qualified = QUALIFIED.exec(pattern);
  const address = qualified ? qualified[2] : pattern;
  if (address === '**' || address === '*') return undefined;
  let i = 0;
  let first = true;
  const expectName = (): string | undefined => {
    const m = /^[A-Za-z*]+/.exec(address.slice(i));
    if (!m) return `expected a name at character ${i + 1} of ${JSON.stringify(pattern)}`;
    const name = m[0];
    i += name.length;
    if (!name.includes('*')) {
      const allowed: readonly string[] = first ? TOP_LEVEL : INNER;
      if (!allowed.includes(name)) return `"${name}" is not part of any address${didYouMean(name, allowed)}`;
    }
    first = false;
    return undefined;
  };
  const problem = expectName();
  if (problem) return problem;
  while (i < address.length) {
    const c = address[i];
    if (c === '.') {
      i++;
      const p = expectName();
      if (p) return p;
    } else if (c === '[') {
      // A key: a JSON string (globs may stand inside it), or a bare * / **.
      const rest = address.slice(i + 1);
      const bare = /^\*\*?\]/.exec(rest);
      if (bare) {
        i += 1 + bare[0].length;
        continue;
      }
      const m = /^"((?:[^"\\]|\\.)*)"\]/.exec(rest);
      if (!m) return `a key must be written ["…"] (JSON string quotes) at character ${i + 1} of ${JSON.stringify(pattern)}`;
      try {
        JSON.parse(`"${m[1]}"`);
      } catch {
        return `the key at character ${i + 1} of ${JSON.stringify(pattern)} is not a valid JSON string`;
      }
      i += 1 + m[0].length;
    } else if (c === '*') {
      i++;
    } else {
      return `unexpected "${c}" at character ${i + 1} of ${JSON.stringify(pattern)}`;
    }
  }
  return undefined;
}
