/**
 * The topics of a site's agent (`listSiteTopics`, `getSiteTopicById`, `updateSiteTopicById`): the
 * service makes them from the site's content and questions, so the emulator only has those the state
 * file seeds. The list answers every topic at once (the operation takes no paging); an update takes
 * the usage settings only.
 */
import { z } from 'zod';
import { bodyObject, notFound, ok, validate, type RouteRequest, type Router } from '../../http.js';
import type { SeedContext } from '../../kind.js';
import { nowIso, viewCtx } from '../../routing.js';
import { emptyDocument } from '../../schemas.js';
import { apiUrl } from '../../views.js';
import type { SiteRec } from '../sites/records.js';
import { siteOf } from '../sites/routes.js';

export interface TopicRec {
  id: string;
  label: string;
  parent?: string;
  icon: string;
  changeRequests: boolean;
  createdAt: string;
  updatedAt: string;
}

declare module '../sites/records.js' {
  interface SiteRec {
    /** Seeded only: the service makes topics. */
    topics?: Map<string, TopicRec>;
  }
}

const Update = z.looseObject({ usageSettings: z.looseObject({ changeRequests: z.boolean() }) });

function topicsOf(site: SiteRec): Map<string, TopicRec> {
  site.topics ??= new Map();
  return site.topics;
}

/** No questions asked yet: every count zero, 13 weeks of nothing. */
function noQuestions(): Record<string, unknown> {
  return {
    total: 0,
    answers: 0,
    feedback: { positive: 0, negative: 0, unrated: 0 },
    answered: { yes: 0, partially: 0, no: 0 },
    relevance: { relevant: 0, spam: 0, 'off-topic': 0, unclear: 0 },
    types: { exploring: 0, 'how-to': 0, troubleshooting: 0, reference: 0, unknown: 0 },
    channelTypes: {},
    channels: {},
    weeklyPulse: Array.from({ length: 13 }, () => 0),
  };
}

function topicView(req: RouteRequest, site: SiteRec, t: TopicRec): Record<string, unknown> {
  const parent = t.parent ? topicsOf(site).get(t.parent) : undefined;
  return {
    object: 'context-topic',
    id: t.id,
    label: t.label,
    ...(parent ? { parent: { id: parent.id, label: parent.label } } : {}),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    icon: t.icon,
    summary: emptyDocument(),
    usageSettings: { changeRequests: t.changeRequests },
    pages: 0,
    records: 0,
    findings: { open: 0, total: 0 },
    questions: noQuestions(),
    urls: { location: apiUrl(viewCtx(req), `/orgs/${site.org}/sites/${site.id}/topics/${t.id}`) },
  };
}

function topicOf(req: RouteRequest, site: SiteRec): TopicRec {
  const t = topicsOf(site).get(req.params.topic);
  if (!t) throw notFound(`no topic ${req.params.topic} in site ${site.id}`);
  return t;
}

export function topicRoutes(router: Router): void {
  const SITE = '/v1/orgs/:org/sites/:site';

  router.add('GET', `${SITE}/topics`, (req) => {
    const { site } = siteOf(req);
    return ok({ items: [...topicsOf(site).values()].map((t) => topicView(req, site, t)) });
  });

  router.add('GET', `${SITE}/topics/:topic`, (req) => {
    const { site } = siteOf(req);
    return ok(topicView(req, site, topicOf(req, site)));
  });

  router.add('PATCH', `${SITE}/topics/:topic`, (req) => {
    const { site } = siteOf(req);
    const t = topicOf(req, site);
    const body = validate(Update, bodyObject(req));
    t.changeRequests = body.usageSettings.changeRequests;
    t.updatedAt = nowIso(req);
    return ok(topicView(req, site, t));
  });
}

/** A topic of the state file, as the service would have made it; `parent` by id. */
export const TopicSeed = z.strictObject({
  id: z.string().min(1).optional(),
  label: z.string().min(1),
  parent: z.string().min(1).optional(),
  icon: z.string().max(50).default('tag'),
  changeRequests: z.boolean().default(true),
});

export function seedTopics(ctx: SeedContext, site: SiteRec, seeds: ReadonlyArray<z.output<typeof TopicSeed>>): void {
  for (const s of seeds) {
    const id = s.id ?? ctx.world.newId('topic');
    const stamp = ctx.stamp();
    topicsOf(site).set(id, { id, label: s.label, ...(s.parent ? { parent: s.parent } : {}), icon: s.icon, changeRequests: s.changeRequests, createdAt: stamp, updatedAt: stamp });
  }
}
