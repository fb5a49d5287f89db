import path from "node:path";
import { existsSync } from "node:fs";
import { resolveDataDir } from "../dataset/data-dir.js";
import { addDays } from "../engine/time.js";
import { UsageError } from "../errors.js";
import { readChanges, type DocumentChange } from "../snapshot/change-table.js";
import { listFutureRetirements, type FutureRetirement } from "../snapshot/cms-record-table.js";
import { openSnapshotDatabase } from "../snapshot/store.js";
import { MEDICARE_NAME } from "./summary.js";

/** What `coverage data changes` prints: the snapshot's date and its changes since a day. */
export interface ChangesAnswer {
  as_of: string | null;
  since: string | null;
  changes: DocumentChange[];
  /** The retirements CMS has announced in the latest export (its future-retire tables). */
  future_retirements: FutureRetirement[];
}

/** The changes the pulls of `medicare.db` (the data folder's) recorded, on or after `since`. */
export async function readPulledChanges(
  env: NodeJS.ProcessEnv,
  since: string | undefined,
  days?: string,
): Promise<ChangesAnswer> {
  if (since !== undefined && days !== undefined)
    throw new UsageError(
      "--since and --days ask for two starts",
      "Keep one: --days N counts back from the snapshot's own date.",
    );
  const back = days === undefined ? undefined : Number(days);
  if (back !== undefined && !(Number.isInteger(back) && back >= 1 && back <= 3650))
    throw new UsageError(
      `--days ${days}: not a whole number of days from 1 to 3650`,
      "Example: --days 30.",
    );
  if (since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(since))
    throw new UsageError(
      `--since ${since}: not a date`,
      "Give a day as YYYY-MM-DD, e.g. --since 2026-08-01.",
    );
  const file = path.join(await resolveDataDir(env), `${MEDICARE_NAME}.db`);
  if (!existsSync(file))
    throw new UsageError(
      `no Medicare snapshot in your data folder (${file})`,
      "Pull it with `coverage data pull medicare`; the next pulls record what changed.",
    );
  const { db, meta } = await openSnapshotDatabase(file);
  try {
    const asOf = (meta.get("as_of") as string | null) ?? null;
    // Counted from the snapshot's own date (the export's), not the machine's.
    const from =
      back !== undefined ? addDays(asOf ?? new Date().toISOString().slice(0, 10), -back) : since;
    return {
      as_of: asOf,
      since: from ?? null,
      changes: readChanges(db, from),
      future_retirements: listFutureRetirements(db),
    };
  } finally {
    db.close();
  }
}
