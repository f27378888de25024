/**
 * The topics of a site's agent (`sites["ID"].topics["Billing"]`): the service makes them as it reads
 * the content and questions, so a config cannot create or delete one; it names a topic by its label
 * (or pins it by `id`) and manages its usage settings — whether the agent proposes change requests from
 * it — with updateSiteTopicById. Listed with listSiteTopics, which answers every topic at once (the
 * operation takes no paging). A label the site lacks is a plan problem, with the closest label.
 */
import { BugError } from '../../../core/errors.js';
import { didYouMean } from '../../../core/text.js';
import { key } from '../../../model/address.js';
import type { JsonObject, PlanProblem } from '../../../model/step.js';
import { analyse, mergeKindPlan } from '../../common/analyse.js';
import { step } from '../../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec, type PlanContext, type ReadContext } from '../../kind.js';
import { siteAddress } from '../addresses.js';
import { sitePath } from '../remote.js';
import { siteKey, type SiteT } from '../schema.js';
import { matchSites, readSiteInfos, type RemoteSiteInfo } from '../../shared/sites.js';
import { TopicsAnswer } from './answers.js';
import type { TopicT } from './schema.js';

export interface RemoteTopic {
  id: string;
  label: string;
  changeRequests: boolean | null;
}

export interface TopicSite {
  site: SiteT;
  info?: RemoteSiteInfo;
  topics: RemoteTopic[];
}

export const topicAddress = (site: string, label: string): string => `${siteAddress(site)}.topics${key(label)}`;

/** listSiteTopics: one answer with every topic. */
export async function listTopics(ctx: Pick<ReadContext, 'org' | 'client'>, site: string): Promise<RemoteTopic[]> {
  const res = await ctx.client.request('GET', `${sitePath(ctx.org, site)}/topics`, { schema: TopicsAnswer });
  const items = (res.body as { items: Array<{ id: string; label: string; usageSettings?: { changeRequests?: boolean | null } | null }> }).items;
  return items.map((t) => ({ id: t.id, label: t.label, changeRequests: typeof t.usageSettings?.changeRequests === 'boolean' ? t.usageSettings.changeRequests : null }));
}

async function readTopics(ctx: ReadContext): Promise<TopicSite[] | undefined> {
  const desired = (ctx.desired.sites ?? []).filter((s) => s.topics !== undefined);
  if (desired.length === 0) return undefined;
  const list = await readSiteInfos(ctx);
  return Promise.all(
    matchSites(desired, list).pairs.map(async (p): Promise<TopicSite> =>
      p.remote ? { site: p.desired, info: p.remote, topics: await listTopics(ctx, p.remote.id) } : { site: p.desired, topics: [] },
    ),
  );
}

const normalTopic = (r: RemoteTopic): JsonObject => ({ id: r.id, label: r.label, usageSettings: { changeRequests: r.changeRequests } });

function planSite(ctx: PlanContext, o: TopicSite, kp: KindPlan): void {
  const name = siteKey(o.site);
  const desired = o.site.topics ?? [];
  if (!o.info) {
    if (desired.length > 0) (kp.notes ??= []).push(`${siteAddress(name)}.topics: the site is created by this plan and has no topics yet (the service makes them from its content): a later plan sets their usage settings`);
    return;
  }
  const base = `${sitePath(ctx.org, o.info.id)}/topics`;
  const siteId = o.info.id;
  const problem = (address: string, message: string): { problems: PlanProblem[] } => {
    const location = ctx.desired.locations[address];
    return { problems: [{ org: ctx.org, address, message, ...(location ? { location } : {}) }] };
  };
  const analysis = analyse<TopicT, RemoteTopic>(ctx.org, desired, o.topics, {
    kind: 'topics',
    what: 'agent topics',
    address: (label) => topicAddress(name, label),
    desiredKey: (d) => d.label,
    remoteKey: (r) => r.label,
    remoteId: (r) => r.id,
    desiredId: (d) => d.id,
    // The service makes and removes topics: a config never deletes one.
    prune: false,
    fingerprint: normalTopic,
    // A topic pinned by id is told apart from others of its label by that id.
    twinsOf: 'key',
    create(d, address) {
      const what = d.id !== undefined ? `no topic ${d.id}` : `no topic labelled "${d.label}"`;
      return problem(address, `site ${siteId} has ${what} (topics are made by the service, not by a config)${didYouMean(d.label, o.topics.map((t) => t.label))}`);
    },
    update(d, r, address) {
      // Two topics with one label: the config's label does not say which one it means.
      const twins = o.topics.filter((t) => t.label === d.label && t !== r);
      if (d.id === undefined && twins.length > 0) return problem(address, `site ${siteId} has ${twins.length + 1} topics labelled "${d.label}" (${[r, ...twins].map((t) => t.id).join(', ')}): pin one with id`);
      const want = d.usageSettings?.changeRequests;
      if (want === undefined || want === r.changeRequests) return [];
      return [step({
        address,
        kind: 'topics',
        action: 'update',
        before: { usageSettings: { changeRequests: r.changeRequests } },
        after: { usageSettings: { changeRequests: want } },
        requests: [{ method: 'PATCH', path: `${base}/${encodeURIComponent(r.id)}`, body: { usageSettings: { changeRequests: want } } }],
        remoteId: r.id,
      })];
    },
    remove: () => {
      throw new BugError('a topic was planned for a delete, but topics are never pruned');
    },
    // A topic the config does not name is listed by its label, with its id where two share it.
    unmatchedKey: (r) => (o.topics.filter((t) => t.label === r.label).length > 1 ? `${r.label}#${r.id}` : r.label),
  });
  mergeKindPlan(kp, analysis.plan);
}

export const topicsModule: KindSpec<TopicSite[] | undefined> = {
  kind: 'topics',
  label: { one: 'agent topic', many: 'agent topics' },
  count: (org) => (org.sites ?? []).reduce((n, s) => n + (s.topics?.length ?? 0), 0),
  read: readTopics,
  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    if (!remote) return kp;
    for (const o of remote) {
      if (!o.info && o.site.id !== undefined) continue;
      planSite(ctx, o, kp);
    }
    return kp;
  },
};
