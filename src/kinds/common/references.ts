/**
 * References between resources of a config (a team's members, an object's access, a site section's
 * space, … each unit declares its own in `references`), checked by one rule:
 * a reference that names what the config defines is fine (the plan creates or matches it, and orders
 * its steps after); one that names nothing in the config is an error when the config alone settles
 * it (the target kind is pruned, a natural key names only the config's own resources), else it is
 * left to the plan, which checks it against the organization (a validate warning until then).
 *
 * Each kind declares the reference fields of its entries (`KindUnit.references`) and reports every
 * reference it finds through `ResolveContext.reference`; this table says how a target kind is
 * claimed by its own unit (the identity given to `ResolveContext.claim`) and how it is named.
 */
import { suggest } from '../../core/text.js';
import { lowerIfEmailAddress } from './text.js';

export interface ReferenceTarget {
  /** Singular noun, for messages. */
  noun: string;
  /** The identity its unit claims for a key (within a site for sections). */
  identity(key: string, site?: string): string;
  /** How the kind is named in references, for messages. */
  naming: string;
  /** The closest of the config's names, when the edit distance of whole names misleads (emails). */
  near?(key: string, names: readonly string[]): string | undefined;
}

export const REFERENCE_TARGETS: Readonly<Record<string, ReferenceTarget>> = {
  teams: { noun: 'team', identity: (k) => `team:${k}`, naming: 'teams are named by their title' },
  members: {
    noun: 'member',
    identity: (k) => `member:${lowerIfEmailAddress(k)}`,
    naming: 'members are named by email or user id',
    // Emails of one domain differ only before the @: compare that part, within the same domain.
    near: (k, names) => {
      const at = k.lastIndexOf('@');
      if (at < 0) return suggest(k, names);
      const domain = k.slice(at).toLowerCase();
      const local = names.filter((n) => n.toLowerCase().endsWith(domain)).map((n) => n.slice(0, n.length - domain.length));
      const found = suggest(k.slice(0, at), local);
      return found === undefined ? suggest(k, names.filter((n) => !n.toLowerCase().endsWith(domain))) : `${found}${domain}`;
    },
  },
  collections: { noun: 'collection', identity: (k) => `collection:${k}`, naming: 'collections are named by their path of titles, like "Product/API"' },
  spaces: {
    noun: 'space',
    identity: (k) => `space:${k}`,
    naming: 'spaces are named by id, or by Collection/Title',
  },
  sites: { noun: 'site', identity: (k) => `site:${k}`, naming: 'sites are named by id' },
  sections: { noun: 'section', identity: (k, site) => `section:${site ?? ''}:${k}`, naming: 'sections are named by their path' },
};

/** One reference field a kind's entries may hold, for docs and the generated scenario test. */
export interface ReferenceField {
  /** The field's path in an entry (`access.teams` keys, `sections[].space`). */
  field: string;
  /** The kind it names (a key of REFERENCE_TARGETS). */
  target: string;
}
