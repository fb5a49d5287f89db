import type { DocumentChange } from "../snapshot/change-table.js";

/** What changed in the catalogue between two pulls, for the summary after a pull. */
export interface CatalogueChanges {
  /** Documents new to the snapshot. */
  added: number;
  /** Documents with a new version (text, dates or code links). */
  revised: number;
  /** Documents gone from the export, or ended by CMS. */
  retired: number;
  /** Code links (document, code, relationship) a new version lists that its predecessor did not. */
  linksGained: number;
  /** Code links a predecessor listed that its new version does not. */
  linksLost: number;
}

/** Counts the pull's document changes (history.ts) for the stderr summary: one source for both. */
export function countChanges(changes: readonly DocumentChange[]): CatalogueChanges {
  const out: CatalogueChanges = { added: 0, revised: 0, retired: 0, linksGained: 0, linksLost: 0 };
  for (const c of changes) {
    if (c.change === "new") out.added++;
    else if (c.change === "retired") out.retired++;
    else out.revised++;
    out.linksGained += c.codes_gained.length;
    out.linksLost += c.codes_lost.length;
  }
  return out;
}
