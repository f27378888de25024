/**
 * The site agent: its channels (channels.ts), context connections (connections.ts) and topics
 * (topics.ts). Seeded per site (`siteAgent:` of an organization in the
 * state file, each entry naming an existing site), kept on the site's record.
 */
import { z } from 'zod';
import { SeedError, defineKind } from '../../kind.js';
import { channelRoutes, ChannelSeed, seedChannels } from './channels.js';
import { CREDENTIALS, connectionRoutes, ConnectionSeed, seedConnections } from './connections.js';
import { seedTopics, topicRoutes, TopicSeed } from './topics.js';

const SiteAgentSeed = z.strictObject({
  site: z.string().min(1),
  channels: z.array(ChannelSeed).default([]),
  contextConnections: z.array(ConnectionSeed).default([]),
  topics: z.array(TopicSeed).default([]),
});

export const siteAgentKind = defineKind({
  name: 'siteAgent',
  orgSeed: {
    /** Per site: its agent's channels, context connections and topics. */
    siteAgent: z.array(SiteAgentSeed).default([]),
  },
  seedOrg(ctx, org, seed, place) {
    seed.siteAgent.forEach((s, i) => {
      const site = org.sites.get(s.site);
      if (!site) throw new SeedError(`${place}.siteAgent[${i}].site`, `no site ${s.site} in ${org.id}`);
      seedChannels(ctx, site, s.channels);
      seedConnections(ctx, site, s.contextConnections);
      seedTopics(ctx, site, s.topics);
    });
  },
  routes(router) {
    channelRoutes(router);
    connectionRoutes(router);
    topicRoutes(router);
  },
  // The credentials of a context connection's setup.
  secretFields: CREDENTIALS.map((field) => ({ field, holds: 'value' as const })),
});
