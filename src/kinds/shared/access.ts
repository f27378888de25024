/**
 * The loader's checks of an `access` field (on a collection, a space or a site): each team it names
 * and each user it grants to is a reference (src/kinds/common/references.ts), and a user is an
 * email or a user id without whitespace around it.
 */
import { child, type Origin } from '../../source/origin.js';
import type { ReferenceField } from '../common/references.js';
import { userProblem } from '../common/text.js';
import type { ResolveContext } from '../kind.js';
import type { AccessT } from './access-schema.js';

/** The reference fields of an `access` field. */
export const ACCESS_REFERENCES: readonly ReferenceField[] = [
  { field: 'access.teams', target: 'teams' },
  { field: 'access.users', target: 'members' },
];

/** Why a name the config does not define cannot be anything else: its kind is listed and pruned. */
export function prunedList(ctx: ResolveContext, configKey: string, kind: string, what: string): { settled: string } | object {
  return ctx.entries(configKey) !== undefined && ctx.prunes(kind) ? { settled: `${kind} are pruned: the plan would remove that ${what}` } : {};
}

export function resolveAccess(access: AccessT | undefined, address: string, origin: Origin, ctx: ResolveContext): void {
  if (access === undefined) return;
  const from = `${address}.access`;
  for (const title of Object.keys(access.teams ?? {})) {
    ctx.reference({ kind: 'teams', key: title, from, field: 'teams', origin: child(origin, 'teams', title), mode: 'key', ...prunedList(ctx, 'teams', 'teams', 'team') });
  }
  for (const user of Object.keys(access.users ?? {})) {
    const at = child(origin, 'users', user);
    const problem = userProblem(user);
    if (problem !== undefined) {
      ctx.problems.at(at, problem, 'key');
      continue;
    }
    ctx.reference({ kind: 'members', key: user, from, field: 'users', origin: at, mode: 'key', ...prunedList(ctx, 'members', 'members', 'member') });
  }
}
