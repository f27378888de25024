/**
 * Plan files (`plan --out`): the plan as 2-space JSON with every secret value replaced by a
 * `{{secret:NAME}}` placeholder, so the file can be kept as a CI artifact; apply fills the values in
 * again from the config.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { DocplaneError } from '../core/errors.js';
import { toSecretPlaceholders, type Secret } from '../core/secrets.js';
import type { Plan } from './types.js';

export const PLAN_FORMAT_VERSION = 1;

export function serializePlan(plan: Plan, secrets: readonly Secret[]): string {
  return `${JSON.stringify(toSecretPlaceholders(plan, secrets), null, 2)}\n`;
}

export function writePlanFile(plan: Plan, secrets: readonly Secret[], path: string): void {
  try {
    writeFileSync(path, serializePlan(plan, secrets), 'utf8');
  } catch (err) {
    throw new DocplaneError('PLAN_WRITE_FAILED', `cannot write the plan file ${path}: ${(err as Error).message}`, {
      hint: 'Check that the folder exists and is writable.',
      cause: err,
    });
  }
}

function notAPlan(path: string, why: string): DocplaneError {
  return new DocplaneError('PLAN_INVALID', `${path} is not a docplane plan file: ${why}`, {
    hint: 'Pass the file written by `docplane plan --out FILE`.',
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readPlanFile(path: string): Plan {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
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
  if (!isObject(data) || !('formatVersion' in data)) throw notAPlan(path, 'it has no formatVersion');
  if (data.formatVersion !== PLAN_FORMAT_VERSION) {
    throw new DocplaneError(
      'PLAN_FORMAT',
      `${path} has plan formatVersion ${JSON.stringify(data.formatVersion)}; this docplane reads formatVersion ${PLAN_FORMAT_VERSION}`,
      { hint: 'Make the plan again with this version of docplane.' },
    );
  }
  const shape: Array<[string, (v: unknown) => boolean]> = [
    ['toolVersion', (v) => typeof v === 'string'],
    ['configHash', (v) => typeof v === 'string'],
    ['configPaths', (v) => Array.isArray(v) && v.every((p) => typeof p === 'string')],
    ['orgs', (v) => Array.isArray(v)],
    ['steps', (v) => Array.isArray(v) && v.every((s) => isObject(s) && typeof s.id === 'string' && Array.isArray(s.requests) && Array.isArray(s.dependsOn))],
    ['fingerprints', isObject],
    ['summary', isObject],
  ];
  for (const [field, ok] of shape) if (!ok(data[field])) throw notAPlan(path, `"${field}" is missing or malformed`);
  return data as unknown as Plan;
}
