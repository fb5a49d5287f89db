import path from "node:path";
import { existsSync } from "node:fs";
import { resolveDataDir } from "../dataset/data-dir.js";
import { UsageError } from "../errors.js";
import { readChanges, type DocumentChange } from "../snapshot/change-table.js";
import { openSnapshotDatabase } from "../snapshot/store.js";
import { MEDICARE_NAME } from "./summary.js";

/** What `coverage data changes` prints: the snapshot's date and its changes since a day. */
export interface ChangesAnswer {
  as_of: string | null;
  since: string | null;
  changes: DocumentChange[];
}

/** The changes the pulls of `medicare.db` (the data folder's) recorded, on or after `since`. */
export async function readPulledChanges(
  env: NodeJS.ProcessEnv,
  since: string | undefined,
): Promise<ChangesAnswer> {
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
    return {
      as_of: (meta.get("as_of") as string | null) ?? null,
      since: since ?? null,
      changes: readChanges(db, since),
    };
  } finally {
    db.close();
  }
}
