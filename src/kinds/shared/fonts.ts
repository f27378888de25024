/**
 * The organization's custom fonts as the units that name a font read them (fonts, the sites'
 * customization): one list per plan, and how a customization names a font by family.
 */
import { key, ref } from '../../model/address.js';
import type { OrgConfig } from '../../model/desired.js';
import type { JsonObject } from '../../model/step.js';
import type { Reader } from '../kind.js';
import { matchPairs } from '../common/analyse.js';
import { orgPath } from '../common/paths.js';
import { FontListAnswer } from './font-answers.js';

/** One `fonts:` entry of the config. */
type FontT = NonNullable<OrgConfig['fonts']>[number];

export interface RemoteFont {
  id: string;
  custom?: boolean;
  fontFamily: string;
  fontFaces: Array<{ weight: number; sources: Array<{ url: string; format?: string }> }>;
}

export function fontAddress(family: string): string {
  return `fonts${key(family)}`;
}

/**
 * The organization's custom fonts: one list, in one answer (listCustomFonts takes no `limit` nor
 * `page`); the fonts GitBook provides are left out.
 */
export function readFonts(ctx: Reader): Promise<RemoteFont[]> {
  return ctx.shared('fonts', async () => {
    const { body } = await ctx.client.request<{ items: RemoteFont[] }>('GET', `${orgPath(ctx.org)}/fonts`, { schema: FontListAnswer });
    return body.items.filter((f) => f.custom !== false);
  });
}

/** A font definition as a site customization's font takes it (CustomizationFontDefinitionInput). */
export function fontDefinition(r: RemoteFont): JsonObject {
  return {
    id: r.id,
    custom: true,
    fontFamily: r.fontFamily,
    fontFaces: r.fontFaces.map((f) => ({ weight: f.weight, sources: f.sources.map((s) => ({ ...s })) })),
  };
}

/** The remote font a config font matches (id, then renamedFrom, then family). */
export function matchFonts(desired: readonly FontT[], remote: readonly RemoteFont[]) {
  return matchPairs(desired, remote, FONT_KEYS);
}

/** How a font is told apart: id, renamedFrom, family. */
export const FONT_KEYS = {
  address: (family: string) => fontAddress(family),
  desiredKey: (d: FontT) => d.fontFamily,
  remoteKey: (r: RemoteFont) => r.fontFamily,
  remoteId: (r: RemoteFont) => r.id,
  desiredId: (d: FontT) => d.id,
  renamedFrom: (d: FontT) => d.renamedFrom,
};

/**
 * How a site customization names a custom font by family: the definition to send (the font as read,
 * or, for a font this plan creates, refs to its create's answer), the id to compare, and the step it
 * waits for. Undefined when neither the config nor the organization has the family.
 */
export interface FontChoice {
  definition: JsonObject;
  /** The id of the existing font; undefined for one this plan creates. */
  id?: string;
  needs: string[];
}

export function customFonts(org: string, desired: readonly FontT[] | undefined, remote: readonly RemoteFont[]): (family: string) => FontChoice | undefined {
  const pairs = matchFonts(desired ?? [], remote).pairs;
  return (family) => {
    const pair = pairs.find((p) => p.desired.fontFamily === family);
    if (pair && !pair.remote) {
      const address = fontAddress(family);
      return {
        definition: { id: ref(org, address), custom: true, fontFamily: family, fontFaces: ref(org, address, 'fontFaces') },
        needs: [`${address}:create`],
      };
    }
    if (pair?.remote) return { definition: { ...fontDefinition(pair.remote), fontFamily: family }, id: pair.remote.id, needs: [] };
    // A family the config renames away names that font no more.
    if ((desired ?? []).some((d) => d.renamedFrom === family)) return undefined;
    const found = remote.find((f) => f.fontFamily === family);
    return found ? { definition: fontDefinition(found), id: found.id, needs: [] } : undefined;
  };
}
