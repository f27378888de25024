/**
 * `docplane explain ADDRESS`: why the plan has the steps it has at an address. The plan is made as
 * `docplane plan` makes it (the same reads, policies and safety rules), with where the config writes
 * each address.
 */
import type { SourceLocation } from '../model/desired.js';
import { runPlan, type RunPlanOptions, type RunPlanResult } from './service.js';

export interface ExplainResult extends RunPlanResult {
  /** Where the config writes each address, per organization. */
  locations: Record<string, Record<string, SourceLocation>>;
}

export async function explainPlan(options: RunPlanOptions): Promise<ExplainResult> {
  const { plan, secrets, locations = {} } = await runPlan(options);
  return { plan, secrets, locations };
}
