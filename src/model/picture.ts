/**
 * A picture of a site's structure as it is and as it will be: what a reviewer approves, drawn from
 * the remote structure and the desired one (not from the steps that get there). The sites unit makes
 * it (src/kinds/sites/picture.ts); the markdown rendering draws it (src/render/mermaid.ts).
 */

/**
 * What becomes of one item: `added` and `removed` as they say; `moved` when its parent changes (`from`
 * holds the old one); `reordered` when it keeps its parent but not its place among its siblings;
 * `changed` when its own fields change; `same` otherwise.
 */
export type PictureStatus = 'added' | 'removed' | 'moved' | 'reordered' | 'changed' | 'same';

export interface PictureItem {
  /** Unique within the picture: `s:ID`, `g:ID`, `l:ID`, `p:SECTION/SPACE` (a created item: its address). */
  key: string;
  type: 'section' | 'group' | 'link' | 'space';
  title: string;
  /** Shown beside the title when another item of the picture has the same title. */
  id?: string;
  status: PictureStatus;
  /** The item holding it as it will be (a removed item: as it is); null for the site's top level. */
  parent: string | null;
  /** The item that held it before a move (null: the top level). */
  from?: string | null;
}

export interface SitePicture {
  /** The site's id (its config key). */
  site: string;
  /** The site's address (`sites["site_docs"]`). */
  address: string;
  title: string;
  /** Whether the plan creates the site. */
  created: boolean;
  /** Every item as it will be, then the removed ones, each after its parent (depth-first). */
  items: PictureItem[];
}

/** A picture in a plan: of which organization's site. */
export interface PlanPicture extends SitePicture {
  org: string;
}
