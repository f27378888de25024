import { describe, expect, it } from 'vitest';
import { runValidate } from '../../src/config/validate.js';
import { formatConfigIssue } from '../../src/core/errors.js';
import { configJsonSchema } from '../../src/config/json-schema.js';
import { withFiles } from '../config/helpers.js';

const YAML = `version: 1
organization:
  id: org_acme
sites:
  - id: site_docs
    customization:
      styling: { background: match, theme: bold }
      internationalization: { locale: fr }
      header:
        preset: bold
        backgroundColor: { light: "#fff", dark: "#000" }
        linkColor: { light: "#00f", dark: "#0ff" }
`;

describe('deprecated customization fields', () => {
  it('are accepted, each a validate warning at its own line', async () => {
    const result = await withFiles({ 'docplane.yaml': YAML }, (t) => runValidate({ path: `${t.dir}/docplane.yaml` }));
    expect(result.valid).toBe(true);
    if (!result.valid) return;
    expect(result.warnings.map((w) => formatConfigIssue({ ...w, file: w.file.replace(/^.*\//, '') }))).toEqual([
      'docplane.yaml:7:18: sites["site_docs"].customization.styling.background: customization.styling.background is deprecated in the API and will be removed; use styling.tint instead',
      'docplane.yaml:8:31: sites["site_docs"].customization.internationalization.locale: customization.internationalization.locale is deprecated in the API and will be removed; the site\'s language comes from its spaces',
      'docplane.yaml:10:9: sites["site_docs"].customization.header.preset: customization.header.preset is deprecated in the API and will be removed; use styling.theme instead',
      'docplane.yaml:11:9: sites["site_docs"].customization.header.backgroundColor: customization.header.backgroundColor is deprecated in the API and will be removed; use the styling colors instead',
      'docplane.yaml:12:9: sites["site_docs"].customization.header.linkColor: customization.header.linkColor is deprecated in the API and will be removed; use the styling colors instead',
    ]);
  });

  it('are `deprecated` in the JSON Schema', () => {
    const text = JSON.stringify(configJsonSchema());
    expect(text.match(/"deprecated":true/g)).toHaveLength(5);
  });
});
