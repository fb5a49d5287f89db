import type { BackendChoice } from "../cli/settings.js";
import { findRevisionNote, type RevisionNote } from "../snapshot/cms-record-table.js";
import { isSqliteFile, loadSqlite } from "../snapshot/sqlite.js";
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
 * pull wrote with them (cli.md "The catalogue keeps its history"); none from the API or a JSON
 * dataset, which do not carry them.
 */
export async function findCmsRevisions(
  backend: BackendChoice,
  versions: ReadonlyArray<{ policy_id: string; file_url: string }>,
): Promise<Map<string, CmsRevision>> {
  const out = new Map<string, CmsRevision>();
  if (backend.kind !== "local" || !backend.data || !isSqliteFile(backend.data)) return out;
  const { DatabaseSync } = await loadSqlite();
  const db = new DatabaseSync(backend.data, { readOnly: true });
  try {
    for (const v of versions) {
      const note: RevisionNote | undefined = findRevisionNote(
        db,
        seriesOf(v.policy_id),
        cmsVersionOf(v.file_url),
      );
      if (note)
        out.set(v.policy_id, {
          version: note.cms_version,
          revision_date: note.revision_date,
          reason: note.reason,
          explanation: note.explanation,
        });
    }
  } finally {
    db.close();
  }
  return out;
}

/**
 * `updates --changes` on a pulled snapshot: each item with CMS's reason for its version
 * (`cms_reason`), where CMS gave one; items of other data are returned as they are.
 */
export async function addCmsReasons<T extends { policy_id: string; file_url: string }>(
  backend: BackendChoice,
  items: T[],
): Promise<Array<T & { cms_reason?: string }>> {
  const found = await findCmsRevisions(backend, items);
  if (!found.size) return items;
  return items.map((u) => {
    const note = found.get(u.policy_id);
    const reason = note?.reason ?? note?.explanation;
    return reason ? { ...u, cms_reason: reason } : u;
  });
}
