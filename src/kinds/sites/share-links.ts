/** The share links of a site. */
import { ref } from '../../model/address.js';
import type { JsonObject, RequestSpec } from '../../model/step.js';
import { collisionMessage, compact, keyCollisions, matchResources } from '../common/match.js';
import { unmatchedAddresses } from '../common/skeleton.js';
import { shareLinkAddress } from './addresses.js';
import { siteKey, type ShareLinkT } from './schema.js';
import { differing, enc, normalLink, type SiteContext } from './steps.js';
import { step } from '../common/step.js';
import { lookAlikeNotes } from '../common/text.js';

/** Share links: by name, created active (an inactive one is switched off right after). */
export function planShareLinks(ctx: SiteContext): void {
  const { org, site, remote, base, prunes, out, push } = ctx;
  const lm = matchResources(site.shareLinks ?? [], remote.shareLinks, {
    desiredKey: (l: ShareLinkT) => l.name,
    remoteKey: (r) => r.name ?? r.id,
    remoteId: (r) => r.id,
    desiredId: (l) => l.id,
    renamedFrom: (l) => l.renamedFrom });
  if (!prunes('shareLinks')) {
    for (const { desired: l } of keyCollisions(lm, { desiredKey: (x: ShareLinkT) => x.name, remoteKey: (x) => x.name ?? x.id })) {
      out.shareLinks.problems.push({ org, address: shareLinkAddress(siteKey(site), l.name), message: collisionMessage('share links', l.name, 'shareLinks') });
    }
  }
  for (const { desired: l, remote: r } of lm.pairs) {
    const address = shareLinkAddress(siteKey(site), l.name);
    if (!r) {
      const requests: RequestSpec[] = [
        { method: 'POST', path: `${base}/share-links`, body: { name: l.name }, capture: true, lookup: { path: `${base}/share-links`, match: { name: l.name } } },
      ];
      // A link is created active; an inactive one is switched off right after.
      if (l.active === false) requests.push({ method: 'PATCH', path: `${base}/share-links/${ref(org, address)}`, body: { active: false } });
      const after = compact({ name: l.name, active: l.active }) as JsonObject;
      const names = remote.shareLinks.flatMap((x) => (x.name ? [x.name] : []));
      push(step({ address, kind: 'shareLinks', action: 'create', before: null, after, requests, ...lookAlikeNotes('share link', l.name, names) }), null);
      continue;
    }
    const { before, after } = differing({ name: r.name, active: r.active }, compact({ name: l.name, active: l.active }) as JsonObject);
    if (Object.keys(after).length === 0) continue;
    push(
      step({
        address,
        kind: 'shareLinks',
        action: 'update',
        before,
        after,
        requests: [{ method: 'PATCH', path: `${base}/share-links/${enc(r.id)}`, body: after }],
        remoteId: r.id }),
      normalLink(r),
    );
  }
  const deletes = site.shareLinks !== undefined && prunes('shareLinks') ? lm.unmatched : [];
  const managed = new Map(lm.pairs.flatMap((p) => (p.remote && p.remote.name === p.desired.name ? [[p.desired.name, p.remote.id] as const] : [])));
  const addressFor = unmatchedAddresses(out.shareLinks, { kind: 'shareLinks', address: (k) => shareLinkAddress(siteKey(site), k), managed, prune: deletes.length > 0 });
  if (deletes.length === 0) out.shareLinks.unmanaged.push(...lm.unmatched.map((r) => addressFor(r.name ?? r.id, r.id)));
  for (const r of deletes) {
    const before = { name: r.name, active: r.active };
    push(
      step({
        address: addressFor(r.name ?? r.id, r.id),
        kind: 'shareLinks',
        action: 'delete',
        before,
        after: null,
        requests: [{ method: 'DELETE', path: `${base}/share-links/${enc(r.id)}` }],
        remoteId: r.id }),
      normalLink(r),
    );
  }
}
