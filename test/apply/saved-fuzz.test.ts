/**
 * Random edits of a saved plan — a request's method, path, query or body changed, a request added or
 * removed, a safety violation added — are all refused by `apply PLANFILE`, and nothing is written.
 * In process (runApply against the emulator over loopback), so that many edits stay cheap.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { runApply } from '../../src/apply/run.js';
import { startEmulator, type Exchange, type RunningEmulator } from '../../src/emulator/server.js';
import { serializePlan } from '../../src/plan/file.js';
import { runPlan } from '../../src/plan/service.js';
import { demoState, ROOT } from './cli-helpers.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type PlanJson = { steps: Array<{ id: string; requests: Array<Record<string, Json>> }>; violations: Json[] };

let dir: string;
let emulator: RunningEmulator;
const exchanges: Exchange[] = [];
let saved: PlanJson;

const connect = () => Promise.resolve(createClient({ baseUrl: emulator.url, token: 'dev-token', timeoutMs: 10_000, connections: 4 }));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docplane-fuzz-'));
  for (const part of ['docplane.yaml', 'certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(dir, part), { recursive: true });
  emulator = await startEmulator({ port: 0, state: demoState(), seed: 9, onExchange: (e) => exchanges.push(e) });
  const { plan, secrets } = await runPlan({ configPath: join(dir, 'docplane.yaml'), toolVersion: 'fuzz', connect });
  saved = JSON.parse(serializePlan(plan, secrets)) as PlanJson;
});

afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** One edit of a plan (in place), as an attacker or a broken tool would make it. */
const anEdit = fc.record({ s: fc.nat(), r: fc.nat(), how: fc.integer({ min: 0, max: 7 }), text: fc.string({ minLength: 1, maxLength: 8 }) });

/** The value with its first string leaf extended by `text`; undefined when it has no string. */
function changeFirstString(value: Json, text: string): Json | undefined {
  if (typeof value === 'string') return `${value}${text}`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const changed = changeFirstString(value[i], text);
      if (changed !== undefined) return value.map((v, j) => (j === i ? changed : v));
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const changed = changeFirstString(v, text);
      if (changed !== undefined) return { ...value, [k]: changed };
    }
  }
  return undefined;
}

function applyEdit({ s, r, how, text }: { s: number; r: number; how: number; text: string }, plan: PlanJson): void {
  const step = plan.steps[s % plan.steps.length];
  const request = step.requests[r % step.requests.length];
  switch (how) {
    case 0:
      request.method = METHODS.filter((m) => m !== request.method)[r % 4];
      break;
    case 1:
      request.path = `${request.path}/${text}`;
      break;
    case 2:
      request.query = { ...((request.query as Record<string, Json>) ?? {}), [`q${text}`]: text };
      break;
    case 3:
      request.body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? { ...request.body, [`x${text}`]: text } : { x: text };
      break;
    case 4:
      // A string in the body changed (or a body given where there was none).
      request.body = changeFirstString(request.body ?? null, text) ?? { y: text };
      break;
    case 5:
      step.requests.push({ method: 'PATCH', path: '/v1/orgs/org_acme', body: { title: text } });
      break;
    case 6:
      step.requests.splice(r % step.requests.length, 1);
      break;
    default:
      plan.violations.push({ rule: 'maxDeletes', message: `org_acme: ${text}`, steps: [step.id] });
  }
}

describe('a saved plan with random edits', () => {
  it('is refused, and nothing is written', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(anEdit, async (edit) => {
        const plan = structuredClone(saved);
        applyEdit(edit, plan);
        const file = join(dir, `edited-${runs++}.json`);
        writeFileSync(file, JSON.stringify(plan));
        const before = exchanges.length;
        const out = new PassThrough();
        out.resume();
        await expect(
          runApply({
            planFile: file,
            configPath: join(dir, 'docplane.yaml'),
            autoApprove: true,
            force: false,
            targets: [],
            toolVersion: 'fuzz',
            concurrency: 4,
            notify: () => undefined,
            progress: { stream: out, interactive: false, color: false },
            interactive: false,
            confirm: () => Promise.resolve(false),
            connect,
          }),
        ).rejects.toThrow(/does not match what the config and the organization give now|is not a docplane plan file/);
        expect(exchanges.slice(before).filter((e) => e.method !== 'GET')).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});
