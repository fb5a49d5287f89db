import type { Transport } from "../backend/transport.js";
import { findFutureRetire, findRevisionNotes } from "../snapshot/cms-record-table.js";
import { cmsVersionOf, seriesOf } from "./series.js";

/** What `versions` and `diff` show of CMS's own record of a version. */
export interface CmsRevision {
  /** CMS's version number. */
  version: string;
  revision_date: string | null;
  reason: string | null;
  explanation: string | null;
}

/**
 * CMS's revision records of these versions, by policy id, where the data is a snapshot that a
 * pull wrote with them (cli.md "The catalogue keeps its history"), read through the engine's
 * own connection; none from the API or a JSON dataset, which do not carry them.
 */
export function findCmsRevisions(
  transport: Transport,
  versions: ReadonlyArray<{ policy_id: string; file_url: string }>,
): Map<string, CmsRevision> {
  const out = new Map<string, CmsRevision>();
  if (!transport.snapshot) return out;
  const notes = findRevisionNotes(
    transport.snapshot,
    versions.map((v) => ({ series: seriesOf(v.policy_id), cms_version: cmsVersionOf(v.file_url) })),
  );
  versions.forEach((v, i) => {
    const note = notes[i];
    if (note)
      out.set(v.policy_id, {
        version: note.cms_version,
        revision_date: note.revision_date,
        reason: note.reason,
        explanation: note.explanation,
      });
  });
  return out;
}

/**
 * `updates --changes` on a pulled snapshot: each item with CMS's reason for its version
 * (`cms_reason`), where CMS gave one; items of other data are returned as they are.
 */
export function addCmsReasons<T extends { policy_id: string; file_url: string }>(
  transport: Transport,
  items: T[],
): Array<T & { cms_reason?: string }> {
  const found = findCmsRevisions(transport, items);
  if (!found.size) return items;
  return items.map((u) => {
    const note = found.get(u.policy_id);
    const reason = note?.reason ?? note?.explanation;
    return reason ? { ...u, cms_reason: reason } : u;
  });
}

/**
 * The day CMS says a document (`cms-lcd/L33718`) will retire, from a pulled snapshot's copy of
 * `lcd_future_retire` / `article_future_retire`; null elsewhere or when CMS says none.
 */
export function findCmsRetirement(transport: Transport, series: string): string | null {
  return transport.snapshot ? (findFutureRetire(transport.snapshot, series) ?? null) : null;
}
