/** Rich-text documents as the live service keeps them: every block has a `key`, every heading its `data`. */
import { textToDocument } from '../core/richtext.js';
import type { RichTextDoc, World } from './model.js';

/** A copy of a document in which every block has a `key` (the live service adds them). */
export function withBlockKeys(doc: RichTextDoc, newKey: () => string): RichTextDoc {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = { ...(node as Record<string, unknown>) };
    if (out.object === 'block' && (typeof out.key !== 'string' || out.key === '')) out.key = newKey();
    // A heading carries `data` in the live description (DocumentBlockHeading requires it).
    if (out.object === 'block' && typeof out.type === 'string' && out.type.startsWith('heading-') && out.data === undefined) out.data = {};
    if (Array.isArray(out.nodes)) out.nodes = out.nodes.map(walk);
    return out;
  };
  return walk(doc) as RichTextDoc;
}

/** A seeded document: plain text (paragraphs) or a document as given, with block keys. */
export function seedDocument(world: World, value: string | RichTextDoc): RichTextDoc {
  const doc = typeof value === 'string' ? (textToDocument(value) as RichTextDoc) : value;
  return withBlockKeys(doc, () => world.newId('blk'));
}

/** A document from a request body, copied, with block keys. */
export function storeDocument(world: World, doc: RichTextDoc): RichTextDoc {
  return withBlockKeys(structuredClone(doc), () => world.newId('blk'));
}
