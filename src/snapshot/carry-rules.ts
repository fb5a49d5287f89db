import type { DatabaseSync } from "node:sqlite";
import { MEDICARE_TABLES } from "./medicare-schema.js";

/** The tables `data import edits|fees|pa` writes, by name (from their schema). */
const RULE_TABLES = [...MEDICARE_TABLES.matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)].map(
  (m) => m[1] as string,
);

/**
 * Copies the Medicare rule tables (edits, fees, prior-authorization lists, their releases and
 * texts, with their indexes as the previous snapshot defines them) from `previous` into `db`,
 * in SQLite itself: millions of PTP rows never cross into JavaScript. `db` must be outside a
 * transaction (SQLite refuses ATTACH inside one); the copy is one transaction of its own.
 * Returns the rows copied, or null when the previous snapshot had none of these tables.
 */
export function carryRuleTables(db: DatabaseSync, previous: string): number | null {
  db.prepare("ATTACH DATABASE ? AS carry_from").run(previous);
  try {
    const tables = db
      .prepare(
        "SELECT name, sql FROM carry_from.sqlite_master WHERE type = 'table' AND sql IS NOT NULL",
      )
      .all()
      .filter((t) => RULE_TABLES.includes(t.name as string));
    if (tables.length === 0) return null;
    const names = tables.map((t) => t.name as string);
    const indexes = db
      .prepare(
        `SELECT sql FROM carry_from.sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${names.map(() => "?").join(", ")})`,
      )
      .all(...names);
    let rows = 0;
    db.exec("BEGIN");
    try {
      for (const t of tables) {
        // The previous snapshot's own definition: its columns, whatever release wrote them.
        const exists = db
          .prepare("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?")
          .get(t.name as string);
        if (!exists) db.exec(t.sql as string);
        const quoted = `"${(t.name as string).replaceAll('"', '""')}"`;
        rows += Number(
          db.prepare(`INSERT INTO main.${quoted} SELECT * FROM carry_from.${quoted}`).run().changes,
        );
      }
      // Made after the rows are in (cheaper than updating them row by row).
      for (const i of indexes) db.exec(i.sql as string);
      db.exec("COMMIT");
    } catch (err) {
      db.exec("ROLLBACK");
      throw err;
    }
    return rows;
  } finally {
    db.exec("DETACH DATABASE carry_from");
  }
}
