/**
 * Agent instructions (`organization.agentInstructions`): one rich-text document, replaced by PUT and
 * compared by content (the API adds block keys of its own, so documents are normalized first).
 */
import { type RichTextDocumentT, documentToText, isPlainDocument, normalizeDocument, toDocument } from '../../core/richtext.js';
import { ApiError } from '../../core/errors.js';
import { fingerprint } from '../../core/json.js';
import type { JsonValue } from '../../model/step.js';
import { sameJson } from '../common/match.js';
import { emptyKindPlan, type KindSpec, type Reader } from '../kind.js';
import { orgPath } from '../common/paths.js';
import { step } from '../common/step.js';
import { AgentInstructionsAnswer } from './answers.js';

export const AGENT_INSTRUCTIONS_ADDRESS = 'organization.agentInstructions';

export interface RemoteAgentInstructions {
  /** The document, or null when none is set. */
  instructions: RichTextDocumentT | null;
}

const EMPTY: RichTextDocumentT = { object: 'document', data: { schemaVersion: 1 }, nodes: [] };

/** A document with no blocks is "no instructions". */
function isEmpty(doc: RichTextDocumentT | null | undefined): boolean {
  return !doc || !Array.isArray(doc.nodes) || doc.nodes.length === 0;
}

/** What a reviewer reads: the text of a plain document, else the normalized document. */
function shown(doc: RichTextDocumentT | null): JsonValue {
  if (isEmpty(doc)) return null;
  const d = doc as RichTextDocumentT;
  return isPlainDocument(d) ? documentToText(d) : (normalizeDocument(d) as JsonValue);
}

/** The organization's agent instructions (an organization that never had any may answer 404: none). */
export async function readAgentInstructions(ctx: Reader): Promise<RemoteAgentInstructions> {
  try {
    const res = await ctx.client.request<{ instructions?: RichTextDocumentT | null }>('GET', `${orgPath(ctx.org)}/agent-instructions`, { schema: AgentInstructionsAnswer });
    return { instructions: res.body?.instructions ?? null };
  } catch (err) {
    // An organization that never had instructions may answer 404: that is "none".
    if (err instanceof ApiError && err.status === 404) return { instructions: null };
    throw err;
  }
}

export const agentInstructionsModule: KindSpec<RemoteAgentInstructions | undefined> = {
  kind: 'agentInstructions',
  label: { one: 'agent instructions', many: 'agent instructions' },

  async read(ctx) {
    if (ctx.desired.organization.agentInstructions === undefined) return undefined;
    return readAgentInstructions(ctx);
  },

  plan(ctx, remote) {
    const kp = emptyKindPlan();
    const wanted = ctx.desired.organization.agentInstructions;
    if (wanted === undefined || remote === undefined) return kp;
    kp.remoteCount = 1;
    const desiredDoc = wanted === null ? EMPTY : toDocument(wanted);
    const current = remote.instructions;
    const same = isEmpty(current) && isEmpty(desiredDoc) ? true : sameJson(normalizeDocument(current ?? EMPTY) as JsonValue, normalizeDocument(desiredDoc) as JsonValue);
    if (same) return kp;
    const before = shown(current);
    const after = shown(desiredDoc);
    kp.steps.push(step({
      address: AGENT_INSTRUCTIONS_ADDRESS,
      kind: 'agentInstructions',
      action: 'update',
      before: { instructions: before },
      after: { instructions: after },
      changes: [{ path: 'instructions', kind: before === null ? 'add' : after === null ? 'remove' : 'change', ...(before === null ? {} : { before }), ...(after === null ? {} : { after }) }],
      // Clearing is a PUT of an empty document: the API requires `instructions` on PUT.
      requests: [{ method: 'PUT', path: `${orgPath(ctx.org)}/agent-instructions`, body: { instructions: desiredDoc as unknown as JsonValue } }],
    }));
    kp.fingerprints[AGENT_INSTRUCTIONS_ADDRESS] = fingerprint(isEmpty(current) ? null : normalizeDocument(current));
    return kp;
  },
};
