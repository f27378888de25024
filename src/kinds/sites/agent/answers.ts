/** What docplane relies on in the API's answers about the site agent (checked by the client as they arrive). */
import { z } from 'zod';

/** A channel of a site's agent (`GET SITE/channels`, SiteChannel). */
export const ChannelAnswer = z.looseObject({
  id: z.string(),
  type: z.string(),
  role: z.string().nullish(),
  setupSettings: z.looseObject({}).nullish(),
});

/** A context connection of a site's agent (`GET SITE/context-connections`, ContextConnection). */
export const ContextConnectionAnswer = z.looseObject({
  id: z.string(),
  connector: z.string(),
  label: z.string().nullish(),
  setupSettings: z.looseObject({}).nullish(),
  usageSettings: z.looseObject({}).nullish(),
  filter: z.string().nullish(),
});

/** A topic of a site's agent (`GET SITE/topics`, SiteTopic). */
export const TopicAnswer = z.looseObject({
  id: z.string(),
  label: z.string(),
  usageSettings: z.looseObject({ changeRequests: z.boolean().nullish() }).nullish(),
});

/** The topics of a site: one answer, every topic (listSiteTopics takes no paging). */
export const TopicsAnswer = z.looseObject({ items: z.array(TopicAnswer) });
