import { loadSqlite } from "../snapshot/sqlite.js";

/** What changed in the catalogue between two snapshots, for the summary after a pull. */
export interface CatalogueChanges {
  /** Documents in effect now that were not before (new, or back in effect). */
  added: number;
  /** Documents in effect before and now whose versions, text, dates or code links changed. */
  revised: number;
  /** Documents in effect before that are gone or ended. */
  retired: number;
  /** Code links (document, code, relationship) now listed that were not. */
  linksGained: number;
  /** Code links listed before that are not any more. */
  linksLost: number;
}

// A document is a series (`cms-lcd/L33718`): the versions of one LCD, article or NCD.
const LIVE = (db: string) => `
  SELECT series, MAX(effective_to_date IS NULL OR effective_to_date > ?) AS live
  FROM ${db}.version GROUP BY series`;
const VERSIONS = (db: string) => `
  SELECT series, policy_id, title, effective_from_date, effective_to_date, summary, criteria_text
  FROM ${db}.version`;
const LINKS = (db: string) => `
  SELECT v.series, l.key, l.relationship
  FROM ${db}.code_link l JOIN ${db}.version v ON v.seq = l.version`;

/**
 * Compares the snapshot `before` with `after` (both snapshot files), in SQL over their tables:
 * "in effect" is on `today` (the new catalogue's as-of date).
 */
export async function compareSnapshots(
  before: string,
  after: string,
  today: string,
): Promise<CatalogueChanges> {
  const { DatabaseSync } = await loadSqlite();
  const db = new DatabaseSync(after, { readOnly: true });
  try {
    db.prepare("ATTACH DATABASE ? AS old").run(before);
    const count = (sql: string) => {
      const statement = db.prepare(`SELECT count(*) AS n FROM (${sql})`);
      // One `?` per place the day is compared (the LIVE subqueries).
      const row = statement.get(...Array<string>(sql.split("?").length - 1).fill(today));
      return Number((row as { n: number }).n);
    };
    const changed = `
      SELECT series FROM (${VERSIONS("main")} EXCEPT ${VERSIONS("old")})
      UNION SELECT series FROM (${VERSIONS("old")} EXCEPT ${VERSIONS("main")})
      UNION SELECT series FROM (${LINKS("main")} EXCEPT ${LINKS("old")})
      UNION SELECT series FROM (${LINKS("old")} EXCEPT ${LINKS("main")})`;
    return {
      added: count(`SELECT series FROM (${LIVE("main")}) WHERE live
        EXCEPT SELECT series FROM (${LIVE("old")}) WHERE live`),
      retired: count(`SELECT series FROM (${LIVE("old")}) WHERE live
        EXCEPT SELECT series FROM (${LIVE("main")}) WHERE live`),
      revised: count(`SELECT series FROM (${LIVE("main")}) WHERE live
        INTERSECT SELECT series FROM (${LIVE("old")}) WHERE live
        INTERSECT SELECT series FROM (${changed})`),
      linksGained: count(`${LINKS("main")} EXCEPT ${LINKS("old")}`),
      linksLost: count(`${LINKS("old")} EXCEPT ${LINKS("main")}`),
    };
  } finally {
    db.close();
  }
}
