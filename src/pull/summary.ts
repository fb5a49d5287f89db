import type { CatalogueChanges } from "./changes.js";

const n = (value: number) => value.toLocaleString("en-US");

/** The line on stderr after a pull that replaced a snapshot: what changed in the catalogue. */
export function formatChanges(c: CatalogueChanges): string {
  if (!c.added && !c.revised && !c.retired && !c.linksGained && !c.linksLost)
    return "Changes since the last pull: none in the documents or their code links";
  return (
    `Changes since the last pull: ${n(c.added)} documents added, ${n(c.revised)} revised, ` +
    `${n(c.retired)} retired; code links: ${n(c.linksGained)} gained, ${n(c.linksLost)} lost`
  );
}

/** The snapshot `data pull medicare` writes in the data folder (medicare.ts re-exports it). */
export const MEDICARE_NAME = "medicare";
