/**
 * Building the world from a validated state file: tokens and users, then each organization, every
 * kind seeding its part in the order of the list (kinds/index.ts). A seed that refers to something
 * missing is reported with its place.
 */
import type { EmulatorKind, SeedContext } from './kind.js';
import { SeedError } from './kind.js';
import { emulatorKinds } from './kinds/index.js';
import type { OrgRec, TokenRec, World } from './model.js';
import type { Random } from './random.js';
import { idMaker } from './random.js';
import type { ParsedEmulatorState } from './state.js';
import { DEFAULT_TOKENS } from './state.js';

export interface WorldOptions {
  random: Random;
  now?: () => Date;
}

const DAY = 24 * 60 * 60 * 1000;

export function createWorld(state: ParsedEmulatorState, options: WorldOptions): World {
  const kinds = emulatorKinds();
  const now = options.now ?? (() => new Date());
  // The kinds add their stores just below, so the world is whole before anything reads it.
  const world = {
    tokens: new Map(),
    users: new Map(),
    orgs: new Map(),
    newId: idMaker(options.random),
    now,
    baseUrl: 'http://127.0.0.1',
  } as World;
  for (const kind of kinds) kind.initWorld?.(world);

  const tokens: TokenRec[] = state.tokens ?? DEFAULT_TOKENS;
  for (const t of tokens) {
    if (world.tokens.has(t.token)) throw new SeedError('tokens', 'a token is listed twice');
    world.tokens.set(t.token, { token: t.token, access: t.access, user: t.user, ...(t.source ? { source: t.source } : {}) });
  }
  state.users.forEach((u, i) => {
    if (world.users.has(u.id)) throw new SeedError(`users[${i}].id`, `user ${u.id} is listed twice`);
    world.users.set(u.id, { id: u.id, email: u.email, displayName: u.displayName ?? u.email.split('@')[0], photoURL: u.photoURL });
  });
  for (const t of world.tokens.values()) {
    if (t.user && !world.users.has(t.user)) throw new SeedError('tokens', `a token names user ${t.user}, who is not in users`);
  }

  // Seeded objects look as if made over the last weeks, in file order.
  const base = now().getTime() - 30 * DAY;
  let tick = 0;
  const ctx: SeedContext = { world, stamp: () => new Date(base + tick++ * 60_000).toISOString() };

  state.organizations.forEach((seed, i) => seedOrganization(ctx, kinds, seed, `organizations[${i}]`));
  for (const kind of kinds) kind.afterSeed?.(world);
  return world;
}

function seedOrganization(ctx: SeedContext, kinds: readonly EmulatorKind[], seed: Record<string, unknown>, place: string): void {
  // Every kind fills in its fields, the organization kind first (it gives the id).
  const org = {} as OrgRec;
  for (const kind of kinds) kind.seedOrg?.(ctx, org, seed, place);
}
