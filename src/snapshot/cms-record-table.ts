import type { DatabaseSync } from "node:sqlite";

/** What CMS records of one version of a document: its revision's date, reasons and words. */
export interface RevisionNote {
  /** The document (`cms-lcd/L33718`). */
  series: string;
  /** CMS's version number (`lcd_version`, `article_version`). */
  cms_version: string;
  /** The date of the version's revision (its `*_x_revision_history` row). */
  revision_date: string | null;
  /** CMS's reasons for the change (`lcd_x_reason_change` through `reason_change_lookup`). */
  reason: string | null;
  /** The revision history's explanation, as plain text. */
  explanation: string | null;
}

const TABLES = `
CREATE TABLE IF NOT EXISTS cms_revision (
  series TEXT NOT NULL,
  cms_version TEXT NOT NULL,
  revision_date TEXT,
  reason TEXT,
  explanation TEXT,
  PRIMARY KEY (series, cms_version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS cms_future_retire (series TEXT PRIMARY KEY, retire_on TEXT NOT NULL) WITHOUT ROWID;
`;

const exists = (db: DatabaseSync, name: string) =>
  Boolean(
    db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?").get(name),
  );

/** Every revision note a snapshot holds. */
export function readRevisionNotes(db: DatabaseSync): RevisionNote[] {
  if (!exists(db, "cms_revision")) return [];
  return db.prepare("SELECT * FROM cms_revision").all() as unknown as RevisionNote[];
}

/** The notes of these versions (series and CMS version number), in their order (one prepared statement). */
export function findRevisionNotes(
  db: DatabaseSync,
  versions: ReadonlyArray<{ series: string; cms_version: string | null }>,
): Array<RevisionNote | undefined> {
  if (!versions.some((v) => v.cms_version !== null) || !exists(db, "cms_revision"))
    return versions.map(() => undefined);
  const get = db.prepare("SELECT * FROM cms_revision WHERE series = ? AND cms_version = ?");
  return versions.map((v) =>
    v.cms_version === null
      ? undefined
      : (get.get(v.series, v.cms_version) as RevisionNote | undefined),
  );
}

/** The day CMS says this document will retire (its future-retire tables), if it says one. */
export function findFutureRetire(db: DatabaseSync, series: string): string | undefined {
  if (!exists(db, "cms_future_retire")) return undefined;
  return db.prepare("SELECT retire_on FROM cms_future_retire WHERE series = ?").get(series)
    ?.retire_on as string | undefined;
}

/** A retirement CMS has announced, with the document's number and title where the snapshot has it. */
export interface FutureRetirement {
  id: string;
  retire_on: string;
  policy_number: string | null;
  title: string | null;
}

/** The retirements CMS has announced (its future-retire tables), by day then document. */
export function listFutureRetirements(db: DatabaseSync): FutureRetirement[] {
  if (!exists(db, "cms_future_retire")) return [];
  return db
    .prepare(
      `SELECT r.series AS id, r.retire_on,
         (SELECT policy_number FROM version v WHERE v.series = r.series ORDER BY effective_from_date DESC LIMIT 1) AS policy_number,
         (SELECT title FROM version v WHERE v.series = r.series ORDER BY effective_from_date DESC LIMIT 1) AS title
       FROM cms_future_retire r ORDER BY r.retire_on, r.series`,
    )
    .all() as unknown as FutureRetirement[];
}

/** The documents CMS says will retire, and when. */
export function readFutureRetire(db: DatabaseSync): Array<{ series: string; retire_on: string }> {
  if (!exists(db, "cms_future_retire")) return [];
  return db.prepare("SELECT series, retire_on FROM cms_future_retire").all() as Array<{
    series: string;
    retire_on: string;
  }>;
}

/**
 * Writes the notes into a snapshot being written: the earlier pulls' first, then this pull's
 * (which replace a note of the same version). Future retirements are this pull's only.
 */
export function writeCmsRecords(
  db: DatabaseSync,
  notes: Iterable<RevisionNote>,
  futureRetire: Iterable<{ series: string; retire_on: string }>,
): void {
  db.exec(TABLES);
  const put = db.prepare("INSERT OR REPLACE INTO cms_revision VALUES (?, ?, ?, ?, ?)");
  for (const n of notes) put.run(n.series, n.cms_version, n.revision_date, n.reason, n.explanation);
  const retire = db.prepare("INSERT OR REPLACE INTO cms_future_retire VALUES (?, ?)");
  for (const r of futureRetire) retire.run(r.series, r.retire_on);
}
