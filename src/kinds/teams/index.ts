/** Teams (`teams:` in the config): teams by title, and their members when listed. */
import { key } from '../../model/address.js';
import { child, where, type Item, type Origin } from '../../source/origin.js';
import { sortBy, unique, type Draft } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import { lowerIfEmail } from '../shared/members.js';
import { prunedList } from '../shared/access.js';
import { userProblem } from '../common/text.js';
import { memberLabel, type RemoteMember } from '../shared/members.js';
import { Team, type TeamT } from './schema.js';
import { readTeamsAndLists, teamMembersModule, type RemoteTeamMember } from './team-members.js';
import { teamsModule } from './teams.js';
import { writtenTeams, type RemoteTeam } from '../shared/teams.js';

interface TeamsState {
  teams: RemoteTeam[];
  members: RemoteMember[];
  lists: Record<string, RemoteTeamMember[]>;
}

const importTeams: Importer<TeamsState> = {
  async read(ctx) {
    return readTeamsAndLists(ctx, (teams) => teams);
  },
  write(state, sink) {
    const teams = writtenTeams(state.teams, (m) => sink.warn(m));
    const memberById = new Map(state.members.map((m) => [m.id, m]));
    const labelOf = (m: Pick<RemoteMember, 'id' | 'user'>): string => memberLabel(memberById.get(m.id) ?? m);
    sink.count(teamsModule.label, teams.length);
    return teams.map((t): Draft => {
      const list = unique(
        sortBy(state.lists[t.id] ?? [], (tm) => labelOf(tm.organization), (tm) => tm.organization.id),
        (tm) => tm.organization.id,
        () => undefined,
      );
      return {
        id: t.id,
        title: t.title,
        members: list.map((tm): Draft => (tm.team?.role === 'owner' ? { user: labelOf(tm.organization), role: 'owner' } : labelOf(tm.organization))),
      };
    });
  },
};

export const teamsUnit: KindUnit = {
  configKey: 'teams',
  audit: {
    targets: { team: { by: 'entry', field: 'title' } },
    paths: { teams: 'team' },
  },
  list: true,
  schema: Team,
  compiled: true,
  kinds: [teamsModule, teamMembersModule],
  addressNames: { top: ['teams'], inner: ['members'] },
  flowMaps: ['teams.*.members.*'],
  references: [{ field: 'members', target: 'members' }],
  resolve(entries, ctx) {
    const items = entries as readonly Item<TeamT>[];
    const titles = new Set(items.map((t) => t.value.title));
    const ids = ctx.identities('teams', 'title');
    for (const { value, origin } of items) {
      const address = `teams${key(value.title)}`;
      if (!ctx.claim(`team:${value.title}`, address, origin, address)) continue;
      ids.add(value.title, value, origin, titles);
      if (!value.members) continue;
      ctx.locate(`${address}.members`, child(origin, 'members'), 'key');
      const users = new Map<string, Origin>();
      value.members.forEach((m, i) => {
        const user = typeof m === 'string' ? m : m.user;
        const at = child(origin, 'members', i);
        const userAt = typeof m === 'string' ? at : child(at, 'user');
        const problem = userProblem(user);
        if (problem !== undefined) {
          ctx.problems.at(userAt, problem);
          return;
        }
        const earlier = users.get(lowerIfEmail(user));
        if (earlier) ctx.problems.at(at, `${user} is listed twice in team "${value.title}" (also at ${where(earlier)})`);
        else users.set(lowerIfEmail(user), at);
        ctx.reference({ kind: 'members', key: user, from: `${address}.members`, field: 'members', origin: userAt, ...prunedList(ctx, 'members', 'members', 'member') });
      });
    }
  },
  importer: importTeams,
};
