import { statSync } from "node:fs";
import path from "node:path";
import { loadDataset } from "../dataset/load.js";
import { isSqliteFile } from "./sqlite.js";
import { checkInputFile } from "../files/input-file.js";
import { SNAPSHOT_FORMAT } from "./schema.js";
import type { RuleTableInfo } from "./rule-info.js";

/** What `coverage data info` reports about a dataset file or a snapshot. */
export interface DatasetInfo {
  file: string;
  format: string;
  format_version: number;
  as_of: string | null;
  source: string;
  payers: number;
  lobs: number;
  policies: number;
  versions: number;
  applicability_links: number;
  code_links: number;
  /** Distinct codes (system and normalised code) linked by some version. */
  codes: number;
  /** Entries of the code catalogue (descriptions). */
  catalogue: number;
  size_bytes: number;
  /** Medicare's rule files in a snapshot (`data import edits|fees|pa`), when it holds any. */
  rules?: RuleTableInfo[];
}

/** Reads a file's figures: a snapshot from its meta table, a JSON dataset by loading it. */
export async function describeDataset(file: string): Promise<DatasetInfo> {
  const abs = path.resolve(file);
  checkInputFile(file, "");
  if (isSqliteFile(abs)) {
    const { openSnapshotDatabase } = await import("./store.js");
    const { db, meta } = await openSnapshotDatabase(file, { older: true });
    const { describeRuleTables } = await import("./rule-info.js");
    let rules: RuleTableInfo[] | undefined;
    try {
      rules = describeRuleTables(db);
    } finally {
      db.close();
    }
    const n = (key: string) => Number(meta.get(key) ?? 0);
    return {
      file: abs,
      format: SNAPSHOT_FORMAT,
      format_version: n("format_version"),
      as_of: (meta.get("as_of") as string | null) ?? null,
      source: String(meta.get("source") ?? ""),
      payers: n("payers"),
      lobs: n("lobs"),
      policies: n("policies"),
      versions: n("versions"),
      applicability_links: n("applicability_links"),
      code_links: n("code_links"),
      codes: n("codes"),
      catalogue: n("catalogue"),
      size_bytes: statSync(abs).size,
      ...(rules && { rules }),
    };
  }
  const { db } = await loadDataset(file);
  let links = 0;
  let codeLinks = 0;
  for (const v of db.policies) {
    links += v.links.length;
    codeLinks += v.codes.length;
  }
  return {
    file: abs,
    format: "coverage-dataset",
    format_version: 1,
    as_of: db.asOf,
    source: path.basename(abs),
    payers: db.payers.size,
    lobs: db.lobs.length,
    policies: db.bySeries.size,
    versions: db.policies.length,
    applicability_links: links,
    code_links: codeLinks,
    codes: db.byCode.size,
    catalogue: db.catalogue.size,
    size_bytes: statSync(abs).size,
  };
}
