/**
 * docs/reference.md is generated (npm run reference) from the registry, the JSON Schema, the example
 * config and an import of the demo world: it must be what the sources generate now, and hold a
 * section per top-level key with its fields, an example and what import writes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from '../../src/config/json-schema.js';
import { typeText } from '../../src/config/reference.js';
import { UNITS } from '../../src/kinds/index.js';
import { buildReference } from '../../src/reference.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const file = readFileSync(join(ROOT, 'docs/reference.md'), 'utf8');

describe('docs/reference.md', () => {
  it('is what the sources generate (else: npm run reference)', async () => {
    expect(file === (await buildReference(ROOT)), 'docs/reference.md is stale: run npm run reference').toBe(true);
  });

  it('has a section per top-level key of the schema, and for each kind a field table, an example and what import writes', () => {
    const keys = Object.keys((configJsonSchema().properties ?? {}) as object);
    const sections = [...file.matchAll(/^## (\S+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual(keys);
    for (const unit of UNITS) {
      const section = file.split(`\n## ${unit.configKey}\n`)[1].split('\n## ')[0];
      expect(section, unit.configKey).toContain('| field | type | default | |');
      expect(section, unit.configKey).toMatch(/Example \(examples\/docplane\.yaml\):|examples\/docplane\.yaml has no entry of this key/);
      expect(section, unit.configKey).toMatch(/What import writes|Import of the demo world writes no entry/);
    }
  });

  it('names types in a few words', () => {
    expect(typeText({ type: 'string', minLength: 1, maxLength: 64 }, {})).toBe('string (1–64 characters)');
    expect(typeText({ enum: ['read', 'edit'] }, {})).toBe('"read" | "edit"');
    expect(typeText({ type: 'array', items: { type: 'string' } }, {})).toBe('list of string');
    expect(typeText({ $ref: '#/$defs/Collection' }, {})).toBe('Collection');
    expect(typeText({ anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] }, {})).toBe('integer (0–) or null');
  });
});
