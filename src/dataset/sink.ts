import type { DatasetCode, DatasetLob, DatasetPayer, DatasetPolicy } from "./schema.js";

/** What a producer knows of the data as a whole, recorded beside it. */
export interface DatasetMeta {
  /** The day the data describes ("today" for the engine when not pinned); null when unknown. */
  as_of: string | null;
  /** Where the data came from, free text (`dataset.json`, `CMS MCD export (all_data.zip)`). */
  source: string;
}

/** Counts of what a sink received, for summaries and `data info`. */
export interface DatasetSummary {
  payers: number;
  lobs: number;
  codes: number;
  policies: number;
  applicabilityLinks: number;
  codeLinks: number;
}

/**
 * A streaming consumer of dataset records. The snapshot writer implements it; producers (the
 * JSON dataset reader, the MCD importer) call it record by record, so that no producer needs
 * the whole dataset in memory. Records may come in any order: references (a LOB's payer, an
 * applicability link's LOB) and uniqueness are checked by `finish`.
 */
export interface DatasetSink {
  addPayer(payer: DatasetPayer): void;
  addLob(lob: DatasetLob): void;
  addCode(code: DatasetCode): void;
  addPolicy(policy: DatasetPolicy): void;
  /** Checks references, builds indexes and publishes the output (atomically, for files). */
  finish(meta: DatasetMeta): Promise<DatasetSummary>;
  /** Drops everything received; no partial output is left behind. */
  abort(): Promise<void>;
}
