/**
 * The `access` field of a collection, a space or a site: the direct grants of teams (by title) and
 * users (by email or user id). When present it is the whole truth for that object (grants it does
 * not list are removed); when absent the object's access is unmanaged and not read.
 */
import { z } from 'zod';
import { Role } from '../common/fields.js';

export const Access = z
  .strictObject({
    teams: z.record(z.string().min(1), Role).optional().describe('Team title → role; none when absent'),
    users: z.record(z.string().min(1), Role).optional().describe('Email or user id → role; none when absent'),
  })
  .describe('Direct grants on this object, the whole truth when present (inherited access is not managed)');

export type AccessT = z.infer<typeof Access>;
