/** Zod pieces the kinds share, in the state file and in request bodies. */
import { z } from 'zod';

const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export const Role = z.enum(ROLES);
export const Level = z.enum([...ROLES, 'inherit']);

export const Id = z.string().min(1);
export const Timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date-time');

/** A rich-text document in the state file, kept as given (the emulator adds block keys). */
export const SeedDoc = z.looseObject({ object: z.literal('document'), data: z.record(z.string(), z.unknown()).optional(), nodes: z.array(z.unknown()) });

/** A rich-text document in a request body. */
export const Doc = z.looseObject({
  object: z.literal('document'),
  data: z.record(z.string(), z.unknown()).optional(),
  nodes: z.array(z.looseObject({ object: z.string() })),
});

/** A URI of at most `max` characters (the API's limits on `ssoURL` and `logo`). */
export const Uri = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => URL.canParse(s), 'must be a valid URI');
