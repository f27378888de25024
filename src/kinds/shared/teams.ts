/**
 * The organization's teams as every unit that names a team reads them (teams, access, identity providers): one list
 * read per plan, the config's teams matched to them, and how a team is named in requests.
 */
import { key, ref } from '../../model/address.js';
import type { OrgConfig } from '../../model/desired.js';
import type { Item } from '../../source/origin.js';
import type { Reader, ResolveContext } from '../kind.js';
import { sortBy, unique } from '../common/import.js';
import type { MatchResult } from '../common/match.js';
import { matchPairs } from '../common/analyse.js';
import { orgPath } from '../common/paths.js';
import { TeamAnswer } from './team-answers.js';

/** One `teams:` entry of the config. */
type TeamT = NonNullable<OrgConfig['teams']>[number];

export interface RemoteTeam {
  id: string;
  title: string;
  members?: number;
}

export function teamAddress(title: string): string {
  return `teams${key(title)}`;
}

/** Every team of the organization, read once per plan (and shared with every kind that names a team). */
export function readTeams(ctx: Reader): Promise<RemoteTeam[]> {
  return ctx.shared('teams', () => ctx.client.listAll<RemoteTeam>(`${orgPath(ctx.org)}/teams`, {}, { schema: TeamAnswer }));
}

/** Config teams matched to remote ones: by id, then renamedFrom, then title. */
export function matchTeams(desired: readonly TeamT[], remote: readonly RemoteTeam[]): MatchResult<TeamT, RemoteTeam> {
  const { pairs, unmatched } = matchPairs(desired, remote, { address: teamAddress, ...TEAM_KEYS });
  return { pairs, unmatched };
}

/** How a team is told apart: id, renamedFrom, title. */
export const TEAM_KEYS = {
  desiredKey: (d: TeamT) => d.title,
  remoteKey: (r: RemoteTeam) => r.title,
  remoteId: (r: RemoteTeam) => r.id,
  desiredId: (d: TeamT) => d.id,
  renamedFrom: (d: TeamT) => d.renamedFrom,
};

/**
 * The id of a team for a request, by title: a config team's remote id, or a ref to its create in this
 * plan; else the id of the organization's team of that title. The teams are matched once, for every
 * title asked.
 */
export function teamIdsOrRefs(org: string, desired: readonly TeamT[] | undefined, remote: readonly RemoteTeam[]): (title: string) => string | undefined {
  const inConfig = new Map<string, string>();
  for (const { desired: d, remote: r } of matchTeams(desired ?? [], remote).pairs) {
    if (!inConfig.has(d.title)) inConfig.set(d.title, r ? r.id : ref(org, teamAddress(d.title)));
  }
  const inOrganization = new Map<string, string>();
  for (const t of remote) if (!inOrganization.has(t.title)) inOrganization.set(t.title, t.id);
  return (title) => inConfig.get(title) ?? inOrganization.get(title);
}

/** The config's teams, for the units whose entries name a team by title. */
export function configTeams(ctx: ResolveContext): readonly Item<TeamT>[] | undefined {
  return ctx.entries('teams') as readonly Item<TeamT>[] | undefined;
}

/** The teams import writes: one per title (the first by id), sorted by title. */
export function writtenTeams(teams: readonly RemoteTeam[], warn?: (message: string) => void): RemoteTeam[] {
  return unique(
    sortBy(teams, (t) => t.title, (t) => t.id),
    (t) => t.title,
    (t, kept) =>
      warn?.(`${teamAddress(t.title)}: teams ${kept.id} and ${t.id} have the same title; the config names teams by title, so only ${kept.id} is written (rename one in the app and import again)`),
  );
}
