/**
 * The shape every kind of the emulator has: the fields it adds to an organization in the state
 * file and how it seeds them, its routes, the secret fields of its bodies (masked in the exchange
 * log) and how it follows the changes of other kinds. kinds/index.ts lists them; the router, the
 * state schema, the seeding and the masking are derived from that list.
 */
import type { z } from 'zod';
import { DocplaneError } from '../core/errors.js';
import type { Router } from './http.js';
import type { DomainEvent, OrgRec, World } from './model.js';

/** A field whose value is a secret: a single value (`certificate`), or a map of named values (`secrets`). */
export interface SecretField {
  field: string;
  holds: 'value' | 'map';
}

export interface SeedContext {
  world: World;
  /** A creation time: seeded objects look as if made over the last weeks, in file order. */
  stamp(): string;
}

export interface EmulatorKind<S extends z.core.$ZodShape = z.core.$ZodShape> {
  readonly name: string;
  /** The fields this kind adds to an organization of the state file. */
  readonly orgSeed: S;
  /** Adds this kind's empty stores to a new world. */
  initWorld?(world: World): void;
  /**
   * Seeds one organization's records of this kind, in the order of the list; `place` is where the
   * organization stands in the state file (`organizations[0]`), for errors.
   */
  seedOrg?(ctx: SeedContext, org: OrgRec, seed: z.output<z.ZodObject<S>>, place: string): void;
  /** Checks what the seeds of every organization refer to, once all are seeded (an integration another organization publishes). */
  afterSeed?(world: World): void;
  routes(router: Router): void;
  /** Fields of this kind's request and response bodies that the exchange log masks. */
  readonly secretFields?: readonly SecretField[];
  /** Follows a change made by another kind. */
  on?(world: World, event: DomainEvent): void;
  /**
   * The API's path words whose items are this kind's objects, with the object type the audit log
   * names them by (`teams` → `team`): what a write is recorded against.
   */
  readonly auditObjects?: Readonly<Record<string, string>>;
}

/** Keeps the type of the kind's seed fields, so that `seedOrg` sees them typed. */
export function defineKind<S extends z.core.$ZodShape>(kind: EmulatorKind<S>): EmulatorKind<S> {
  return kind;
}

/** A seed that refers to something missing, or lists something twice, with its place in the file. */
export class SeedError extends DocplaneError {
  constructor(place: string, message: string) {
    super('EMULATOR_STATE_INVALID', `emulator state: ${place}: ${message}`, {
      hint: 'Fix the state file; its format is described in src/emulator/README.md.',
    });
    this.name = 'SeedError';
  }
}
