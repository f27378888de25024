/**
 * A config document as YAML, the way a person would write it: the schema line first, a blank line
 * between kinds, small entries on one line (`- { user: alice@acme.com, role: admin }`), lists of
 * plain values inline, everything else in block style. The output depends only on the document.
 */
import { Document, isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import { UNITS } from '../kinds/index.js';

/** The schema file written next to the config, which the first line points to (works offline). */
export const SCHEMA_FILE = 'docplane.schema.json';

/** How the kinds want their part written: each names its own (paths split at their dots, once). */
interface Styling {
  /** Paths of maps written on one line (`*` stands for any list index). */
  flowMaps: ReadonlyArray<readonly string[]>;
  /** Comments written before keys (`integrations.*.script`). */
  keyComments: ReadonlyArray<{ path: readonly string[]; comment: string }>;
}

function stylingOfKinds(): Styling {
  return {
    flowMaps: UNITS.flatMap((u) => u.flowMaps ?? []).map((p) => p.split('.')),
    keyComments: UNITS.flatMap((u) => u.keyComments ?? []).map((c) => ({ path: c.path.split('.'), comment: c.comment })),
  };
}

/** Whether `parts` (a styling path) names `path`, followed by `last` when given. */
function matches(parts: readonly string[], path: readonly string[], last?: string): boolean {
  if (parts.length !== path.length + (last === undefined ? 0 : 1)) return false;
  for (let i = 0; i < path.length; i++) if (parts[i] !== '*' && parts[i] !== path[i]) return false;
  return last === undefined || parts[path.length] === '*' || parts[path.length] === last;
}

/** Sets the style of every collection below `node`, which sits at `path`. */
function style(node: unknown, path: string[], styling: Styling): void {
  if (isSeq(node)) {
    if (node.items.length > 0 && node.items.every((i) => isScalar(i))) node.flow = true;
    node.items.forEach((item, i) => style(item, [...path, String(i)], styling));
    return;
  }
  if (!isMap(node)) return;
  const generic = path.map((p) => (/^\d+$/.test(p) ? '*' : p));
  // Inside a rich-text document, a node without children fits on one line (`{ object: leaf, text: Hi }`).
  const inDocument = generic.includes('instructions') || generic.includes('agentInstructions');
  if (styling.flowMaps.some((p) => matches(p, generic)) || (inDocument && node.items.every((p) => isScalar(p.value)))) {
    node.flow = true;
    return;
  }
  for (const pair of node.items) {
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const k = String(pair.key.value);
    const comment = styling.keyComments.find((c) => matches(c.path, generic, k));
    if (comment) pair.key.commentBefore = comment.comment;
    style(pair.value, [...path, k], styling);
  }
}

/** The header: the schema line (first, as editors want it), then what the file is. */
function header(org: string, kept: readonly string[]): string {
  const lines = [
    ` yaml-language-server: $schema=./${SCHEMA_FILE}`,
    '',
    ` Organization ${org}, as \`docplane import\` read it. Ids tie each resource to its twin on the`,
  ];
  if (kept.length === 0) {
    lines.push(' platform, so a renamed title plans as an update. Nothing is pruned: what is added in the app', ' later stays unmanaged. `docplane plan` on this config should show no changes.');
  } else {
    lines.push(
      ' platform, so a renamed title plans as an update. `docplane plan` on this config should show no',
      ` changes. Kept from the file this import replaced: ${kept.join(', ')}.`,
    );
  }
  return lines.join('\n');
}

/** One organization's config document as YAML text (ends with a newline). */
export function configYaml(org: string, document: Record<string, unknown>, options: { kept?: readonly string[] } = {}): string {
  const doc = new Document(document);
  doc.commentBefore = header(org, options.kept ?? []);
  if (isMap(doc.contents)) {
    const styling = stylingOfKinds();
    doc.contents.items.forEach((pair, i) => {
      // A blank line between kinds (not before `version`, nor before the first key).
      if (i > 0 && isScalar(pair.key) && pair.key.value !== 'organization') (pair.key as Node).spaceBefore = true;
      if (isScalar(pair.key)) style(pair.value, [String(pair.key.value)], styling);
    });
  }
  return doc.toString({ lineWidth: 0, indentSeq: true });
}
