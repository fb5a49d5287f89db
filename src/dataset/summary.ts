import type { Db } from "../engine/db.js";
import { versionState } from "../engine/time.js";

export interface DatasetSummary {
  versions: number;
  policies: number;
  payers: number;
  lobs: number;
  codeLinks: number;
  catalogue: number;
  files: number;
  byState: { active: number; retired: number; upcoming: number };
}

/** Counts what a dataset holds, for `npm run fixtures:check` and its test. */
export function summarizeDataset(db: Db, today: string): DatasetSummary {
  const byState = { active: 0, retired: 0, upcoming: 0 };
  for (const v of db.policies) byState[versionState(v, today)]++;
  return {
    versions: db.policies.length,
    policies: db.bySeries.size,
    payers: db.payers.size,
    lobs: db.lobs.length,
    codeLinks: db.policies.reduce((n, v) => n + v.codes.length, 0),
    catalogue: db.catalogue.size,
    files: db.policies.reduce((n, v) => n + (v.files.display ? 1 : 0) + (v.files.text ? 1 : 0), 0),
    byState,
  };
}
