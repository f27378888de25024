/**
 * The oracle of the quick reads' tests (src/source/block-yaml.ts, fast-yaml.ts): the yaml package,
 * as the loader's slow read uses it, and the property both reads must keep against it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { expect } from 'vitest';

const EXAMPLES = path.resolve(__dirname, '../../examples');

/** Every YAML file under examples/, with its path there. */
export const EXAMPLE_FILES = readdirSync(EXAMPLES, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => ({ name: f, text: readFileSync(path.join(EXAMPLES, f), 'utf8') }));

/** fast-check's run count, scaled by DOCPLANE_FC_RUNS_FACTOR for a longer hunt. */
export const RUNS = (n: number) => ({ numRuns: n * Number(process.env.DOCPLANE_FC_RUNS_FACTOR ?? 1) });

/** What the slow read accepts, as values; undefined when it reports any problem (the loader would refuse). */
export function slowValues(text: string): unknown[] | undefined {
  const docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: false });
  if (!Array.isArray(docs) || docs.length === 0) return undefined;
  if (docs.some((d) => d.errors.length > 0 || d.warnings.length > 0)) return undefined;
  try {
    return docs.map((d) => d.toJS({ maxAliasCount: 1000 }));
  } catch {
    return undefined;
  }
}

/**
 * The property of a quick read: it declines (undefined), or the yaml package reads the same text
 * without a problem and gives equal values. Says whether the read answered.
 */
export function agreesWithSlowRead(read: (text: string) => unknown[] | undefined, text: string): boolean {
  const quick = read(text);
  if (quick === undefined) return false;
  const slow = slowValues(text);
  expect(slow, `the yaml package refuses what the quick read accepted:\n${text}`).toBeDefined();
  // isDeepStrictEqual, not toStrictEqual: vitest compares the `constructor` of objects, which a key
  // of that name makes differ.
  expect(isDeepStrictEqual(quick, slow), `the two reads differ:\n${text}\n${JSON.stringify(quick)}\n${JSON.stringify(slow)}`).toBe(true);
  return true;
}
