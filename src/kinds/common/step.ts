/**
 * The one way a kind writes a step: the fields every step has, with `changes` worked out from
 * `before` and `after` (the field-level differences the renderings show) unless the kind gives its
 * own, and no dependencies unless named.
 */
import type { FieldChange } from '../../model/step.js';
import type { DraftStep } from '../kind.js';
import { diffFields } from './match.js';

export interface StepInput extends Omit<DraftStep, 'changes' | 'needs'> {
  /** The changes to show, where they are not the differences from `before` to `after`. */
  changes?: FieldChange[];
  needs?: string[];
  /** Per list field, the member key that identifies its elements (diffFields' `embeddedKeys`). */
  keys?: Record<string, string>;
}

/** A drafted step; `changes` defaults to diffFields(before ?? {}, after ?? {}), `needs` to none. */
export function step(o: StepInput): DraftStep {
  const { address, kind, action, before, after, changes, requests, needs, keys, ...rest } = o;
  return {
    address,
    kind,
    action,
    before,
    after,
    changes: changes ?? diffFields(before ?? {}, after ?? {}, keys),
    requests,
    needs: needs ?? [],
    ...rest,
  };
}
