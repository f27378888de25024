/**
 * The benchmark's workflow scenarios (docs/benchmarks.md, "Scenarios", 5 to 8): the pull request → merge
 * cycle (`plan --out`, then `apply PLAN`), an apply under a rate limit, plan and apply under injected
 * faults, and an apply at a larger scale for memory. Each runs the built CLI against its own emulator.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '../api/client.js';
import { loadConfig } from '../config/load.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../emulator/server.js';
import { parseAddress } from '../model/address.js';
import { planOrgs } from '../plan/run.js';
import type { Plan } from '../plan/types.js';
import { runCli, type CliRun } from './cli.js';
import { makeDrift } from './drift.js';
import { generate, type BenchWorld, type WorldCounts } from './generate.js';
import { leastImportReads, leastReads, leastWritesFromEmpty, pages, planCriticalPath, planRequests, roundTrips, type Formula } from './least.js';
import type { FaultOutcome, ScenarioResult } from './types.js';
import { writeConfig } from './world-io.js';

export interface WorkflowContext {
  root: string;
  world: BenchWorld;
  /** The config written for the CLI. */
  config: string;
  /** A scratch folder. */
  work: string;
  latencyMs: number;
  concurrency: number;
  startupMs: number;
  toolVersion: string;
  log: (line: string) => void;
}

interface Measured {
  run: CliRun;
  requests: number;
  rateLimited: number;
  emulatorCpuMs: number;
}

/** A scenario's row from one measured CLI run: what the run measured, and what the scenario gives. */
function measuredRow(m: Measured, fields: Omit<ScenarioResult, 'requests' | 'wallMs' | 'maxRssMiB' | 'cpuMs' | 'timeline' | 'emulatorCpuMs'>): ScenarioResult {
  return {
    ...fields,
    requests: m.requests,
    wallMs: m.run.wallMs,
    maxRssMiB: m.run.maxRssMiB,
    cpuMs: m.run.cpuMs,
    ...(m.run.timeline ? { timeline: m.run.timeline } : {}),
    emulatorCpuMs: m.emulatorCpuMs,
  };
}

/** The least an apply from empty sends: the reads of an empty organization, every create, the verify. */
function leastFromEmpty(counts: WorldCounts): { total: number; formula: Formula[] } {
  const formula = [leastReads(counts, false).requests, leastWritesFromEmpty(counts), leastReads(counts, true).requests];
  return { total: formula.reduce((n, f) => n + f.total, 0), formula };
}

/** An emulator that counts its 429s. */
async function emulatorFor(options: EmulatorOptions): Promise<{ emulator: RunningEmulator; limited: () => number }> {
  let limited = 0;
  const emulator = await startEmulator({
    ...options,
    onExchange: (x) => {
      if (x.status === 429) limited++;
    },
  });
  return { emulator, limited: () => limited };
}

async function cliAgainst(
  ctx: WorkflowContext,
  em: { emulator: RunningEmulator; limited: () => number },
  args: string[],
  // A command that sends no request (validate) has no --concurrency flag: given one, it exits 1 at once.
  { sends = true }: { sends?: boolean } = {},
): Promise<Measured> {
  const before = em.emulator.requestCount();
  const limitedBefore = em.limited();
  const cpu0 = process.cpuUsage();
  const run = await runCli(sends ? [...args, '--concurrency', String(ctx.concurrency)] : args, {
    root: ctx.root,
    env: { DOCPLANE_API_URL: em.emulator.url, DOCPLANE_TOKEN: 'dev-token' },
  });
  const used = process.cpuUsage(cpu0);
  return { run, requests: em.emulator.requestCount() - before, rateLimited: em.limited() - limitedBefore, emulatorCpuMs: (used.user + used.system) / 1000 };
}

/**
 * The least reads that check a saved plan's steps: each distinct list holding one of their remote
 * objects, once (a page at a time); a team's membership is its own list. `criticalPath`: the longest
 * chain of them, in round trips (a list's pages come one after the other, each cursor in the answer
 * before it; a team's members or a site's parts after the team or site list that gives their id).
 */
export function leastCheckReads(plan: Pick<Plan, 'steps'>, c: WorldCounts): Formula & { criticalPath: number } {
  const lists = new Map<string, { what: string; n: number }>();
  let criticalPath = 1;
  /** `n` requests, read after `after` round trips, one after the other (a list's pages) unless `side` (lists read side by side). */
  const add = (key: string, n: number, after = 0, side = false) => {
    lists.set(key, { what: key, n });
    criticalPath = Math.max(criticalPath, after + (side ? 1 : n));
  };
  const sitesPages = pages(c.sites + c.newSites + c.rootSites);
  for (const s of plan.steps) {
    const [top, siteKey] = parseAddress(s.address)?.segments ?? [];
    const site = top && 'name' in top && top.name === 'sites' && siteKey && 'key' in siteKey ? siteKey.key : undefined;
    switch (s.kind) {
      case 'organization':
        add('GET ORG', 1);
        break;
      case 'agentInstructions':
        add('GET ORG/agent-instructions', 1);
        break;
      case 'members':
        add(`members: pages(${c.members})`, pages(c.members));
        break;
      case 'teams':
        add(`teams: pages(${c.teams})`, pages(c.teams));
        break;
      case 'teamMembers':
        add(`members of ${s.address}`, 1, pages(c.teams));
        break;
      case 'collections':
        add(`collections: pages(${c.collections})`, pages(c.collections));
        break;
      case 'spaces':
        add(`spaces: pages(${c.spaces})`, pages(c.spaces));
        break;
      case 'sites':
        add(`sites: pages(${c.sites + c.newSites + c.rootSites})`, sitesPages);
        break;
      case 'sections':
      case 'siteSpaces':
      case 'sectionGroups':
      case 'externalLinks':
        add(`structure of site ${site}`, 1, sitesPages);
        break;
      case 'shareLinks':
        add(`share links of site ${site}`, 1, sitesPages);
        break;
      case 'redirects':
        add(`redirects of site ${site}`, pages(c.redirectsPerSite), sitesPages);
        break;
      case 'customization':
        add(`customization of site ${site}`, 1, sitesPages);
        break;
      case 'publishingAuth':
        add(`publishing auth of site ${site}`, 1, sitesPages);
        break;
      case 'collectionAccess':
      case 'spaceAccess':
      case 'siteAccess': {
        // The object's two grant lists (teams, users), side by side, once its holder's list gave its id.
        const holderPages = s.kind === 'collectionAccess' ? pages(c.collections) : s.kind === 'spaceAccess' ? pages(c.spaces) : sitesPages;
        add(`grants of ${s.address.slice(0, s.address.indexOf('.access'))}`, 2, holderPages, true);
        break;
      }
      default:
        add(`${s.kind} list`, 1);
    }
  }
  const terms = [...lists.values()].sort((a, b) => a.what.localeCompare(b.what));
  return { total: terms.reduce((n, t) => n + t.n, 0), terms, criticalPath };
}

/** Pull request → merge: `plan --out` of a 1% change, then `apply PLAN`. */
export async function pullRequestScenarios(ctx: WorkflowContext): Promise<ScenarioResult[]> {
  const { world, latencyMs: L, concurrency: conc } = ctx;
  const em = await emulatorFor({ port: 0, state: world.fullState, latencyMs: L, seed: 11 });
  const client = createClient({ baseUrl: em.emulator.url, token: 'dev-token' });
  try {
    const drift = await makeDrift(world, client, 0.01);
    const planFile = join(ctx.work, 'plan.json');
    const pr = await cliAgainst(ctx, em, ['plan', '-c', ctx.config, '--out', planFile]);
    if (pr.run.code !== 0) throw new Error(`bench: plan --out failed (exit ${pr.run.code})\n${pr.run.stderr.slice(-2000)}`);
    const saved = JSON.parse(readFileSync(planFile, 'utf8')) as Plan;
    const merge = await cliAgainst(ctx, em, ['apply', planFile, '-c', ctx.config]);
    if (merge.run.code !== 0) throw new Error(`bench: apply PLAN failed (exit ${merge.run.code})\n${merge.run.stderr.slice(-2000)}`);
    const full = leastReads(world.counts, true);
    const check = leastCheckReads(saved, world.counts);
    const writes: Formula = { total: planRequests(saved), terms: [{ what: `the plan's ${saved.steps.length} steps' requests`, n: planRequests(saved) }] };
    const verify: Formula = { total: check.total, terms: check.terms.map((t) => ({ ...t, what: `again after: ${t.what}` })) };
    // A whole plan's scope is the organization: apply reads it whole to derive the plan again (a
    // step the file lacks is found only so), then the plan's requests, then the touched objects again.
    const refresh: Formula = { total: full.requests.total, terms: full.requests.terms.map((t) => ({ ...t, what: `the whole plan again: ${t.what}` })) };
    const planRt = roundTrips(full.requests.total, full.criticalPath, conc);
    const mergeRt = planRt + roundTrips(check.total, check.criticalPath, conc) + roundTrips(writes.total, planCriticalPath(saved), conc);
    const converged = /converged: no changes left/.test(merge.run.stdout + merge.run.stderr);
    return [
      measuredRow(pr, {
        name: 'PR: plan --out (1%)',
        least: full.requests.total,
        leastFormula: [full.requests],
        idealMs: ctx.startupMs + planRt * L,
        idealRoundTrips: planRt,
        check: { ok: saved.steps.length === drift.total, detail: `${drift.total} changes made through the API, ${saved.steps.length} steps saved` },
      }),
      measuredRow(merge, {
        name: 'merge: apply PLAN',
        least: refresh.total + writes.total + verify.total,
        leastFormula: [refresh, writes, verify],
        idealMs: ctx.startupMs + mergeRt * L,
        idealRoundTrips: mergeRt,
        check: { ok: converged, detail: `exit ${merge.run.code}, ${converged ? 'converged' : 'NOT converged'}` },
      }),
    ];
  } finally {
    await client.close();
    await em.emulator.close();
  }
}

/** A rate limit: `N` requests per second, or `N/Ss` (N per window of S seconds). */
export interface RateLimitSpec {
  limit: number;
  windowSeconds: number;
  text: string;
}

export function parseRateLimit(text: string): RateLimitSpec {
  const m = /^(\d+)(?:\/(\d+(?:\.\d+)?)s)?$/.exec(text.trim());
  if (!m || Number(m[1]) < 1) throw new Error(`bench: --rate-limit must be N or N/Ss (N requests per S seconds), not ${text}`);
  return { limit: Number(m[1]), windowSeconds: m[2] === undefined ? 1 : Number(m[2]), text };
}

/** The emulator with the rate limit: N per window of S seconds (the emulator's sliding window). */
async function startLimited(base: EmulatorOptions, spec: RateLimitSpec): Promise<{ emulator: RunningEmulator; limited: () => number; spec: RateLimitSpec }> {
  return { ...(await emulatorFor({ ...base, rateLimit: { limit: spec.limit, windowSeconds: spec.windowSeconds } })), spec };
}

/** The world applied from empty under a rate limit: share of 429s, wall against useful requests ÷ limit. */
export async function rateLimitedApply(ctx: WorkflowContext, rate: RateLimitSpec): Promise<ScenarioResult & { rateLimited: number }> {
  const { world } = ctx;
  const em = await startLimited({ port: 0, state: world.seedState, latencyMs: ctx.latencyMs, seed: 12 }, rate);
  try {
    const m = await cliAgainst(ctx, em, ['apply', '-c', ctx.config, '--auto-approve']);
    if (m.run.code !== 0) throw new Error(`bench: rate-limited apply failed (exit ${m.run.code})\n${m.run.stderr.slice(-2000)}`);
    const least = leastFromEmpty(world.counts);
    const useful = m.requests - m.rateLimited;
    const share = m.rateLimited / m.requests;
    return {
      ...measuredRow(m, {
        name: `rate-limited apply (${em.spec.limit}/${em.spec.windowSeconds}s)`,
        least: least.total,
        leastFormula: least.formula,
        idealMs: (useful / em.spec.limit) * em.spec.windowSeconds * 1000,
        idealRoundTrips: 0,
        check: { ok: /converged: no changes left/.test(m.run.stdout + m.run.stderr), detail: `${m.rateLimited} answered 429 (${(share * 100).toFixed(2)}%); ideal = ${useful} useful ÷ limit` },
      }),
      rateLimited: m.rateLimited,
    };
  } finally {
    await em.emulator.close();
  }
}


/**
 * Apply from empty, then plan, under 10% 5xx and 3% connection resets, for several fault seeds:
 * failed runs, and duplicates (remote resources the config names twice over: the unmanaged count
 * of a plan afterwards above that of the world the config describes).
 */
export async function faultScenarios(ctx: WorkflowContext, seeds: number): Promise<{ results: ScenarioResult[]; outcome: FaultOutcome }> {
  const { world } = ctx;
  const loaded = await loadConfig({ path: ctx.config, env: {} });
  const baseline = await (async () => {
    const em = await startEmulator({ port: 0, state: world.fullState, seed: 1 });
    const client = createClient({ baseUrl: em.url, token: 'dev-token' });
    try {
      return (await planOrgs(loaded, client, { toolVersion: ctx.toolVersion })).summary.unmanaged;
    } finally {
      await client.close();
      await em.close();
    }
  })();
  const outcome: FaultOutcome = { seeds, failedApplies: 0, failedPlans: 0, duplicates: 0 };
  const applies = { requests: 0, wallMs: 0, cpuMs: 0, emu: 0, peak: 0 };
  const plans = { requests: 0, wallMs: 0, cpuMs: 0, emu: 0, peak: 0 };
  for (let seed = 1; seed <= seeds; seed++) {
    const em = await emulatorFor({ port: 0, state: world.seedState, latencyMs: ctx.latencyMs, seed: 100 + seed, faultRate: 0.1, resetRate: 0.03 });
    const client = createClient({ baseUrl: em.emulator.url, token: 'dev-token', maxAttempts: 20 });
    try {
      const a = await cliAgainst(ctx, em, ['apply', '-c', ctx.config, '--auto-approve']);
      if (a.run.code !== 0) outcome.failedApplies++;
      const p = await cliAgainst(ctx, em, ['plan', '-c', ctx.config, '--detailed-exitcode']);
      if (p.run.code !== 0) outcome.failedPlans++;
      for (const [acc, m] of [[applies, a], [plans, p]] as const) {
        acc.requests += m.requests;
        acc.wallMs += m.run.wallMs;
        acc.cpuMs += m.run.cpuMs ?? 0;
        acc.emu += m.emulatorCpuMs;
        acc.peak = Math.max(acc.peak, m.run.maxRssMiB ?? 0);
      }
      const after = await planOrgs(loaded, client, { toolVersion: ctx.toolVersion });
      outcome.duplicates += Math.max(0, after.summary.unmanaged - baseline);
      ctx.log(`faults, seed ${seed}: apply exit ${a.run.code}, plan exit ${p.run.code}, unmanaged ${after.summary.unmanaged} (world: ${baseline})`);
    } finally {
      await client.close();
      await em.emulator.close();
    }
  }
  const applyLeast = leastFromEmpty(world.counts);
  const full = leastReads(world.counts, true);
  const row = (name: string, acc: typeof applies, least: number, formula: Formula[], detail: string, ok: boolean): ScenarioResult => ({
    name,
    requests: acc.requests,
    least: least * seeds,
    leastFormula: formula,
    wallMs: acc.wallMs / seeds,
    idealMs: 0,
    idealRoundTrips: 0,
    maxRssMiB: acc.peak,
    cpuMs: acc.cpuMs / seeds,
    emulatorCpuMs: acc.emu / seeds,
    check: { ok, detail },
  });
  return {
    outcome,
    results: [
      row(`faults: apply (${seeds} seeds)`, applies, applyLeast.total, applyLeast.formula, `${outcome.failedApplies} failed, ${outcome.duplicates} duplicates`, outcome.failedApplies === 0 && outcome.duplicates === 0),
      row(`faults: plan (${seeds} seeds)`, plans, full.requests.total, [full.requests], `${outcome.failedPlans} failed (or not converged)`, outcome.failedPlans === 0),
    ],
  };
}

/** Apply from empty at a larger scale, without latency: requests and peak memory only. */
export async function memoryScenario(ctx: Omit<WorkflowContext, 'world' | 'config'>, scale: number, seed: number): Promise<ScenarioResult[]> {
  const world = generate(scale, seed);
  const config = writeConfig(world, join(ctx.work, `config-scale-${scale}`));
  const em = await emulatorFor({ port: 0, state: world.seedState, seed });
  const wctx = { ...ctx, world, config };
  try {
    const m = await cliAgainst(wctx, em, ['apply', '-c', config, '--auto-approve']);
    if (m.run.code !== 0) throw new Error(`bench: the scale-${scale} apply failed (exit ${m.run.code})\n${m.run.stderr.slice(-2000)}`);
    const least = leastFromEmpty(world.counts);
    const row = (name: string, measured: Measured, formula: Formula, check: ScenarioResult['check']) =>
      measuredRow(measured, { name: `${name}, scale ${scale}`, least: formula.total, leastFormula: [formula], idealMs: 0, idealRoundTrips: 0, check });
    const rows = [
      measuredRow(m, {
        name: `apply from empty, scale ${scale}`,
        least: least.total,
        leastFormula: least.formula,
        idealMs: 0,
        idealRoundTrips: 0,
        check: { ok: /converged: no changes left/.test(m.run.stdout + m.run.stderr), detail: `exit ${m.run.code}, latency 0` },
      }),
    ];
    // The other workflows on the world as applied: requests against their least, and peak memory.
    const plan = await cliAgainst(wctx, em, ['plan', '-c', config, '--detailed-exitcode']);
    rows.push(row('plan, no changes', plan, leastReads(world.counts, true).requests, { ok: plan.run.code === 0, detail: `exit ${plan.run.code} (0: no changes), latency 0` }));
    const out = join(ctx.work, `import-scale-${scale}`);
    const imported = await cliAgainst(wctx, em, ['import', '--org', world.org, '--out', out]);
    rows.push(row('import', imported, leastImportReads(world.counts).requests, { ok: imported.run.code === 0, detail: `exit ${imported.run.code}, latency 0` }));
    // Again over what it wrote (the drift workflow): the earlier file is read for the entries kept.
    const again = await cliAgainst(wctx, em, ['import', '--org', world.org, '--out', out, '--force']);
    rows.push(row('import --force over it', again, leastImportReads(world.counts).requests, { ok: again.run.code === 0, detail: `exit ${again.run.code}, latency 0` }));
    const validate = await cliAgainst(wctx, em, ['validate', '-c', config], { sends: false });
    rows.push(row('validate', validate, { total: 0, terms: [{ what: 'no request', n: 0 }] }, { ok: validate.run.code === 0, detail: `exit ${validate.run.code}` }));
    return rows;
  } finally {
    await em.emulator.close();
  }
}

/** The wait under a window rate limit for `requests` sent at once: a window's worth, then a window per window's worth. */
function windowWaitMs(requests: number, limit: number, windowSeconds: number): number {
  return Math.max(0, Math.ceil(requests / limit) - 1) * windowSeconds * 1000;
}

/** The window rate limit of the live service's documentation: 60 per 60 s. */
const LIVE_LIMIT = { limit: 60, windowSeconds: 60 };

/**
 * A pull request that changes 3 entries (a member's role, a team's members, a space's title) on the
 * world as applied: the whole plan against `plan --base` (the world's config as the base), requests
 * and the walls they make under the live service's window rate limit, computed from the requests.
 */
export async function baseScenarios(ctx: WorkflowContext): Promise<ScenarioResult[]> {
  const { world, latencyMs: L, concurrency: conc } = ctx;
  const head = structuredClone(world.config) as unknown as Record<string, Array<Record<string, unknown>>>;
  const member = head.members[Math.min(5, head.members.length - 1)];
  member.role = member.role === 'edit' ? 'read' : 'edit';
  const team = head.teams[Math.min(3, head.teams.length - 1)];
  (team.members as unknown[]).pop();
  const space = head.spaces[Math.min(7, head.spaces.length - 1)];
  space.title = `${String(space.title)} (renamed)`;
  const headFile = writeConfig({ ...world, config: head as unknown as BenchWorld['config'] }, join(ctx.work, 'pr-head'));

  const em = await emulatorFor({ port: 0, state: world.fullState, latencyMs: L, seed: 13 });
  try {
    const whole = await cliAgainst(ctx, em, ['plan', '-c', headFile, '--format', 'json']);
    const prFile = join(ctx.work, 'pr-plan.json');
    const pr = await cliAgainst(ctx, em, ['plan', '-c', headFile, '--base', ctx.config, '--format', 'json', '--out', prFile]);
    for (const [name, m] of [['plan', whole], ['plan --base', pr]] as const) {
      if (m.run.code !== 0) throw new Error(`bench: ${name} of the 3-entry change failed (exit ${m.run.code})\n${m.run.stderr.slice(-2000)}`);
    }
    // The merge: the --base plan applied; its scope (the 3 entries) derived again from its base.
    const merge = await cliAgainst(ctx, em, ['apply', prFile, '-c', headFile]);
    if (merge.run.code !== 0) throw new Error(`bench: apply of the --base plan failed (exit ${merge.run.code})\n${merge.run.stderr.slice(-2000)}`);
    const wholePlan = JSON.parse(whole.run.stdout) as Plan;
    const prPlan = JSON.parse(pr.run.stdout) as Plan;
    const c = world.counts;
    const full = leastReads(c, true);
    // The lists that hold the 3 entries, and what they refer to: the members (for the member, and
    // the team's emails), the teams and the team's membership, the spaces, the space's collection
    // (by path) and its two grant lists when it has access.
    const least: Formula = {
      terms: [
        { what: `members: pages(${c.members})`, n: pages(c.members) },
        { what: `teams: pages(${c.teams})`, n: pages(c.teams) },
        { what: `members of ${team.title as string}`, n: 1 },
        { what: `spaces: pages(${c.spaces})`, n: pages(c.spaces) },
        ...(typeof space.collection === 'string' ? [{ what: `collections: pages(${c.collections})`, n: pages(c.collections) }] : []),
        ...(space.access !== undefined ? [{ what: `grants of ${space.id as string} (teams, users)`, n: 2 }] : []),
      ],
      total: 0,
    };
    least.total = least.terms.reduce((n, t) => n + t.n, 0);
    const sameSteps = JSON.stringify(prPlan.steps.map((s) => s.id).sort()) === JSON.stringify(wholePlan.steps.map((s) => s.id).sort());
    const windowed = (requests: number, leastN: number) => ({ ...LIVE_LIMIT, ms: windowWaitMs(requests, LIVE_LIMIT.limit, LIVE_LIMIT.windowSeconds), leastMs: windowWaitMs(leastN, LIVE_LIMIT.limit, LIVE_LIMIT.windowSeconds) });
    const wholeRt = roundTrips(full.requests.total, full.criticalPath, conc);
    const prRt = roundTrips(least.total, 3, conc);
    const result = (name: string, m: Measured, leastN: number, formula: Formula[], rt: number, plan: Plan): ScenarioResult =>
      measuredRow(m, {
        name,
        least: leastN,
        leastFormula: formula,
        idealMs: ctx.startupMs + rt * L,
        idealRoundTrips: rt,
        windowed: windowed(m.requests, leastN),
        check: {
          ok: sameSteps && plan.steps.length >= 3,
          detail: `${plan.steps.length} steps${sameSteps ? ', the same in both' : ', NOT the same as the whole plan'}; at 60/60 s: wait ${(windowWaitMs(m.requests, 60, 60) / 60_000).toFixed(1)} min`,
        },
      });
    const writes: Formula = { total: planRequests(prPlan), terms: [{ what: `the plan's ${prPlan.steps.length} steps' requests`, n: planRequests(prPlan) }] };
    const again = leastCheckReads(prPlan, c);
    const verify: Formula = { total: again.total, terms: again.terms.map((t) => ({ ...t, what: `again after: ${t.what}` })) };
    const rederive: Formula = { total: least.total, terms: least.terms.map((t) => ({ ...t, what: `the --base scope again: ${t.what}` })) };
    const mergeRt = prRt + roundTrips(writes.total, planCriticalPath(prPlan), conc) + roundTrips(again.total, again.criticalPath, conc);
    const converged = /converged: no changes left/.test(merge.run.stdout + merge.run.stderr);
    return [
      result('PR: plan (3 entries changed)', whole, full.requests.total, [full.requests], wholeRt, wholePlan),
      result('PR: plan --base (3 entries changed)', pr, least.total, [least], prRt, prPlan),
      measuredRow(merge, {
        name: 'merge: apply PLAN of plan --base',
        least: rederive.total + writes.total + verify.total,
        leastFormula: [rederive, writes, verify],
        idealMs: ctx.startupMs + mergeRt * L,
        idealRoundTrips: mergeRt,
        windowed: windowed(merge.requests, rederive.total + writes.total + verify.total),
        check: { ok: converged, detail: `exit ${merge.run.code}, ${converged ? 'converged' : 'NOT converged'}` },
      }),
    ];
  } finally {
    await em.emulator.close();
  }
}

/**
 * A pull request of three parts on the world as applied: a team's membership, a section's title
 * and a collection's team grant. `plan --base` reads the teams list once for the membership and the
 * grant, and of the site only its structure; requests against the least and the whole plan's steps.
 */
export async function threePartScenario(ctx: WorkflowContext): Promise<ScenarioResult> {
  const { world, latencyMs: L, concurrency: conc } = ctx;
  const head = structuredClone(world.config) as unknown as Record<string, Array<Record<string, unknown>>>;
  const team = head.teams[Math.min(3, head.teams.length - 1)];
  (team.members as unknown[]).pop();
  const site = head.sites[0] as Record<string, Array<Record<string, unknown>>>;
  const section = site.sections[Math.min(4, site.sections.length - 1)];
  section.title = `${String(section.title)} (renamed)`;
  const top = head.collections.find((x) => x.access !== undefined) as { access: { teams: Record<string, string> }; collections?: Array<{ access?: unknown }> };
  const granted = Object.keys(top.access.teams)[0];
  top.access.teams[granted] = top.access.teams[granted] === 'admin' ? 'read' : 'admin';
  const headFile = writeConfig({ ...world, config: head as unknown as BenchWorld['config'] }, join(ctx.work, 'pr-three'));
  const em = await emulatorFor({ port: 0, state: world.fullState, latencyMs: L, seed: 17 });
  try {
    const whole = await cliAgainst(ctx, em, ['plan', '-c', headFile, '--format', 'json']);
    const pr = await cliAgainst(ctx, em, ['plan', '-c', headFile, '--base', ctx.config, '--format', 'json']);
    for (const [name, m] of [['plan', whole], ['plan --base', pr]] as const) {
      if (m.run.code !== 0) throw new Error(`bench: ${name} of the three-part change failed (exit ${m.run.code})\n${m.run.stderr.slice(-2000)}`);
    }
    const steps = (m: Measured) => (JSON.parse(m.run.stdout) as Plan).steps.map((x) => `${x.action} ${x.address}`).sort();
    const same = JSON.stringify(steps(whole)) === JSON.stringify(steps(pr));
    const c = world.counts;
    // The touched collection entry is a top collection with its nested ones: the grants of those with access.
    const withAccess = 1 + (top.collections ?? []).filter((x) => x.access !== undefined).length;
    const least: Formula = {
      terms: [
        { what: `members: pages(${c.members}) (the grants' and the team's emails)`, n: pages(c.members) },
        { what: `teams: pages(${c.teams}), once for the membership and the grant`, n: pages(c.teams) },
        { what: `members of ${String(team.title)}`, n: 1 },
        { what: `collections: pages(${c.collections})`, n: pages(c.collections) },
        { what: `grants of the ${withAccess} collections of the entry with access (teams, users)`, n: 2 * withAccess },
        { what: 'sites: pages(sites)', n: 1 },
        { what: `the structure of ${world.siteIds[0]} (the section; no share links, redirects or grants)`, n: 1 },
        { what: `spaces: pages(${c.spaces}) (the section's space)`, n: pages(c.spaces) },
      ],
      total: 0,
    };
    least.total = least.terms.reduce((n, t) => n + t.n, 0);
    const rt = roundTrips(least.total, 3, conc);
    return measuredRow(pr, {
      name: 'PR: plan --base (a grant, a section title, a membership)',
      least: least.total,
      leastFormula: [least],
      idealMs: ctx.startupMs + rt * L,
      idealRoundTrips: rt,
      windowed: { ...LIVE_LIMIT, ms: windowWaitMs(pr.requests, LIVE_LIMIT.limit, LIVE_LIMIT.windowSeconds), leastMs: windowWaitMs(least.total, LIVE_LIMIT.limit, LIVE_LIMIT.windowSeconds) },
      check: { ok: same && steps(pr).length === 3, detail: `${steps(pr).length} steps${same ? ', the same as the whole plan' : ', NOT the same as the whole plan'} (whole plan: ${whole.requests} requests)` },
    });
  } finally {
    await em.emulator.close();
  }
}
