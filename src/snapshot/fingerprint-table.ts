import type { DatabaseSync } from "node:sqlite";

/**
 * What a pull compares a version by, kept beside it (`version_fingerprint`): a hash of its
 * plain words (title, summary, criteria, text file) and one of its code links. The next pull
 * compares the export's documents with these instead of reading every earlier version's rows,
 * code links and text file again. Additive: a snapshot without the table (written by `data
 * import mcd` or before it existed), or with fingerprints made by other rules
 * (`meta.fingerprint_version`), is compared from its rows.
 */
export interface Fingerprint {
  text: string;
  codes: string;
}

/** The rules the hashes were made by (history.ts fingerprintOf): another version is not compared. */
export const FINGERPRINT_VERSION = 1;

const TABLE = `CREATE TABLE IF NOT EXISTS version_fingerprint (
  policy_id TEXT PRIMARY KEY,
  text TEXT NOT NULL,
  codes TEXT NOT NULL
) WITHOUT ROWID`;

/** Whether a snapshot keeps fingerprints made by these rules. */
export function hasFingerprints(db: DatabaseSync): boolean {
  const table = db
    .prepare(
      "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'version_fingerprint'",
    )
    .get();
  const version = db.prepare("SELECT value FROM meta WHERE key = 'fingerprint_version'").get();
  return Boolean(table) && Number(version?.value) === FINGERPRINT_VERSION;
}

/** Writes the fingerprints of a snapshot's versions, by policy id, into the snapshot being written. */
export function writeFingerprints(
  db: DatabaseSync,
  prints: ReadonlyMap<string, Fingerprint>,
): void {
  db.exec(TABLE);
  db.prepare("INSERT OR REPLACE INTO meta VALUES ('fingerprint_version', ?)").run(
    FINGERPRINT_VERSION,
  );
  const put = db.prepare("INSERT OR REPLACE INTO version_fingerprint VALUES (?, ?, ?)");
  for (const [id, f] of prints) put.run(id, f.text, f.codes);
}
