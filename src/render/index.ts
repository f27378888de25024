/**
 * Renderings of a plan: text (terminal), markdown (pull-request comment), json (programs). Every
 * rendering masks secrets first; the renderers only accept a masked plan.
 */
import type { Secret } from '../core/secrets.js';
import type { SourceLocation } from '../model/desired.js';
import type { Plan, Step } from '../plan/types.js';
import { whyLines } from './explain.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import { maskPlan } from './redact.js';
import { renderText } from './text.js';

export type PlanFormat = 'text' | 'json' | 'markdown';

export interface RenderOptions {
  format: PlanFormat;
  /** ANSI colours (text only); the command decides from the TTY, NO_COLOR and --no-color. */
  color: boolean;
  /** Values to mask wherever they appear. */
  secrets: Secret[];
  /** Text: each step's requests (method and path) under it. */
  requests?: boolean;
  /**
   * Where the config writes each address, per organization: markdown names each entry's file:line,
   * and with `why` (`plan --verbose`) text and markdown say under each step why it exists.
   */
  locations?: Record<string, Record<string, SourceLocation>>;
  /** Text and markdown: a line under each step saying why it exists (`plan --verbose`). */
  why?: boolean;
  /** Markdown: the config files' home on the web, for links to each entry's file:line (`plan --source-url`). */
  sourceUrl?: string;
}

/** The plan rendered in the given format, secrets masked, without a trailing newline. */
export function renderPlan(plan: Plan, options: RenderOptions): string {
  const masked = maskPlan(plan, options.secrets);
  const locations = options.locations;
  const why = locations === undefined || options.why !== true ? undefined : (step: Step) => whyLines(masked, step, locations[step.org]);
  switch (options.format) {
    case 'text':
      return renderText(masked, { color: options.color, requests: options.requests, why });
    case 'markdown':
      return renderMarkdown(masked, { why, ...(locations ? { locations } : {}), ...(options.sourceUrl !== undefined ? { sourceUrl: options.sourceUrl } : {}) });
    case 'json':
      return renderJson(masked);
  }
}

export { summaryLine } from './format.js';
export { maskPlan, type MaskedPlan } from './redact.js';
export { renderJson } from './json.js';
export { MARKDOWN_LIMIT, renderMarkdown, type MarkdownOptions } from './markdown.js';
export { renderText, type TextOptions } from './text.js';
