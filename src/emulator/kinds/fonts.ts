/**
 * Custom fonts of an organization (`/orgs/{org}/fonts`): a family and its faces, one per weight. The
 * API takes each face's file as a storage key (the file uploaded beforehand) and answers its
 * sources as URLs; the emulator serves a file's URL on the reserved `.test` domain with the key as
 * its path. As the live description says: create is a PUT, update a POST answering 201, a request
 * the API refuses (no regular weight, a face without file) a 412.
 */
import { z } from 'zod';
import { HttpError, bodyObject, created, deleted, listReply, notFound, ok } from '../http.js';
import type { RouteRequest } from '../http.js';
import { describeIssue } from '../issues.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec } from '../model.js';
import { location, orgOf } from '../routing.js';
import { Id } from '../schemas.js';
import type { Obj } from '../views.js';

export interface FontRec {
  id: string;
  fontFamily: string;
  /** Storage key of each weight's file. */
  faces: Map<number, string>;
}

declare module '../model.js' {
  interface OrgRec {
    fonts: Map<string, FontRec>;
  }
}

const Family = z.string().min(1).max(50);
const Weight = z.number().int().min(1).max(1000);
const StorageKey = z.string().min(1).max(512);

const FontSeed = z.strictObject({
  id: Id.optional(),
  fontFamily: Family,
  /** Weight → storage key of its file. */
  fontFaces: z.array(z.strictObject({ weight: Weight, storageKey: StorageKey })).min(1),
});

const CreateFont = z.strictObject({
  fontFamily: Family,
  fontFaces: z.array(z.strictObject({ weight: Weight, storageKey: StorageKey })).min(1),
});
const UpdateFont = z.strictObject({
  fontFamily: Family.optional(),
  // null removes that weight.
  fontFaces: z.array(z.strictObject({ weight: Weight, storageKey: StorageKey.nullable() })).optional(),
});

/** The URL of a stored file: the key is its path. */
export const fileUrl = (key: string): string => `https://files.docplane.test/${key.split('/').map(encodeURIComponent).join('/')}`;

/** A font definition (CustomizationFontDefinition); also what a site customization's font holds. */
export function fontDefinition(f: FontRec): Obj {
  return {
    id: f.id,
    custom: true,
    fontFamily: f.fontFamily,
    fontFaces: [...f.faces]
      .sort(([a], [b]) => a - b)
      .map(([weight, key]) => ({ weight, sources: [{ url: fileUrl(key), format: key.endsWith('.woff') ? 'woff' : 'woff2' }] })),
  };
}

const fontView = (f: FontRec): Obj => ({ ...fontDefinition(f), permissions: { edit: true } });

/** 412, the status the description gives for a font request it refuses. */
function refused(message: string): HttpError {
  return new HttpError(412, message);
}

function parse<S extends z.ZodType>(schema: S, req: RouteRequest): z.infer<S> {
  const input = bodyObject(req);
  const result = schema.safeParse(input);
  if (!result.success) throw refused(describeIssue(result.error.issues[0], input));
  return result.data;
}

function fontOf(req: RouteRequest, org: OrgRec): FontRec {
  const f = org.fonts.get(req.params.font);
  if (!f) throw notFound(`no font ${req.params.font} in organization ${org.id}`);
  return f;
}

/** A font keeps a regular face: the live service refuses one without weight 400. */
function checkRegular(faces: ReadonlyMap<number, string>): void {
  if (!faces.has(400)) throw refused('fontFaces: a font needs a face of weight 400 (regular)');
}

export const fontsKind = defineKind({
  name: 'fonts',
  auditObjects: { fonts: 'font' },
  orgSeed: {
    fonts: z.array(FontSeed).default([]),
  },
  seedOrg(ctx, org, seed, place) {
    org.fonts = new Map();
    seed.fonts.forEach((f, i) => {
      const id = f.id ?? ctx.world.newId('font');
      if (org.fonts.has(id)) throw new SeedError(`${place}.fonts[${i}].id`, `font ${id} is listed twice`);
      org.fonts.set(id, { id, fontFamily: f.fontFamily, faces: new Map(f.fontFaces.map((x) => [x.weight, x.storageKey])) });
    });
  },
  routes(router) {
    router.add('GET', '/v1/orgs/:org/fonts', (req) => {
      const org = orgOf(req);
      return listReply(req.query, [...org.fonts.values()], fontView);
    });

    router.add('PUT', '/v1/orgs/:org/fonts', (req) => {
      const org = orgOf(req);
      const body = parse(CreateFont, req);
      const faces = new Map(body.fontFaces.map((x) => [x.weight, x.storageKey]));
      checkRegular(faces);
      const f: FontRec = { id: req.world.newId('font'), fontFamily: body.fontFamily, faces };
      org.fonts.set(f.id, f);
      return created(fontView(f), location(req, `/orgs/${org.id}/fonts/${f.id}`));
    });

    router.add('GET', '/v1/orgs/:org/fonts/:font', (req) => ok(fontView(fontOf(req, orgOf(req)))));

    router.add('POST', '/v1/orgs/:org/fonts/:font', (req) => {
      const org = orgOf(req);
      const f = fontOf(req, org);
      const body = parse(UpdateFont, req);
      const faces = new Map(f.faces);
      for (const x of body.fontFaces ?? []) {
        if (x.storageKey === null) faces.delete(x.weight);
        else faces.set(x.weight, x.storageKey);
      }
      checkRegular(faces);
      if (body.fontFamily !== undefined) f.fontFamily = body.fontFamily;
      f.faces = faces;
      // updateCustomFont answers 201 in the live description.
      return created(fontView(f));
    });

    router.add('DELETE', '/v1/orgs/:org/fonts/:font', (req) => {
      const org = orgOf(req);
      return deleted(org.fonts.delete(req.params.font));
    });
  },
});
