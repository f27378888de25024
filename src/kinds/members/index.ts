/** Members (`members:` in the config): the roles of existing members, by email or user id. */
import { key } from '../../model/address.js';
import { sortBy, unique, type Draft } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import { membersModule } from './members.js';
import { lowerIfEmail, memberLabel, readMembers, type RemoteMember } from '../shared/members.js';
import { Member, type MemberT } from './schema.js';
import { child, type Item } from '../../source/origin.js';
import { userProblem } from '../common/text.js';

const importMembers: Importer<RemoteMember[]> = {
  read: readMembers,
  write(members, sink) {
    const written = unique(
      sortBy(members, memberLabel, (m) => m.id),
      memberLabel,
      (m, kept) => sink.warn(`members: ${m.id} and ${kept.id} share the email ${memberLabel(m)}; only ${kept.id} is written`),
    ).map((m): Draft => ({ user: memberLabel(m), role: m.role ?? null, ...(m.sso === true ? { sso: true } : {}) }));
    sink.count(membersModule.label, written.length);
    return written;
  },
};

export const membersUnit: KindUnit = {
  configKey: 'members',
  audit: {
    targets: { member: { by: 'unit' }, user: { by: 'unit' } },
    paths: { members: 'member' },
  },
  list: true,
  schema: Member,
  compiled: true,
  kinds: [membersModule],
  addressNames: { top: ['members'] },
  flowMaps: ['members.*'],
  resolve(entries, ctx) {
    for (const { value, origin } of entries as readonly Item<MemberT>[]) {
      const problem = userProblem(value.user);
      if (problem !== undefined) {
        ctx.problems.at(child(origin, 'user'), problem);
        continue;
      }
      ctx.claim(`member:${lowerIfEmail(value.user)}`, `members${key(value.user)}`, origin, `member ${value.user}`);
    }
  },
  importer: importMembers,
};
