/** API paths every kind builds on. */

/** `/v1/orgs/{org}` with the id encoded. */
export function orgPath(org: string): string {
  return `/v1/orgs/${encodeURIComponent(org)}`;
}

export const enc = encodeURIComponent;
