/**
 * The JSON Schema of a config document (draft 2020-12), generated from the zod schemas so that it
 * never drifts from what the loader accepts. Editors use it through the `yaml-language-server`
 * line at the top of a config; `docplane schema` prints it, schemas/docplane.schema.json holds it.
 */
import { z } from 'zod';
import { ConfigDocument } from './schema.js';

export const SCHEMA_ID = 'https://docplane.dev/schemas/docplane.schema.json';

export function configJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(ConfigDocument, {
    target: 'draft-2020-12',
    // What a user writes: fields with defaults (safety) are optional, not required.
    io: 'input',
    // Collections and rich-text blocks recurse: through $defs.
    cycles: 'ref',
    reused: 'inline',
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  // $schema, $id and title first, so that the file reads well.
  return { $schema, $id: SCHEMA_ID, title: 'docplane config', ...rest };
}
