import { describe, expect, it } from 'vitest';
import { documentToText, isPlainDocument, sameDocument, textToDocument } from './richtext.js';

describe('rich text', () => {
  it('turns paragraphs into blocks and back', () => {
    const doc = textToDocument('Answer kindly.\n\nCite sources.');
    expect(doc.nodes).toHaveLength(2);
    expect(documentToText(doc)).toBe('Answer kindly.\n\nCite sources.');
    expect(isPlainDocument(doc)).toBe(true);
  });
  it('compares by content, not by generated keys', () => {
    const doc = textToDocument('Hello');
    const withKeys = { ...doc, nodes: doc.nodes.map((n, i) => ({ ...n, key: `k${i}` })) };
    expect(sameDocument('Hello', withKeys)).toBe(true);
    expect(sameDocument('Hello', textToDocument('Bye'))).toBe(false);
  });
});
