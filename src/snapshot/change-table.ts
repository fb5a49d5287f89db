import type { DatabaseSync } from "node:sqlite";

/** One document's change seen by a pull (cli.md `data pull medicare --json`, `data changes`). */
export interface DocumentChange {
  /** The export's date (its `as_of`) of the pull that saw the change. */
  as_of: string | null;
  /** The document: a policy id without its date (`cms-lcd/L33718`). */
  id: string;
  policy_number: string;
  title: string;
  /** `new`, `revised` (text or dates), `codes` (code links only), `retired`. */
  change: "new" | "revised" | "codes" | "retired";
  old_version: string | null;
  new_version: string | null;
  /** CMS's own version numbers (`lcd_version`, `article_version`, `NCD_vrsn_num`). */
  cms_old_version: string | null;
  cms_new_version: string | null;
  codes_gained: Array<{ code_system: string; code: string; relationship: string }>;
  codes_lost: Array<{ code_system: string; code: string; relationship: string }>;
  /** CMS's reason for the change, when its tables give one. */
  reason: string | null;
  /** Anything the pull had to decide (an id collision). */
  note: string | null;
}

/**
 * The history's own table, kept apart from the catalogue's (schema.ts): additive, so a
 * snapshot without it is simply one that no pull has compared yet. `history_version` in
 * `meta` names its layout.
 */
export const HISTORY_VERSION = 1;
const TABLE = `CREATE TABLE IF NOT EXISTS catalogue_change (
  seq INTEGER PRIMARY KEY,
  as_of TEXT,
  series TEXT NOT NULL,
  change TEXT NOT NULL,
  detail TEXT NOT NULL
)`;

/** Whether a snapshot has the history table. */
export function hasChanges(db: DatabaseSync): boolean {
  return Boolean(
    db
      .prepare(
        "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'catalogue_change'",
      )
      .get(),
  );
}

/** Every change a snapshot records, oldest first; `since` keeps those of exports on or after it. */
export function readChanges(db: DatabaseSync, since?: string): DocumentChange[] {
  if (!hasChanges(db)) return [];
  const rows = since
    ? db.prepare("SELECT detail FROM catalogue_change WHERE as_of >= ? ORDER BY seq").all(since)
    : db.prepare("SELECT detail FROM catalogue_change ORDER BY seq").all();
  return rows.map((r) => JSON.parse(r.detail as string) as DocumentChange);
}

/** Writes the changes (the earlier pulls' and this one's) into a snapshot being written. */
export function writeChanges(db: DatabaseSync, changes: readonly DocumentChange[]): void {
  db.exec(TABLE);
  db.exec("CREATE INDEX IF NOT EXISTS catalogue_change_as_of ON catalogue_change(as_of)");
  const insert = db.prepare("INSERT INTO catalogue_change VALUES (?, ?, ?, ?, ?)");
  changes.forEach((c, i) => insert.run(i, c.as_of, c.id, c.change, JSON.stringify(c)));
  db.prepare("INSERT OR REPLACE INTO meta VALUES ('history_version', ?)").run(HISTORY_VERSION);
}
