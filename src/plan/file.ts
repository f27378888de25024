/**
 * Plan files (`plan --out`): the plan as 2-space JSON with every secret value replaced by a
 * `{{secret:NAME}}` placeholder, so the file can be kept as a CI artifact; apply fills the values in
 * again from the config.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../core/atomic-file.js';
import { DocplaneError } from '../core/errors.js';
import { z } from 'zod';
import { toSecretPlaceholders, type Secret } from '../core/secrets.js';
import { KINDS } from '../kinds/index.js';
import type { Plan } from './types.js';

export const PLAN_FORMAT_VERSION = 1;

export function serializePlan(plan: Plan, secrets: readonly Secret[]): string {
  // What the plan observed of matched objects is re-read by apply, never taken from the file.
  const { observed: _observed, ...kept } = plan;
  return `${JSON.stringify(toSecretPlaceholders(kept, secrets), null, 2)}\n`;
}

export function writePlanFile(plan: Plan, secrets: readonly Secret[], path: string): void {
  writeFileAtomic(path, serializePlan(plan, secrets), 'the plan file ');
}

function notAPlan(path: string, why: string): DocplaneError {
  return new DocplaneError('PLAN_INVALID', `${path} is not a docplane plan file: ${why}`, {
    hint: 'Pass the file written by `docplane plan --out FILE`.',
  });
}

const ACTIONS = ['create', 'update', 'delete', 'move', 'restore', 'sort', 'publish'] as const;

const RequestSpecSchema = z.looseObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: z.string(),
  query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  body: z.json().optional(),
  capture: z.boolean().optional(),
  lookup: z.looseObject({ path: z.string(), match: z.record(z.string(), z.json()), refs: z.array(z.string()).optional() }).optional(),
});

const StepSchema = z.looseObject({
  id: z.string(),
  org: z.string(),
  address: z.string(),
  kind: z.enum(KINDS as [string, ...string[]]),
  action: z.enum(ACTIONS),
  before: z.record(z.string(), z.json()).nullable(),
  after: z.record(z.string(), z.json()).nullable(),
  changes: z.array(
    z.looseObject({ path: z.string(), kind: z.enum(['add', 'remove', 'change']), before: z.json().optional(), after: z.json().optional() }),
  ),
  requests: z.array(RequestSpecSchema),
  dependsOn: z.array(z.string()),
  remoteId: z.string().optional(),
  notes: z.array(z.string()).optional(),
});

/** A plan file as `plan --out` writes it (src/plan/types.ts, Plan); fields added later pass through. */
const PlanFileSchema = z.looseObject({
  formatVersion: z.literal(PLAN_FORMAT_VERSION),
  toolVersion: z.string(),
  createdAt: z.string(),
  configHash: z.string(),
  configPaths: z.array(z.string()),
  orgs: z.array(z.string()),
  steps: z.array(StepSchema),
  unmanaged: z.record(z.string(), z.partialRecord(z.enum(KINDS as [string, ...string[]]), z.array(z.string()))),
  violations: z.array(
    z.looseObject({ rule: z.enum(['maxDeletes', 'maxDeletePercent', 'protect', 'lastAdmin', 'needsForce']), message: z.string(), steps: z.array(z.string()) }),
  ),
  problems: z.array(z.looseObject({ org: z.string(), address: z.string(), message: z.string() })),
  fingerprints: z.record(z.string(), z.string()),
  summary: z.looseObject({ create: z.number(), update: z.number(), delete: z.number(), other: z.number(), unmanaged: z.number() }),
  notes: z.array(z.string()).optional(),
  targets: z.array(z.string()).optional(),
  replace: z.array(z.string()).optional(),
  base: z
    .looseObject({ from: z.string(), unread: z.number().optional(), whole: z.string().optional(), commit: z.string().optional(), configHash: z.string().optional() })
    .optional(),
  duplicates: z.array(z.string()).optional(),
  pictures: z
    .array(
      z.object({
        org: z.string(),
        site: z.string(),
        address: z.string(),
        title: z.string(),
        created: z.boolean(),
        items: z.array(
          z.object({
            key: z.string(),
            type: z.enum(['section', 'group', 'link', 'space']),
            title: z.string(),
            id: z.string().optional(),
            status: z.enum(['added', 'removed', 'moved', 'reordered', 'changed', 'same']),
            parent: z.string().nullable(),
            from: z.string().nullable().optional(),
          }),
        ),
      }),
    )
    .optional(),
  access: z
    .array(
      z.object({
        org: z.string(),
        address: z.string(),
        title: z.string().optional(),
        rows: z.array(
          z.object({
            who: z.enum(['team', 'user']),
            name: z.string(),
            before: z.string().nullable(),
            after: z.string().nullable(),
            members: z.array(z.string()).optional(),
            memberCount: z.number().int().nonnegative().optional(),
          }),
        ),
      }),
    )
    .optional(),
});

/** `steps[3].requests[0].method`; keys that are not plain names in brackets (`fingerprints["org/teams[\"A\"]"]`). */
function issuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out === '' ? '(the whole file)' : out;
}

export function readPlanFile(path: string): Plan {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') {
      throw new DocplaneError('PLAN_IS_FOLDER', `${path} is a folder; pass a plan file written by \`docplane plan --out\`, or -c ${path} to plan from a config folder`, {
        hint: 'docplane apply PLANFILE applies a saved plan; docplane apply -c FOLDER plans from the config in FOLDER and applies that.',
        cause: err,
      });
    }
    throw new DocplaneError('PLAN_UNREADABLE', `cannot read the plan file ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`, {
      hint: 'Check the path of the plan file.',
      cause: err,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (_err) {
    throw notAPlan(path, 'it is not JSON');
  }
  // The version first: a file of another version is told apart from a broken one.
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !('formatVersion' in data)) throw notAPlan(path, 'it has no formatVersion');
  const version = (data as { formatVersion: unknown }).formatVersion;
  if (version !== PLAN_FORMAT_VERSION) {
    throw new DocplaneError(
      'PLAN_FORMAT',
      `${path} has plan formatVersion ${JSON.stringify(version)}; this docplane reads formatVersion ${PLAN_FORMAT_VERSION}`,
      { hint: 'Make the plan again with this version of docplane.' },
    );
  }
  const parsed = PlanFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw notAPlan(path, `${issuePath(issue.path)}: ${issue.message}`);
  }
  return parsed.data;
}
