/**
 * Rich-text documents. Config authors write plain text or markdown paragraphs; the API
 * stores documents whose blocks carry generated `key`s. Documents are compared by content: keys
 * and empty data are left out by normalizeDocument.
 */
/** A rich-text block; nodes recurse, unknown properties are kept. */
export interface RichTextBlockT {
  object: string;
  type?: string;
  key?: string;
  isVoid?: boolean;
  data?: Record<string, unknown>;
  nodes?: RichTextBlockT[];
  leaves?: Record<string, unknown>[];
  [k: string]: unknown;
}

/** A full rich-text document as the API returns it. */
export interface RichTextDocumentT {
  object: 'document';
  data?: Record<string, unknown>;
  nodes: RichTextBlockT[];
  [k: string]: unknown;
}

/** Plain text → a document of one paragraph per blank-line-separated chunk. */
export function textToDocument(text: string): RichTextDocumentT {
  const paragraphs = text
    .replace(/\r\n/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  return {
    object: 'document',
    data: { schemaVersion: 1 },
    nodes: paragraphs.map((p) => ({
      object: 'block',
      type: 'paragraph',
      isVoid: false,
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: p, marks: [] }] }],
    })),
  };
}

/** A document → its text, paragraphs separated by a blank line (for import of simple documents). */
export function documentToText(doc: RichTextDocumentT): string {
  const textOf = (node: RichTextBlockT): string => {
    if (Array.isArray(node.leaves)) return node.leaves.map((l) => String((l as { text?: unknown }).text ?? '')).join('');
    return (node.nodes ?? []).map(textOf).join('');
  };
  return doc.nodes.map(textOf).join('\n\n');
}

/** True when the document is just paragraphs of unmarked text, so it can be written as plain text. */
export function isPlainDocument(doc: RichTextDocumentT): boolean {
  return stableContent(normalizeDocument(doc)) === stableContent(normalizeDocument(textToDocument(documentToText(doc))));
}

function stableContent(value: unknown): string {
  return JSON.stringify(value);
}

/** Content only: no block keys, no empty `data`, no `isVoid: false`, keys in a stable order. */
export function normalizeDocument(doc: unknown): unknown {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort()) {
        const v = (value as Record<string, unknown>)[k];
        if (k === 'key' || v === undefined) continue;
        if (k === 'isVoid' && v === false) continue;
        if (k === 'data' && v && typeof v === 'object' && Object.keys(v).filter((dk) => dk !== 'schemaVersion').length === 0) continue;
        if (k === 'marks' && Array.isArray(v) && v.length === 0) continue;
        out[k] = walk(v);
      }
      return out;
    }
    return value;
  };
  return walk(doc);
}

/** Config instructions (text or document) → the document to send. */
export function toDocument(value: string | RichTextDocumentT): RichTextDocumentT {
  return typeof value === 'string' ? textToDocument(value) : value;
}

/** Whether two documents (or a config text and a document) say the same thing. */
export function sameDocument(a: string | RichTextDocumentT | null | undefined, b: string | RichTextDocumentT | null | undefined): boolean {
  if (a == null || b == null) return a == null && b == null;
  return stableContent(normalizeDocument(toDocument(a))) === stableContent(normalizeDocument(toDocument(b)));
}
