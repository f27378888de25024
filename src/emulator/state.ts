/**
 * The emulator's state file: the world the API cannot create (tokens, users, members, spaces,
 * sites) and, optionally, resources as if made earlier through the API. YAML or JSON. Field names
 * are the API's; anything left out gets the value the API would give. An organization's fields
 * are those of every kind (kinds/index.ts), each declared in its kind's module.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { DocplaneError } from '../core/errors.js';
import { describeIssue } from './issues.js';
import { EMULATOR_KINDS } from './kinds/index.js';
import type { OrganizationSeedShape } from './kinds/index.js';
import { Id } from './schemas.js';

const TokenSeed = z.strictObject({
  token: z.string().min(1),
  access: z.enum(['read', 'write']),
  /** The user the token acts for; when given, the token reaches only that user's organizations. */
  user: Id.optional(),
  /** Where the token's changes come from in the audit log: `ui` makes them a person's in the app. Default `api`. */
  source: z.enum(['ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support']).optional(),
});

const UserSeed = z.strictObject({
  id: Id,
  email: z.string().min(3),
  displayName: z.string().optional(),
  photoURL: z.string().optional(),
});

const OrganizationSeed = z.strictObject(Object.assign({}, ...EMULATOR_KINDS.map((kind) => kind.orgSeed)) as OrganizationSeedShape);

export const EmulatorStateSchema = z.strictObject({
  /** Default: `dev-token` (write) and `read-token` (read). */
  tokens: z.array(TokenSeed).optional(),
  users: z.array(UserSeed).default([]),
  organizations: z.array(OrganizationSeed).default([]),
});

/** A state as written (defaults optional): what `startEmulator({state})` accepts. */
export type EmulatorState = z.input<typeof EmulatorStateSchema>;
/** A state after validation, every default filled in. */
export type ParsedEmulatorState = z.output<typeof EmulatorStateSchema>;
export type OrganizationSeedT = z.output<typeof OrganizationSeed>;

export const DEFAULT_TOKENS = [
  { token: 'dev-token', access: 'write' as const },
  { token: 'read-token', access: 'read' as const },
];

/** Validates a state object; `source` names where it came from in the error. */
export function parseEmulatorState(input: unknown, source = 'emulator state'): ParsedEmulatorState {
  const result = EmulatorStateSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const lines = result.error.issues.slice(0, 5).map((issue) => describeIssue(issue, input ?? {}).replace(/^body:/, '(top level):'));
  const more = result.error.issues.length > 5 ? ` (and ${result.error.issues.length - 5} more)` : '';
  throw new DocplaneError('EMULATOR_STATE_INVALID', `${source}: ${lines.join('; ')}${more}`, {
    hint: 'Fix the state file; its format is described in src/emulator/README.md.',
  });
}

/** Reads and validates a state file, YAML or JSON (JSON is YAML). Errors name the file. */
export function loadEmulatorState(file: string): ParsedEmulatorState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new DocplaneError('EMULATOR_STATE_UNREADABLE', `cannot read the emulator state file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, {
      hint: 'Check the path given to --state.',
      cause: err,
    });
  }
  let data: unknown;
  try {
    data = parseYaml(text, { prettyErrors: true });
  } catch (err) {
    const message = (err as Error).message.split('\n')[0];
    throw new DocplaneError('EMULATOR_STATE_INVALID', `${file}: not valid YAML or JSON: ${message}`, {
      hint: 'Fix the syntax of the state file.',
      cause: err,
    });
  }
  return parseEmulatorState(data, file);
}
