/**
 * Golden files for the renderings of one rich plan. They are compared exactly; after a deliberate
 * change of a rendering, rewrite them with `UPDATE_GOLDEN=1 npx vitest run test/render/golden.test.ts`
 * and review the diff.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderPlan } from '../../src/render/index.js';
import { RICH_SECRETS, richPlan } from './fixtures/rich-plan.js';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const CASES = [
  { file: 'rich-plan.txt', format: 'text', color: false },
  { file: 'rich-plan.color.txt', format: 'text', color: true },
  { file: 'rich-plan.md', format: 'markdown', color: false },
  { file: 'rich-plan.json', format: 'json', color: false },
] as const;

describe('golden renderings of the rich plan', () => {
  for (const c of CASES) {
    it(`${c.format}${c.color ? ' (colour)' : ''} matches ${c.file}`, () => {
      // Files end with one newline; the rendering itself has none.
      const actual = `${renderPlan(richPlan(), { format: c.format, color: c.color, secrets: RICH_SECRETS })}\n`;
      const path = join(GOLDEN, c.file);
      if (UPDATE) writeFileSync(path, actual);
      expect(existsSync(path), `${c.file} is missing: run with UPDATE_GOLDEN=1 to write it`).toBe(true);
      expect(actual).toBe(readFileSync(path, 'utf8'));
    });
  }

  it('is deterministic: two renderings of the same plan are identical', () => {
    for (const c of CASES) {
      const options = { format: c.format, color: c.color, secrets: RICH_SECRETS };
      expect(renderPlan(richPlan(), options)).toBe(renderPlan(richPlan(), options));
    }
  });
});
