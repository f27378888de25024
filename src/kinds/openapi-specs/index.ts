/** OpenAPI specs (`openapiSpecs:` in the config), by slug. */
import type { Item } from '../../source/origin.js';
import { Raw, sortBy, type Draft, type ImportSink } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import { openapiSpecsModule, readSpecsWithTexts, specAddress, type RemoteSpec, type RemoteSpecs } from './openapi-specs.js';
import { OpenAPISpec, type OpenAPISpecT } from './schema.js';

const importSpecs: Importer<RemoteSpecs> = {
  // The text of a spec without a source URL is written to a file beside the YAML (one from a URL has
  // none to read).
  read: (ctx) => readSpecsWithTexts(ctx, (s) => s.sourceURL === undefined),
  write(remote, sink) {
    const written = sortBy(remote.specs, (s) => s.slug)
      .map((s) => convertSpec(s, remote.texts[s.slug], sink))
      .filter((d) => d !== undefined);
    sink.count(openapiSpecsModule.label, written.length);
    return written;
  },
};

function convertSpec(s: RemoteSpec, text: string | null | undefined, sink: ImportSink): Draft | undefined {
  const address = specAddress(s.slug);
  let source: Draft;
  if (s.sourceURL !== undefined) source = { url: s.sourceURL };
  else if (typeof text === 'string' && text !== '') {
    const path = sink.files.claim('openapi', s.slug, /^\s*[{[]/.test(text) ? '.json' : '.yaml');
    sink.file({ path, content: text, kind: 'text', address });
    source = { text: new Raw(`\${file:${path}}`) };
  } else {
    sink.warn(`${address}: the API has neither a source URL nor a text for this spec (is its first version still processing?); not written`);
    return undefined;
  }
  return { slug: s.slug, source, visibility: s.visibility };
}

export const openapiSpecsUnit: KindUnit = {
  configKey: 'openapiSpecs',
  audit: {
    targets: { 'openapi-spec': { by: 'unit' } },
    paths: { openapi: 'openapi-spec' },
  },
  list: true,
  schema: OpenAPISpec,
  kinds: [openapiSpecsModule],
  addressNames: { top: ['openapiSpecs'] },
  flowMaps: ['openapiSpecs.*.source'],
  resolve(entries, ctx) {
    for (const { value, origin } of entries as readonly Item<OpenAPISpecT>[]) {
      ctx.claim(`openapiSpec:${value.slug}`, specAddress(value.slug), origin);
    }
  },
  importer: importSpecs,
};
