/**
 * docs/reference.md: one section per top-level config key, generated from the registry (the units,
 * their kinds and reference fields) and the JSON Schema (fields, types, defaults, limits), with one
 * example each from examples/docplane.yaml and what `docplane import` writes for the demo world.
 * scripts/reference.js writes it; test/docs/reference.test.ts keeps the file in step.
 */
import { stringify } from 'yaml';
import { UNITS } from '../kinds/index.js';

type Schema = Record<string, unknown>;

export interface ReferenceInput {
  /** The config's JSON Schema (configJsonSchema()). */
  schema: Schema;
  /** The first entry (or the mapping) of each top-level key in examples/docplane.yaml. */
  example: Record<string, unknown>;
  /** The first entry (or the mapping) of each top-level key an import of the demo world writes. */
  imported: Record<string, unknown>;
}

/** Fields are listed this deep at most (`sites[].customization.styling`); deeper ones are in the schema. */
const MAX_DEPTH = 3;

function resolveRef(node: Schema, root: Schema): Schema {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return node;
  const defs = (root.$defs ?? {}) as Record<string, Schema>;
  return { ...defs[ref.slice('#/$defs/'.length)], ...node, $ref: undefined, refName: ref.slice('#/$defs/'.length) };
}

/** A field's type in a few words: `string (1–64)`, `list of string`, `"read" | "edit"`, `Collection`. */
export function typeText(node: Schema, root: Schema): string {
  if (typeof node.$ref === 'string') return node.$ref.replace('#/$defs/', '');
  if (Array.isArray(node.enum)) return node.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (node.const !== undefined) return JSON.stringify(node.const);
  const alternatives = (node.anyOf ?? node.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) return [...new Set(alternatives.map((a) => typeText(a, root)))].join(' or ');
  const type = node.type;
  if (Array.isArray(type)) return type.join(' or ');
  if (type === 'array') {
    const items = node.items as Schema | undefined;
    return `list of ${items ? typeText(items, root) : 'anything'}`;
  }
  if (type === 'object') return node.properties ? 'mapping' : 'mapping of any keys';
  if (type === 'string') {
    const limits = [node.minLength !== undefined ? `${String(node.minLength)}` : '', node.maxLength !== undefined ? `${String(node.maxLength)}` : ''];
    const format = typeof node.format === 'string' ? `, ${node.format}` : '';
    return limits[1] !== '' ? `string (${limits[0] || '0'}–${limits[1]} characters${format})` : `string${format ? ` (${format.slice(2)})` : ''}`;
  }
  if (type === 'integer' || type === 'number') {
    const range = node.minimum !== undefined || node.maximum !== undefined ? ` (${node.minimum !== undefined ? String(node.minimum) : ''}–${node.maximum !== undefined ? String(node.maximum) : ''})` : '';
    return `${String(type)}${range}`;
  }
  return typeof type === 'string' ? type : 'any';
}

interface Row {
  name: string;
  type: string;
  required: boolean;
  default?: unknown;
  description?: string;
}

/**
 * The object schema inside a field (an object, or a list of objects, or the object alternative). A
 * named type (`$ref`: the recursive Collection, RichTextBlock) is expanded only where a key's own
 * entries are (`expand`); inside, it stays a name, so that a recursion ends.
 */
function objectOf(node: Schema, root: Schema, expand = false): { schema: Schema; suffix: string } | undefined {
  if (typeof node.$ref === 'string' && !expand) return undefined;
  const n = resolveRef(node, root);
  if (n.type === 'object' && n.properties) return { schema: n, suffix: '' };
  if (n.type === 'array' && n.items) {
    const inner = objectOf(n.items as Schema, root, expand);
    return inner ? { schema: inner.schema, suffix: `[]${inner.suffix}` } : undefined;
  }
  const alternatives = (n.anyOf ?? n.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) {
    for (const a of alternatives) {
      const inner = objectOf(a, root);
      if (inner) return inner;
    }
  }
  return undefined;
}

function rows(object: Schema, root: Schema, prefix: string, depth: number): Row[] {
  const properties = (object.properties ?? {}) as Record<string, Schema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).flatMap(([key, node]) => {
    const name = `${prefix}${key}`;
    const row: Row = { name, type: typeText(node, root), required: required.has(key), default: node.default, description: typeof node.description === 'string' ? node.description : undefined };
    const inner = depth < MAX_DEPTH ? objectOf(node, root) : undefined;
    return inner ? [row, ...rows(inner.schema, root, `${name}${inner.suffix}.`, depth + 1)] : [row];
  });
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function table(list: readonly Row[]): string[] {
  const out = ['| field | type | default | |', '|---|---|---|---|'];
  for (const r of list) {
    const def = r.default === undefined ? '' : `\`${JSON.stringify(r.default)}\``;
    const note = [r.required ? '**required**' : '', r.description ?? ''].filter((s) => s !== '').join('. ');
    out.push(`| \`${r.name}\` | ${cell(r.type)} | ${def} | ${cell(note)} |`);
  }
  return out;
}

function yamlBlock(key: string, value: unknown, list: boolean): string[] {
  const text = stringify({ [key]: list ? [value] : value }, { lineWidth: 0 }).trimEnd();
  return ['```yaml', text, '```'];
}

/** The markdown of docs/reference.md. */
export function referenceMarkdown(input: ReferenceInput): string {
  const root = input.schema;
  const top = (root.properties ?? {}) as Record<string, Schema>;
  const units = new Map(UNITS.map((u) => [u.configKey, u]));
  const out: string[] = [
    '# Reference: every top-level key of the config',
    '',
    '<!-- Generated by `npm run reference` (scripts/reference.js, src/config/reference.ts) from the kinds registry and',
    'the JSON Schema; test/docs/reference.test.ts fails when it is stale. Do not edit by hand. -->',
    '',
    'One section per top-level key, in the order of the schema: its fields (a dotted name for a field inside',
    'another, `[]` for the entries of a list), their types and limits, defaults and whether they are',
    'required; one example from [examples/docplane.yaml](../examples/docplane.yaml); and what',
    '`docplane import` writes for the demo world (`docplane emulator --demo`). Rules that span fields and',
    'entries (identity, ownership, references) are in [config.md](config.md); the complete schema is',
    '[schemas/docplane.schema.json](../schemas/docplane.schema.json).',
    '',
    Object.keys(top)
      .map((k) => `[\`${k}\`](#${k.toLowerCase()})`)
      .join(' · '),
  ];
  for (const [key, node] of Object.entries(top)) {
    const unit = units.get(key);
    out.push('', `## ${key}`, '');
    if (typeof node.description === 'string') out.push(node.description, '');
    if (unit) {
      const kinds = unit.kinds.map((k) => `\`${k.kind}\``).join(', ');
      const prunable = unit.kinds.filter((k) => k.prunable).map((k) => `\`${k.kind}\``);
      out.push(
        `${unit.list ? 'A list of entries' : 'One mapping'}; plans as ${kinds}${prunable.length > 0 ? `; \`prune\` may name ${prunable.join(', ')}` : ''}.${unit.secretFields && unit.secretFields.length > 0 ? ` Secret fields (masked everywhere, never written by import): ${unit.secretFields.map((f) => `\`${f}\``).join(', ')}.` : ''}`,
      );
      if (unit.references && unit.references.length > 0) {
        out.push('', `References to other entries: ${unit.references.map((r) => `\`${r.field}\` → ${r.target}`).join(', ')}.`);
      }
      out.push('');
    } else {
      out.push(`A setting of the config itself (no kind): ${typeText(node, root)}.`, '');
    }
    const object = objectOf(node, root, true);
    if (object) out.push(...table(rows(object.schema, root, '', 1)), '');
    else out.push(`Type: ${cell(typeText(node, root))}.`, '');
    const list = unit?.list ?? resolveRef(node, root).type === 'array';
    if (input.example[key] !== undefined) out.push('Example (examples/docplane.yaml):', '', ...yamlBlock(key, input.example[key], list && unit !== undefined), '');
    else if (unit) out.push('examples/docplane.yaml has no entry of this key.', '');
    if (unit) {
      if (input.imported[key] !== undefined) out.push('What import writes (the demo world, its first entry):', '', ...yamlBlock(key, input.imported[key], unit.list), '');
      else out.push('Import of the demo world writes no entry of this key.', '');
    }
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
