/** The share links of a site. */
import { ref } from '../../model/address.js';
import type { JsonObject, RequestSpec } from '../../model/step.js';
import { analyse, mergeKindPlan } from '../common/analyse.js';
import { compact } from '../common/match.js';
import { shareLinkAddress } from './addresses.js';
import type { RemoteShareLink } from './remote.js';
import { siteKey, type ShareLinkT } from './schema.js';
import { differing, enc, normalLink, type SiteContext } from './steps.js';
import { step } from '../common/step.js';
import { lookAlikeNotes } from '../common/text.js';

/** Share links: by name, created active (an inactive one is switched off right after). */
export function planShareLinks(ctx: SiteContext): void {
  const { org, site, remote, base, prunes, out } = ctx;
  const kp = analyse<ShareLinkT, RemoteShareLink>(org, site.shareLinks ?? [], remote.shareLinks, {
    kind: 'shareLinks',
    what: 'share links',
    address: (k) => shareLinkAddress(siteKey(site), k),
    desiredKey: (l) => l.name,
    remoteKey: (r) => r.name ?? r.id,
    remoteId: (r) => r.id,
    desiredId: (l) => l.id,
    renamedFrom: (l) => l.renamedFrom,
    prune: site.shareLinks !== undefined && prunes('shareLinks'),
    fingerprint: normalLink,
    observe: (r) => compact({ name: r.name, active: r.active }) as JsonObject,
    create(l, address) {
      const requests: RequestSpec[] = [
        { method: 'POST', path: `${base}/share-links`, body: { name: l.name }, capture: true, lookup: { path: `${base}/share-links`, match: { name: l.name } } },
      ];
      // A link is created active; an inactive one is switched off right after.
      if (l.active === false) requests.push({ method: 'PATCH', path: `${base}/share-links/${ref(org, address)}`, body: { active: false } });
      const after = compact({ name: l.name, active: l.active }) as JsonObject;
      const names = remote.shareLinks.flatMap((x) => (x.name ? [x.name] : []));
      return [step({ address, kind: 'shareLinks', action: 'create', before: null, after, requests, ...lookAlikeNotes('share link', l.name, names) })];
    },
    update(l, r, address) {
      const { before, after } = differing({ name: r.name, active: r.active }, compact({ name: l.name, active: l.active }) as JsonObject);
      if (Object.keys(after).length === 0) return [];
      return [step({ address, kind: 'shareLinks', action: 'update', before, after, requests: [{ method: 'PATCH', path: `${base}/share-links/${enc(r.id)}`, body: after }], remoteId: r.id })];
    },
    remove: (r) => ({ before: { name: r.name, active: r.active }, requests: [{ method: 'DELETE', path: `${base}/share-links/${enc(r.id)}` }] }),
  }).plan;
  kp.remoteCount = 0;
  mergeKindPlan(out.shareLinks, kp);
}
